/**
 * `weft audit verify`: walks every chain of the audit log and checks each link and hash
 * (auditChain.ts). Prints OK with the row count, or the first broken row (id and time) and
 * why, and exits 1 then (docs/security/audit.md).
 */
import { parseArgs } from 'node:util';
import { loadConfig, storeConfigOf } from '../config.js';
import { formatMicros } from '../core/datetime.js';
import { openStore } from '../store/openStore.js';
import type { Store } from '../store/Store.js';
import { verifyChain, type ChainVerdict } from './auditChain.js';

export interface AuditVerification {
  ok: boolean;
  rows: number;
  chains: ChainVerdict[];
}

/** Every chain checked; `swept`: rows before the oldest kept may have been dropped by retention. */
export async function verifyAuditLog(store: Store, swept: boolean): Promise<AuditVerification> {
  const chains: ChainVerdict[] = [];
  for (const chain of await store.audit.chains()) chains.push(await verifyChain(chain, store.audit.walk(chain), swept));
  return { ok: chains.every((c) => c.ok), rows: chains.reduce((n, c) => n + c.rows, 0), chains };
}

/** What `weft audit verify` prints for a verification. */
export function describeVerification(v: AuditVerification): string {
  const broken = v.chains.find((c) => !c.ok);
  if (broken && !broken.ok) {
    return `Audit log BROKEN in chain ${broken.chain} at row ${broken.id} (${formatMicros(broken.time)}): ${broken.reason}. ${broken.rows} row(s) before it verified.`;
  }
  const anchors = v.chains
    .filter((c) => c.ok && c.anchor && c.anchor.seq > 1)
    .map((c) =>
      c.ok && c.anchor
        ? `chain ${c.chain} verified from row ${c.anchor.seq} (${formatMicros(c.anchor.time)}), older rows dropped by retention`
        : '',
    );
  return [`Audit log OK: ${v.rows} row(s) in ${v.chains.length} chain(s).`, ...anchors].join('\n');
}

const HELP = `weft audit verify [--data-dir ./.weft] [--store clickhouse --clickhouse-url ...]

Checks the audit log's hash chain(s): every row links to the one before and hashes to what it
says. Prints OK with the row count, or the first broken row (id and time) and exits 1.`;

export async function auditCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      'data-dir': { type: 'string' },
      store: { type: 'string' },
      'clickhouse-url': { type: 'string' },
      'clickhouse-user': { type: 'string' },
      'clickhouse-database': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (sub !== 'verify' || values.help) {
    console.log(HELP);
    if (sub !== 'verify' && !values.help) process.exitCode = 2;
    return;
  }
  const flags = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const config = loadConfig(process.env, flags);
  const store = await openStore(storeConfigOf(config));
  try {
    const verification = await verifyAuditLog(store, config.auditRetentionDays !== null);
    const text = describeVerification(verification);
    if (verification.ok) console.log(text);
    else {
      console.error(text);
      process.exitCode = 1;
    }
  } finally {
    await store.close();
  }
}
