/**
 * `weft backup` on ClickHouse: the engine's own `BACKUP DATABASE ... TO`, to a disk configured
 * for backups or to S3, run ASYNC and followed in `system.backups` so a long one shows
 * progress. Restoring is left to the operator, who runs the RESTORE statement printed here
 * (docs/operations/backup.md says why and how).
 */
import { ClickHouseDatabase, num, type ClickHouseOptions } from '../store/clickhouse/ClickHouseDatabase.js';
import { quoteIdentifier } from '../store/clickhouse/migrate.js';

/** Where a backup goes: `Disk('<disk>', '<name>')`, or `S3('<url>')` (credentials from the server's own configuration). */
export type BackupTarget = { kind: 'disk'; disk: string; name: string } | { kind: 's3'; url: string };

/** A ClickHouse string literal: BACKUP's destination takes literals, not query parameters. */
export function stringLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function targetSql(target: BackupTarget): string {
  return target.kind === 'disk' ? `Disk(${stringLiteral(target.disk)}, ${stringLiteral(target.name)})` : `S3(${stringLiteral(target.url)})`;
}

/** The target a `weft backup` argument names: a URL is S3, anything else a name on `disk`. */
export function parseTarget(arg: string, disk: string | undefined): BackupTarget {
  if (/^https?:\/\//i.test(arg)) return { kind: 's3', url: arg };
  if (!disk) {
    throw new Error(
      `say where ClickHouse writes the backup: --clickhouse-backup-disk <disk> (a disk allowed in the server's <backups><allowed_disk>), or an S3 URL instead of "${arg}"`,
    );
  }
  return { kind: 'disk', disk, name: arg };
}

export interface ClickHouseBackupResult {
  id: string;
  bytes: number;
  files: number;
  ms: number;
  restoreSql: string;
}

interface BackupRow {
  status: string;
  error: string;
  num_files: string | number;
  total_size: string | number;
  files_read: string | number;
  bytes_read: string | number;
}

/** The RESTORE statement for a backup of `database`, into a new database beside it. */
export function restoreSql(database: string, target: BackupTarget): string {
  return `RESTORE DATABASE ${quoteIdentifier(database)} AS ${quoteIdentifier(`${database}_restored`)} FROM ${targetSql(target)}`;
}

export async function backupClickHouse(
  options: ClickHouseOptions,
  target: BackupTarget,
  progress: (message: string) => void = () => {},
  pollMs = 1000,
): Promise<ClickHouseBackupResult> {
  const db = new ClickHouseDatabase(options);
  const began = performance.now();
  try {
    const started = await db.get<{ id: string; status: string }>(
      `BACKUP DATABASE ${quoteIdentifier(options.database)} TO ${targetSql(target)} ASYNC`,
    );
    if (!started) throw new Error('ClickHouse answered BACKUP without an id');
    for (;;) {
      const row = await db.get<BackupRow>(
        'SELECT status, error, num_files, total_size, files_read, bytes_read FROM system.backups WHERE id = {id:String}',
        { id: started.id },
      );
      if (!row) throw new Error(`backup ${started.id} is missing from system.backups`);
      if (row.status === 'BACKUP_CREATED') {
        return {
          id: started.id,
          bytes: num(row.total_size),
          files: num(row.num_files),
          ms: performance.now() - began,
          restoreSql: restoreSql(options.database, target),
        };
      }
      if (row.status !== 'CREATING_BACKUP') throw new Error(`ClickHouse: ${row.status}: ${row.error}`);
      progress(`${row.status}: ${num(row.files_read)} files, ${(num(row.bytes_read) / 1e6).toFixed(1)} MB read`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  } finally {
    await db.close();
  }
}
