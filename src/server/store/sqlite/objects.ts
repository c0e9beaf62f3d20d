/**
 * SQLite implementation of ObjectsStore: object versions with their tags and aliases.
 *
 * version_index and is_latest are stored columns kept right by every write (all inside one
 * transaction), so reads are plain index lookups.
 */
import type {
  DeletedObjectVersion,
  ObjectRecord,
  ObjectsQuery,
  ObjectsStore,
  ObjectWrite,
  VersionSelector,
  VersionState,
} from '../Store.js';
import { objectOrder } from '../ObjectsStore.js';
import { recordFileRefs } from './fileRefs.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { ObjectNameTypeCollisionError } from '../../errors.js';

/**
 * The newest reference binds an object id to one base class per kind: a new version whose
 * class differs from a live version's is refused (400 ObjectNameTypeCollision). Deleted
 * versions do not count, and re-creating an existing live digest never gets here (it is a
 * no-op), exactly as its `_reject_obj_name_type_collision` runs after the dedup check.
 */
function rejectNameTypeCollision(db: SqliteDatabase, w: ObjectWrite): void {
  const clashing = db.all<{ base_object_class: string | null }>(
    `SELECT DISTINCT base_object_class FROM objects
     WHERE project_id = ? AND object_id = ? AND kind = ? AND deleted_at IS NULL AND base_object_class IS NOT ?`,
    [w.projectId, w.objectId, w.kind, w.baseObjectClass],
  );
  if (clashing.length === 0) return;
  throw new ObjectNameTypeCollisionError({
    objectId: w.objectId,
    kind: w.kind,
    newBaseObjectClass: w.baseObjectClass,
    existingBaseObjectClasses: clashing.map((r) => r.base_object_class),
  });
}

interface ObjectRow {
  project_id: string;
  object_id: string;
  digest: string;
  kind: 'op' | 'object';
  base_object_class: string | null;
  leaf_object_class: string | null;
  val: string | null;
  size_bytes: number;
  version_index: number;
  is_latest: number;
  wb_user_id: string | null;
  created_at: number;
  deleted_at: number | null;
  tags: string;
  aliases: string;
}

const PROJECT_SQL = 'INSERT OR IGNORE INTO projects (project_id, entity, created_at) VALUES (?, ?, ?)';

/** The columns of a version, its value unless metadata only, and its tags and aliases as JSON. */
const selectColumns = (metadataOnly: boolean) => `
  o.project_id, o.object_id, o.digest, o.kind, o.base_object_class, o.leaf_object_class,
  ${metadataOnly ? 'NULL' : 'o.val'} AS val, o.size_bytes, o.version_index, o.is_latest, o.wb_user_id,
  o.created_at, o.deleted_at,
  (SELECT json_group_array(tag) FROM (SELECT tag FROM object_tags t
     WHERE t.project_id = o.project_id AND t.object_id = o.object_id AND t.digest = o.digest ORDER BY tag)) AS tags,
  (SELECT json_group_array(alias) FROM (SELECT alias FROM object_aliases a
     WHERE a.project_id = o.project_id AND a.object_id = o.object_id AND a.digest = o.digest ORDER BY alias)) AS aliases`;

const toRecord = (r: ObjectRow): ObjectRecord => ({
  projectId: r.project_id,
  objectId: r.object_id,
  digest: r.digest,
  kind: r.kind,
  baseObjectClass: r.base_object_class,
  leafObjectClass: r.leaf_object_class,
  valJson: r.val,
  sizeBytes: r.size_bytes,
  versionIndex: r.version_index,
  isLatest: r.is_latest === 1,
  wbUserId: r.wb_user_id,
  createdAt: r.created_at,
  deletedAt: r.deleted_at,
  tags: JSON.parse(r.tags) as string[],
  aliases: JSON.parse(r.aliases) as string[],
});

/** SQL condition (on alias `o`) and parameters selecting one version. */
function versionCondition(version: VersionSelector): [string, unknown[]] {
  if ('digest' in version) return ['o.digest = ?', [version.digest]];
  if ('index' in version) return ['o.version_index = ?', [version.index]];
  if ('latest' in version) return ['o.is_latest = 1', []];
  return [
    'o.digest = (SELECT a.digest FROM object_aliases a WHERE a.project_id = o.project_id AND a.object_id = o.object_id AND a.alias = ?)',
    [version.alias],
  ];
}

/** A list bound as one JSON parameter (`IN (SELECT value FROM json_each(?))`), so the SQL text stays the same. */
const IN_LIST = 'IN (SELECT value FROM json_each(?))';

export class SqliteObjectsStore implements ObjectsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async createObject(w: ObjectWrite): Promise<void> {
    const db = this.#db;
    db.transaction(() => {
      const existing = db.get<{ deleted_at: number | null }>(
        'SELECT deleted_at FROM objects WHERE project_id = ? AND object_id = ? AND digest = ?',
        [w.projectId, w.objectId, w.digest],
      );
      if (existing && existing.deleted_at === null) return;
      rejectNameTypeCollision(db, w);
      // The next index after every version ever made, deleted ones included: the reference
      // counts rows (SQLite) or ranks first creations (ClickHouse), which agree with this
      // until a deleted digest is revived; then max+1 also keeps indices unique.
      const next = db.get<{ next: number }>(
        'SELECT coalesce(max(version_index) + 1, 0) AS next FROM objects WHERE project_id = ? AND object_id = ?',
        [w.projectId, w.objectId],
      )!.next;
      db.run('UPDATE objects SET is_latest = 0 WHERE project_id = ? AND object_id = ? AND is_latest = 1', [w.projectId, w.objectId]);
      db.run(
        `INSERT INTO objects (project_id, object_id, digest, kind, base_object_class, leaf_object_class, val, size_bytes,
           version_index, is_latest, wb_user_id, created_at, deleted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, NULL)
         ON CONFLICT (project_id, object_id, digest) DO UPDATE SET
           kind = excluded.kind, base_object_class = excluded.base_object_class, leaf_object_class = excluded.leaf_object_class,
           val = excluded.val, size_bytes = excluded.size_bytes, version_index = excluded.version_index, is_latest = 1,
           wb_user_id = excluded.wb_user_id, created_at = excluded.created_at, deleted_at = NULL`,
        [
          w.projectId,
          w.objectId,
          w.digest,
          w.kind,
          w.baseObjectClass,
          w.leafObjectClass,
          w.valJson,
          w.sizeBytes,
          next,
          w.wbUserId,
          w.createdAt,
        ],
      );
      recordFileRefs(db, w.projectId, 'object', `${w.objectId}:${w.digest}`, [w.valJson]);
      db.run(PROJECT_SQL, [w.projectId, w.projectId.split('/')[0], w.createdAt]);
    });
  }

  async readObject(req: {
    projectId: string;
    objectId: string;
    version: VersionSelector;
    metadataOnly?: boolean;
  }): Promise<ObjectRecord | null> {
    const [condition, params] = versionCondition(req.version);
    const row = this.#db.get<ObjectRow>(
      `SELECT ${selectColumns(req.metadataOnly ?? false)} FROM objects o
       WHERE o.project_id = ? AND o.object_id = ? AND ${condition}
       ORDER BY o.deleted_at IS NULL DESC, o.version_index DESC LIMIT 1`,
      [req.projectId, req.objectId, ...params],
    );
    return row ? toRecord(row) : null;
  }

  async readVersionState(req: { projectId: string; objectId: string; version: VersionSelector }): Promise<VersionState | null> {
    const [condition, params] = versionCondition(req.version);
    const row = this.#db.get<{ version_index: number; deleted_at: number | null }>(
      `SELECT o.version_index, o.deleted_at FROM objects o
       WHERE o.project_id = ? AND o.object_id = ? AND ${condition}
       ORDER BY o.deleted_at IS NULL DESC, o.version_index DESC LIMIT 1`,
      [req.projectId, req.objectId, ...params],
    );
    return row ? { versionIndex: row.version_index, deletedAt: row.deleted_at } : null;
  }

  async queryObjects(q: ObjectsQuery): Promise<ObjectRecord[]> {
    const where = ['o.project_id = ?', 'o.deleted_at IS NULL'];
    const params: unknown[] = [q.projectId];
    const f = q.filter;
    const inList = (column: string, values: string[] | null | undefined, negate = false) => {
      if (!values?.length) return;
      // Excluding classes keeps versions without a class, as the newest reference does (a
      // bare SQL NOT IN would drop them, NULL NOT IN being NULL).
      where.push(negate ? `(${column} IS NULL OR ${column} NOT ${IN_LIST})` : `${column} ${IN_LIST}`);
      params.push(JSON.stringify(values));
    };
    if (f) {
      if (f.is_op != null) where.push(f.is_op ? "o.kind = 'op'" : "o.kind != 'op'");
      if (f.latest_only) where.push('o.is_latest = 1');
      inList('o.object_id', f.object_ids);
      inList('o.base_object_class', f.base_object_classes);
      inList('o.base_object_class', f.exclude_base_object_classes, true);
      inList('o.leaf_object_class', f.leaf_object_classes);
      if (f.tags?.length) {
        where.push(`EXISTS (SELECT 1 FROM object_tags t WHERE t.project_id = o.project_id AND t.object_id = o.object_id
          AND t.digest = o.digest AND t.tag ${IN_LIST})`);
        params.push(JSON.stringify(f.tags));
      }
      if (f.aliases?.length) {
        // `latest` is virtual: it matches the latest version instead of an alias row.
        where.push(`(${f.aliases.includes('latest') ? 'o.is_latest = 1' : '0'} OR EXISTS (SELECT 1 FROM object_aliases a
          WHERE a.project_id = o.project_id AND a.object_id = o.object_id AND a.digest = o.digest AND a.alias ${IN_LIST}))`);
        params.push(JSON.stringify(f.aliases));
      }
    }
    const rows = this.#db.all<ObjectRow>(
      `SELECT ${selectColumns(q.metadataOnly ?? false)} FROM objects o WHERE ${where.join(' AND ')}
       ORDER BY ${objectOrder(q.sortBy, 'o.')} LIMIT ? OFFSET ?`,
      [...params, q.limit ?? -1, q.offset ?? 0],
    );
    return rows.map(toRecord);
  }

  async deleteObjects(req: {
    projectId: string;
    objectId: string;
    digests: string[] | null;
    deletedAt: number;
  }): Promise<DeletedObjectVersion[]> {
    const db = this.#db;
    const key = [req.projectId, req.objectId];
    const only = req.digests ? ` AND digest ${IN_LIST}` : '';
    const digests = req.digests ? [JSON.stringify(req.digests)] : [];
    return db.transaction(() => {
      const doomed = db
        .all<{ digest: string; base_object_class: string | null; leaf_object_class: string | null }>(
          `SELECT digest, base_object_class, leaf_object_class FROM objects
           WHERE project_id = ? AND object_id = ? AND deleted_at IS NULL${only} ORDER BY version_index`,
          [...key, ...digests],
        )
        .map((r) => ({ digest: r.digest, baseObjectClass: r.base_object_class, leafObjectClass: r.leaf_object_class }));
      db.run(`UPDATE objects SET deleted_at = ?, is_latest = 0 WHERE project_id = ? AND object_id = ? AND deleted_at IS NULL${only}`, [
        req.deletedAt,
        ...key,
        ...digests,
      ]);
      // Tags and aliases of deleted versions go with them (as in the newest reference).
      const gone = 'digest IN (SELECT digest FROM objects WHERE project_id = ? AND object_id = ? AND deleted_at IS NOT NULL)';
      db.run(`DELETE FROM object_tags WHERE project_id = ? AND object_id = ? AND ${gone}`, [...key, ...key]);
      db.run(`DELETE FROM object_aliases WHERE project_id = ? AND object_id = ? AND ${gone}`, [...key, ...key]);
      db.run(
        `UPDATE objects SET is_latest = 1 WHERE project_id = ? AND object_id = ? AND digest = (
           SELECT digest FROM objects WHERE project_id = ? AND object_id = ? AND deleted_at IS NULL
           ORDER BY version_index DESC LIMIT 1)
         AND NOT EXISTS (SELECT 1 FROM objects WHERE project_id = ? AND object_id = ? AND is_latest = 1)`,
        [...key, ...key, ...key],
      );
      return doomed;
    });
  }

  async addTags(req: { projectId: string; objectId: string; digest: string; tags: string[]; createdAt: number }): Promise<void> {
    const db = this.#db;
    db.transaction(() => {
      for (const tag of req.tags) {
        db.run('INSERT OR IGNORE INTO object_tags (project_id, object_id, digest, tag, created_at) VALUES (?, ?, ?, ?, ?)', [
          req.projectId,
          req.objectId,
          req.digest,
          tag,
          req.createdAt,
        ]);
      }
    });
  }

  async removeTags(req: { projectId: string; objectId: string; digest: string; tags: string[] }): Promise<void> {
    if (req.tags.length === 0) return;
    this.#db.run(`DELETE FROM object_tags WHERE project_id = ? AND object_id = ? AND digest = ? AND tag ${IN_LIST}`, [
      req.projectId,
      req.objectId,
      req.digest,
      JSON.stringify(req.tags),
    ]);
  }

  async setAliases(req: { projectId: string; objectId: string; digest: string; aliases: string[]; createdAt: number }): Promise<void> {
    const db = this.#db;
    db.transaction(() => {
      for (const alias of req.aliases) {
        // The primary key (project, object, alias) makes this move the alias, not copy it.
        db.run(
          `INSERT INTO object_aliases (project_id, object_id, alias, digest, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (project_id, object_id, alias) DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at`,
          [req.projectId, req.objectId, alias, req.digest, req.createdAt],
        );
      }
    });
  }

  async removeAliases(req: { projectId: string; objectId: string; aliases: string[] }): Promise<void> {
    if (req.aliases.length === 0) return;
    this.#db.run(`DELETE FROM object_aliases WHERE project_id = ? AND object_id = ? AND alias ${IN_LIST}`, [
      req.projectId,
      req.objectId,
      JSON.stringify(req.aliases),
    ]);
  }

  async listTags(projectId: string): Promise<string[]> {
    return this.#db
      .all<{ tag: string }>('SELECT DISTINCT tag FROM object_tags WHERE project_id = ? ORDER BY tag', [projectId])
      .map((r) => r.tag);
  }

  async listAliases(projectId: string): Promise<string[]> {
    return this.#db
      .all<{ alias: string }>('SELECT DISTINCT alias FROM object_aliases WHERE project_id = ? ORDER BY alias', [projectId])
      .map((r) => r.alias);
  }
}
