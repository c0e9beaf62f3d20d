/**
 * A small seeded random source for the demo generator: the same seed gives the same
 * sequence on every machine, so demo data, tests and benchmarks are reproducible.
 * Not for anything secret.
 */

/** Deterministic random helpers over one seeded stream. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Log-uniform in [min, max): many short values, a long tail of large ones (latencies). */
  logRange(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `n` lowercase hex digits. */
  hex(n: number): string;
  /** `n` characters of [A-Za-z0-9], as in provider ids like `chatcmpl-...`. */
  alnum(n: number): string;
  /**
   * A UUIDv7 for a given millisecond (RFC 9562 layout). Unlike domain/ids.ts, whose random
   * bits come from the OS, the bits here come from the seed so a demo is reproducible.
   */
  uuidv7(ms: number): string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** mulberry32: tiny, fast and well distributed enough for sample data. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const hex = (n: number) => Array.from({ length: n }, () => int(0, 15).toString(16)).join('');
  return {
    next,
    int,
    range: (min, max) => min + next() * (max - min),
    logRange: (min, max) => Math.exp(Math.log(min) + next() * (Math.log(max) - Math.log(min))),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    hex,
    alnum: (n) => Array.from({ length: n }, () => ALNUM[int(0, ALNUM.length - 1)]).join(''),
    uuidv7: (ms) => {
      const time = Math.floor(ms).toString(16).padStart(12, '0');
      const variant = (8 + int(0, 3)).toString(16);
      return `${time.slice(0, 8)}-${time.slice(8)}-7${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
  };
}
