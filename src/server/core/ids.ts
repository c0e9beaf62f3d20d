/** Server-generated identifiers. */
import { randomFillSync } from 'node:crypto';

/**
 * Random bytes drawn a pool at a time: one `randomBytes(16)` per id was a measurable share of
 * a v2 evaluation request's CPU (a prediction makes two ids, a score one; cpu-prof of
 * bench:evaluations). The pool is refilled from the same CSPRNG and no byte is used twice.
 */
const POOL_BYTES = 16 * 256;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

/** A UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then random bits; sorts by time. */
export function uuidv7(now: number = Date.now()): string {
  if (poolAt + 16 > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  // The id is built in place in the pool; these 16 bytes are never drawn again.
  const at = poolAt;
  poolAt += 16;
  pool.writeUIntBE(now, at, 6);
  pool[at + 6] = 0x70 | (pool[at + 6]! & 0x0f);
  pool[at + 8] = 0x80 | (pool[at + 8]! & 0x3f);
  const h = pool.toString('hex', at, at + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
