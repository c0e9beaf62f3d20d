/**
 * `weft backup <file>` and `weft restore <file>` (docs/operations/backup.md): what they print
 * and refuse; the work is in sqliteBackup.ts and clickhouseBackup.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, storeConfigOf } from '../config.js';
import { clickhouseOptions } from '../store/openStore.js';
import { backupClickHouse, parseTarget, restoreSql } from './clickhouseBackup.js';
import { backupSqlite, restoreSqlite } from './sqliteBackup.js';

const FLAGS = {
  'data-dir': { type: 'string' },
  store: { type: 'string' },
  'clickhouse-url': { type: 'string' },
  'clickhouse-user': { type: 'string' },
  'clickhouse-database': { type: 'string' },
  'clickhouse-backup-disk': { type: 'string' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const BACKUP_HELP = `weft backup <file> [--data-dir ./.weft] [--force]
weft backup <name> --store clickhouse --clickhouse-backup-disk <disk>
weft backup <s3 url> --store clickhouse

Copies the SQLite database of a running (or stopped) server, consistently, to <file>: the
database as it was when the copy began, while writes go on. <file> must not exist (--force
replaces it). Keep secret.key (or WEFT_SECRET) with it: provider keys are sealed with it.
On ClickHouse it runs BACKUP DATABASE to a backup disk or S3, and prints the RESTORE statement.

weft restore <file> [--data-dir ./.weft]

Puts a backup in place as the data directory's database. Refuses while a server uses the
directory, and a file that is not a sound Weft database or is from a newer Weft. The database
that was there is kept as weft.sqlite.pre-restore-<time>. On ClickHouse, see the RESTORE
statement weft backup printed (docs/operations/backup.md).`;

function parse(args: string[]) {
  const { values, positionals } = parseArgs({ args, options: FLAGS, allowPositionals: true, strict: true });
  const flags: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (typeof v === 'string') flags[k] = v;
  return { values, positionals, config: loadConfig(process.env, flags) };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function backupCommand(args: string[], out: (line: string) => void = console.log): Promise<void> {
  const { values, positionals, config } = parse(args);
  if (values.help) return out(BACKUP_HELP);
  const [target] = positionals;
  if (!target || positionals.length > 1) throw new Error('name one file to write: weft backup <file>');
  if (config.store === 'clickhouse') {
    const options = clickhouseOptions(storeConfigOf(config));
    const where = parseTarget(target, values['clickhouse-backup-disk']);
    out(`Backing up ClickHouse database "${options.database}" ...`);
    const result = await backupClickHouse(options, where, out);
    out(`Backed up "${options.database}": ${result.files} files, ${mb(result.bytes)} in ${secs(result.ms)} (backup id ${result.id}).`);
    out(`To restore it beside the current database, run in ClickHouse:\n  ${result.restoreSql};`);
    out(`then point WEFT_CLICKHOUSE_DATABASE at "${options.database}_restored" (docs/operations/backup.md).`);
    return;
  }
  let told = -1;
  const result = await backupSqlite(config.dataDir, target, {
    force: values.force === true,
    progress: (copied, total) => {
      // A line per tenth: enough to see a long copy move, without flooding a log.
      const tenth = Math.floor((copied / total) * 10);
      if (tenth > told && tenth < 10) out(`  ${tenth * 10}% (${copied} of ${total} pages)`);
      told = tenth;
    },
  });
  out(
    `Backed up ${join(config.dataDir, 'weft.sqlite')} to ${result.file}: ${mb(result.bytes)} in ${secs(result.ms)} (schema version ${result.schemaVersion}).`,
  );
  if (!config.secret && existsSync(join(config.dataDir, 'secret.key'))) {
    out(`Keep a copy of ${join(config.dataDir, 'secret.key')} with it: the provider keys in the database are sealed with it.`);
  }
}

export async function restoreCommand(args: string[], out: (line: string) => void = console.log): Promise<void> {
  const { values, positionals, config } = parse(args);
  if (values.help) return out(BACKUP_HELP);
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new Error('name the backup to restore: weft restore <file>');
  if (config.store === 'clickhouse') {
    // Restoring replaces a whole database under every replica: an operator's statement, not ours.
    const options = clickhouseOptions(storeConfigOf(config));
    const where = parseTarget(file, values['clickhouse-backup-disk']);
    out(`weft restore does not run RESTORE on ClickHouse. Run in ClickHouse:\n  ${restoreSql(options.database, where)};`);
    out(`then point WEFT_CLICKHOUSE_DATABASE at "${options.database}_restored" and restart the replicas (docs/operations/backup.md).`);
    return;
  }
  const result = restoreSqlite(config.dataDir, file);
  out(`Restored ${file} into ${join(config.dataDir, 'weft.sqlite')}: ${mb(result.bytes)}, schema version ${result.schemaVersion}.`);
  out(result.keptAside ? `The database that was there is kept as ${result.keptAside}.` : 'There was no database there before.');
}
