/**
 * `weft retention set|show|sweep`: retention rules from the command line, acting on the data
 * directory (or ClickHouse database) directly, like `weft user add` (docs/operations/retention.md).
 */
import { parseArgs } from 'node:util';
import { NAME_PART_PATTERN, NAME_PART_RULE, PROJECT_ID_PATTERN } from '../../contract/common.js';
import { loadConfig, storeConfigOf } from '../config.js';
import { nowMicros } from '../core/datetime.js';
import { recordCli } from '../audit/auditTrail.js';
import { entityOf, readRetention, setRetention, type RetentionTarget } from '../domain/retention/retention.js';
import { sweepRetention } from '../jobs/RetentionSweeper.js';
import { openStore } from '../store/openStore.js';
import type { Store } from '../store/Store.js';

const HELP = `weft retention set <entity[/project]> <days|off>   keep calls <days> days from their start (off: forever)
weft retention show <entity[/project]>             the rule in force and where it is set
weft retention sweep                               delete expired calls now, and say what went

A project's own rule wins over its entity's default; with neither, calls are kept forever.
Objects, datasets, evaluations and annotation answers are never expired. The server sweeps
every WEFT_RETENTION_SWEEP_SECONDS (default 60). Options: --data-dir, --store, --clickhouse-*.`;

const storeFlags = {
  'data-dir': { type: 'string' },
  store: { type: 'string' },
  'clickhouse-url': { type: 'string' },
  'clickhouse-user': { type: 'string' },
  'clickhouse-database': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function targetOf(arg: string | undefined): RetentionTarget {
  if (arg && PROJECT_ID_PATTERN.test(arg)) return { projectId: arg };
  if (arg && NAME_PART_PATTERN.test(arg)) return { entity: arg };
  throw new Error(`name an entity or <entity>/<project>, each part ${NAME_PART_RULE}\n\n${HELP}`);
}

function describe(r: Awaited<ReturnType<typeof readRetention>>): string {
  const name = r.project_id ?? `${r.entity} (entity default)`;
  if (r.days === null) return `${name}: calls are kept forever (no rule)`;
  const from = r.source === 'project' ? 'its own rule' : `the default of entity "${r.entity}"`;
  return `${name}: calls are kept ${r.days} day(s) from their start (${from}, set ${r.updated_at} by ${r.updated_by})`;
}

export async function retentionCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: storeFlags });
  const [sub, target, days] = positionals;
  if (values.help || !sub) return void console.log(HELP);
  const flags = Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== 'help' && typeof v === 'string')) as Record<
    string,
    string
  >;
  const config = loadConfig(process.env, flags);
  const withStore = async (fn: (store: Store) => Promise<void>) => {
    const store = await openStore(storeConfigOf(config));
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  };
  if (sub === 'show') {
    const t = targetOf(target);
    return withStore(async (store) => console.log(describe(await readRetention(store, t))));
  }
  if (sub === 'set') {
    const t = targetOf(target);
    const n = days === 'off' ? null : Number(days);
    if (n !== null && (!Number.isInteger(n) || n < 1 || n > 36_500)) {
      throw new Error(`days must be a whole number from 1 to 36500, or "off" to keep calls forever (got ${JSON.stringify(days ?? '')})`);
    }
    return withStore(async (store) => {
      const { before, after } = await setRetention(store, { target: t, days: n, by: 'cli', now: nowMicros() });
      await recordCli(store, {
        action: 'retention.changed',
        target: 'projectId' in t ? t.projectId : t.entity,
        entity: entityOf(t),
        projectId: 'projectId' in t ? t.projectId : null,
        details: { days_before: 'projectId' in t ? before.project_days : before.entity_days, days_after: n },
      });
      console.log(describe(after));
      if (n !== null) console.log('Older calls are deleted at the next sweep (or now: weft retention sweep).');
    });
  }
  if (sub === 'sweep') {
    return withStore(async (store) => {
      let total = 0;
      for (;;) {
        const report = await sweepRetention(store, { now: nowMicros() });
        for (const p of report.projects) {
          console.log(
            `${p.projectId}: deleted ${p.calls} call(s) older than ${p.days} day(s), ${p.feedback} feedback row(s), ` +
              `${p.files} file(s) (${p.fileBytes} bytes) only they referred to`,
          );
        }
        total += report.calls;
        if (!report.more) break;
      }
      if (total === 0) console.log('Nothing to delete: no call is older than its rule.');
    });
  }
  throw new Error(`unknown subcommand "${sub}"\n\n${HELP}`);
}
