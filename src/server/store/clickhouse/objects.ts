/**
 * ClickHouse implementation of ObjectsStore: versions, tags and aliases in ReplacingMergeTree
 * tables (migrations/v03Objects.ts). Nothing derived is stored: version_index comes from the
 * creation log and is_latest from the live versions, both at read time, so writes from several
 * replicas need no coordination and reads never depend on when merges run.
 *
 * Weaker than SQLite, and said so: "create unless a live version has this digest" and the
 * name/type collision check read before they insert, so two replicas creating clashing
 * versions in the same instant can both succeed. Two concurrent creates of the same digest
 * collapse into one version (one creation per generation).
 */
import { ObjectNameTypeCollisionError } from '../../errors.js';
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
import { num, numOrNull, type ClickHouseDatabase, type Params } from './ClickHouseDatabase.js';
import { objectFileRefRows } from './fileRefs.js';

interface VersionRow {
  project_id: string;
  object_id: string;
  digest: string;
  kind: 'op' | 'object';
  base_object_class: string | null;
  leaf_object_class: string | null;
  val: string | null;
  size_bytes: string;
  wb_user_id: string | null;
  created_at: string;
  deleted_at: string | null;
  generation: number;
  version_index: string;
  is_latest: number;
  tags: string[];
  aliases: string[];
}

const toRecord = (r: VersionRow): ObjectRecord => ({
  projectId: r.project_id,
  objectId: r.object_id,
  digest: r.digest,
  kind: r.kind,
  baseObjectClass: r.base_object_class,
  leafObjectClass: r.leaf_object_class,
  valJson: r.val,
  sizeBytes: num(r.size_bytes),
  versionIndex: num(r.version_index),
  isLatest: r.is_latest === 1,
  wbUserId: r.wb_user_id,
  createdAt: num(r.created_at),
  deletedAt: numOrNull(r.deleted_at),
  tags: r.tags,
  aliases: r.aliases,
});

/**
 * Every version of the project's objects with its index, latest flag, tags and aliases. One
 * object's versions are read lighter (#objectVersions), numbered the same way.
 */
function versionsSql(metadataOnly: boolean): string {
  const scope = 'project_id = {p:String}';
  return `
    WITH
      ev AS (
        SELECT object_id, digest, generation,
          row_number() OVER (PARTITION BY object_id ORDER BY created_at, digest, generation) - 1 AS n
        FROM object_creations FINAL WHERE ${scope}
      ),
      idx AS (SELECT object_id, digest, argMax(n, generation) AS version_index FROM ev GROUP BY object_id, digest),
      v AS (
        SELECT o.project_id AS project_id, o.object_id AS object_id, o.digest AS digest, o.kind AS kind,
          o.base_object_class AS base_object_class, o.leaf_object_class AS leaf_object_class,
          ${metadataOnly ? 'CAST(NULL AS Nullable(String))' : 'o.val'} AS val, o.size_bytes AS size_bytes,
          o.wb_user_id AS wb_user_id, o.created_at AS created_at, o.deleted_at AS deleted_at, o.generation AS generation,
          i.version_index AS version_index
        FROM (SELECT * FROM object_versions FINAL WHERE ${scope}) AS o
        INNER JOIN idx AS i ON i.object_id = o.object_id AND i.digest = o.digest
      ),
      latest AS (SELECT object_id, max(version_index) AS li FROM v WHERE deleted_at IS NULL GROUP BY object_id),
      t AS (
        SELECT object_id, digest, arraySort(groupArray(tag)) AS tags FROM object_tags FINAL
        WHERE ${scope} AND is_deleted = 0 GROUP BY object_id, digest
      ),
      a AS (
        SELECT object_id, digest, arraySort(groupArray(alias)) AS aliases FROM object_aliases FINAL
        WHERE ${scope} AND is_deleted = 0 GROUP BY object_id, digest
      )
    SELECT ${V_COLUMNS.map((c) => `v.${c} AS ${c}`).join(', ')}, toUInt8(ifNull(v.deleted_at IS NULL AND v.version_index = latest.li, 0)) AS is_latest,
      t.tags AS tags, a.aliases AS aliases
    FROM v
    LEFT JOIN latest ON latest.object_id = v.object_id
    LEFT JOIN t ON t.object_id = v.object_id AND t.digest = v.digest
    LEFT JOIN a ON a.object_id = v.object_id AND a.digest = v.digest`;
}

const V_COLUMNS = [
  'project_id',
  'object_id',
  'digest',
  'kind',
  'base_object_class',
  'leaf_object_class',
  'val',
  'size_bytes',
  'wb_user_id',
  'created_at',
  'deleted_at',
  'generation',
  'version_index',
];

export class ClickHouseObjectsStore implements ObjectsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  /** Columns of one stored version (live or deleted), by key: a fifth of versionsSql's engine CPU. */
  #storedVersion<T>(columns: string, key: { projectId: string; objectId: string; digest: string }): Promise<T | null> {
    return this.#db.get<T>(
      `SELECT ${columns} FROM object_versions FINAL WHERE project_id = {p:String} AND object_id = {o:String} AND digest = {d:String}`,
      { p: key.projectId, o: key.objectId, d: key.digest },
    );
  }

  /**
   * The live version with this digest, if any, after refusing a name/type collision (400). A
   * version row is written only after its creation, so the key lookup is enough.
   */
  async checkCreate(w: ObjectWrite): Promise<Pick<VersionRow, 'deleted_at' | 'generation'> | null> {
    const existing = await this.#storedVersion<Pick<VersionRow, 'deleted_at' | 'generation'>>('deleted_at, generation', w);
    if (existing && existing.deleted_at === null) return existing;
    // The newest reference binds an object id to one base class per kind (see the SQLite
    // store): a live version of another class refuses the new one.
    const clashing = await this.#db.all<{ base_object_class: string | null }>(
      `SELECT DISTINCT base_object_class FROM object_versions FINAL
       WHERE project_id = {p:String} AND object_id = {o:String} AND kind = {k:String} AND deleted_at IS NULL
         AND NOT (base_object_class <=> {b:Nullable(String)})`,
      { p: w.projectId, o: w.objectId, k: w.kind, b: w.baseObjectClass },
    );
    if (clashing.length > 0) {
      throw new ObjectNameTypeCollisionError({
        objectId: w.objectId,
        kind: w.kind,
        newBaseObjectClass: w.baseObjectClass,
        existingBaseObjectClasses: clashing.map((r) => r.base_object_class),
      });
    }
    return existing;
  }

  async createObject(w: ObjectWrite): Promise<void> {
    const existing = await this.checkCreate(w);
    if (existing && existing.deleted_at === null) return;
    const generation = existing ? existing.generation + 1 : 0;
    const key = { project_id: w.projectId, object_id: w.objectId, digest: w.digest };
    // The creation first: a version row without its creation would have no index.
    await this.#db.insert('object_creations', [
      { ...key, generation, created_at: w.createdAt, rank: Number.MAX_SAFE_INTEGER - Date.now() * 1000 },
    ]);
    await this.#db.insert('projects', [{ project_id: w.projectId, entity: w.projectId.split('/')[0], created_at: w.createdAt }]);
    await this.#db.insert('object_file_refs', objectFileRefRows(w.projectId, 'object', `${w.objectId}:${w.digest}`, [w.valJson]));
    await this.#db.insert('object_versions', [
      {
        ...key,
        kind: w.kind,
        base_object_class: w.baseObjectClass,
        leaf_object_class: w.leafObjectClass,
        val: w.valJson,
        size_bytes: w.sizeBytes,
        wb_user_id: w.wbUserId,
        created_at: w.createdAt,
        deleted_at: null,
        generation,
        // Above the deleted row a re-creation brings back.
        version: await this.#versionAfter('object_versions', { ds: [w.digest], p: w.projectId, o: w.objectId }),
      },
    ]);
  }

  /**
   * Every version of one object as versionsSql numbers it, from three key reads in parallel and
   * the rest in JS: versionsSql's window and joins cost ~40 ms of engine CPU per read, these ~20.
   * Values are left out.
   */
  async #objectVersions(projectId: string, objectId: string): Promise<VersionRow[]> {
    const key = { p: projectId, o: objectId };
    const scope = 'project_id = {p:String} AND object_id = {o:String}';
    const [creations, versions, labels] = await Promise.all([
      this.#db.all<{ digest: string; generation: number; created_at: string }>(
        `SELECT digest, generation, created_at FROM object_creations FINAL WHERE ${scope}`,
        key,
      ),
      this.#db.all<Omit<VersionRow, 'version_index' | 'is_latest' | 'tags' | 'aliases'>>(
        `SELECT ${V_COLUMNS.filter((c) => c !== 'version_index')
          .map((c) => (c === 'val' ? 'CAST(NULL AS Nullable(String)) AS val' : c))
          .join(', ')}
         FROM object_versions FINAL WHERE ${scope}`,
        key,
      ),
      this.#db.all<{ digest: string; is_alias: number; label: string }>(
        `SELECT digest, 0 AS is_alias, tag AS label FROM object_tags FINAL WHERE ${scope} AND is_deleted = 0
         UNION ALL SELECT digest, 1 AS is_alias, alias AS label FROM object_aliases FINAL WHERE ${scope} AND is_deleted = 0`,
        key,
      ),
    ]);
    // A digest's index is its newest generation's place among all creations (versionsSql's ev and idx).
    const ordered = creations
      .map((c) => ({ ...c, at: num(c.created_at) }))
      .sort((a, b) => a.at - b.at || (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0) || a.generation - b.generation);
    const index = new Map<string, { n: number; generation: number }>();
    ordered.forEach((c, n) => {
      const known = index.get(c.digest);
      if (!known || c.generation >= known.generation) index.set(c.digest, { n, generation: c.generation });
    });
    const rows = versions.flatMap((v) => {
      const i = index.get(v.digest);
      return i ? [{ ...v, version_index: String(i.n), is_latest: 0, tags: [] as string[], aliases: [] as string[] }] : [];
    });
    const live = rows.filter((r) => r.deleted_at === null).map((r) => Number(r.version_index));
    const latest = live.length ? Math.max(...live) : -1;
    const byDigest = new Map(rows.map((r) => [r.digest, r]));
    for (const r of rows) r.is_latest = r.deleted_at === null && Number(r.version_index) === latest ? 1 : 0;
    for (const l of labels) byDigest.get(l.digest)?.[l.is_alias ? 'aliases' : 'tags'].push(l.label);
    for (const r of rows) {
      r.tags.sort();
      r.aliases.sort();
    }
    return rows;
  }

  async readObject(req: {
    projectId: string;
    objectId: string;
    version: VersionSelector;
    metadataOnly?: boolean;
  }): Promise<ObjectRecord | null> {
    const v = req.version;
    // A digest names its value before the versions are read: both reads go at once.
    const digestValue =
      !req.metadataOnly && 'digest' in v ? this.#storedVersion<{ val: string }>('val', { ...req, digest: v.digest }) : null;
    digestValue?.catch(() => {}); // left unawaited when no version matches: no unhandled rejection
    const matching = (await this.#objectVersions(req.projectId, req.objectId)).filter((r) =>
      'digest' in v
        ? r.digest === v.digest
        : 'index' in v
          ? Number(r.version_index) === v.index
          : 'latest' in v
            ? r.is_latest === 1
            : r.aliases.includes(v.alias),
    );
    // The live one first, then the newest (versionsSql's readers order so).
    const row = matching.sort(
      (a, b) => Number(a.deleted_at !== null) - Number(b.deleted_at !== null) || Number(b.version_index) - Number(a.version_index),
    )[0];
    if (!row) return null;
    if (!req.metadataOnly) {
      const stored = await (digestValue ?? this.#storedVersion<{ val: string }>('val', { ...req, digest: row.digest }));
      row.val = stored?.val ?? null;
    }
    return toRecord(row);
  }

  /** readObject's row, narrowed to its index and deletion (no value read). */
  async readVersionState(req: { projectId: string; objectId: string; version: VersionSelector }): Promise<VersionState | null> {
    const record = await this.readObject({ ...req, metadataOnly: true });
    return record && { versionIndex: record.versionIndex, deletedAt: record.deletedAt };
  }

  async queryObjects(q: ObjectsQuery): Promise<ObjectRecord[]> {
    const where = ['deleted_at IS NULL'];
    const params: Params = { p: q.projectId };
    const f = q.filter;
    const inList = (column: string, name: string, values: string[] | null | undefined, negate = false) => {
      if (!values?.length) return;
      params[name] = values;
      // Excluding classes keeps versions without one, as the newest reference does.
      where.push(negate ? `(${column} IS NULL OR ${column} NOT IN {${name}:Array(String)})` : `${column} IN {${name}:Array(String)}`);
    };
    if (f) {
      if (f.is_op != null) where.push(f.is_op ? "kind = 'op'" : "kind != 'op'");
      if (f.latest_only) where.push('is_latest = 1');
      inList('object_id', 'ids', f.object_ids);
      inList('base_object_class', 'base', f.base_object_classes);
      inList('base_object_class', 'nobase', f.exclude_base_object_classes, true);
      inList('leaf_object_class', 'leaf', f.leaf_object_classes);
      if (f.tags?.length) {
        params.tags = f.tags;
        where.push('hasAny(tags, {tags:Array(String)})');
      }
      if (f.aliases?.length) {
        // `latest` is virtual: it matches the latest version instead of an alias row.
        params.aliases = f.aliases;
        where.push(`(${f.aliases.includes('latest') ? 'is_latest = 1' : '0'} OR hasAny(aliases, {aliases:Array(String)}))`);
      }
    }
    params.limit = q.limit ?? 0;
    params.offset = q.offset ?? 0;
    const limit = q.limit != null ? 'LIMIT {limit:UInt64} OFFSET {offset:UInt64}' : 'LIMIT 18446744073709551615 OFFSET {offset:UInt64}';
    const rows = await this.#db.all<VersionRow>(
      `SELECT * FROM (${versionsSql(q.metadataOnly ?? false)}) WHERE ${where.join(' AND ')} ORDER BY ${objectOrder(q.sortBy)} ${limit}`,
      params,
    );
    return rows.map(toRecord);
  }

  async deleteObjects(req: {
    projectId: string;
    objectId: string;
    digests: string[] | null;
    deletedAt: number;
  }): Promise<DeletedObjectVersion[]> {
    const live = await this.#db.all<Record<string, unknown> & { digest: string }>(
      `SELECT * FROM object_versions FINAL WHERE project_id = {p:String} AND object_id = {o:String} AND deleted_at IS NULL
       ${req.digests ? 'AND digest IN {ds:Array(String)}' : ''}`,
      { p: req.projectId, o: req.objectId, ds: req.digests ?? [] },
    );
    if (live.length === 0) return [];
    // The report lists them oldest version index first, as SQLite does; the index is computed.
    const deleting = new Set(live.map((r) => r.digest));
    const ordered = (await this.#objectVersions(req.projectId, req.objectId))
      .filter((r) => deleting.has(r.digest))
      .sort((a, b) => Number(a.version_index) - Number(b.version_index));
    const version = await this.#versionAfter('object_versions', { p: req.projectId, o: req.objectId, ds: live.map((r) => r.digest) });
    await this.#db.insert(
      'object_versions',
      live.map((row) => ({ ...row, deleted_at: req.deletedAt, version })),
    );
    // Tags and aliases of deleted versions go with them (as in the newest reference).
    const digests = live.map((r) => r.digest);
    const scope = { p: req.projectId, o: req.objectId, ds: digests };
    const tags = await this.#db.all<{ digest: string; tag: string }>(
      'SELECT digest, tag FROM object_tags FINAL WHERE project_id = {p:String} AND object_id = {o:String} AND digest IN {ds:Array(String)}',
      scope,
    );
    await this.#tagRows(req.projectId, req.objectId, tags, 1);
    const aliases = await this.#db.all<{ alias: string }>(
      'SELECT alias FROM object_aliases FINAL WHERE project_id = {p:String} AND object_id = {o:String} AND digest IN {ds:Array(String)}',
      scope,
    );
    await this.#aliasRows(
      req.projectId,
      req.objectId,
      aliases.map((a) => ({ alias: a.alias, digest: '' })),
      1,
    );
    return ordered.map((r) => ({ digest: r.digest, baseObjectClass: r.base_object_class, leafObjectClass: r.leaf_object_class }));
  }

  /** Above every stored version of the object's rows in `table` (of the digests `ds`, when given). */
  #versionAfter(table: string, params: { p: string; o: string; ds?: string[] }): Promise<number> {
    const digests = params.ds ? ' AND digest IN {ds:Array(String)}' : '';
    return this.#db.versionAfter(table, `project_id = {p:String} AND object_id = {o:String}${digests}`, params);
  }

  async #tagRows(projectId: string, objectId: string, tags: { digest: string; tag: string }[], isDeleted: number, createdAt = 0) {
    if (tags.length === 0) return;
    const version = await this.#versionAfter('object_tags', { p: projectId, o: objectId, ds: [...new Set(tags.map((t) => t.digest))] });
    await this.#db.insert(
      'object_tags',
      tags.map((t) => ({ project_id: projectId, object_id: objectId, ...t, created_at: createdAt, version, is_deleted: isDeleted })),
    );
  }

  async #aliasRows(projectId: string, objectId: string, aliases: { alias: string; digest: string }[], isDeleted: number, createdAt = 0) {
    if (aliases.length === 0) return;
    // An alias moves between digests, so the floor is over all the object's alias rows.
    const version = await this.#versionAfter('object_aliases', { p: projectId, o: objectId });
    await this.#db.insert(
      'object_aliases',
      aliases.map((a) => ({ project_id: projectId, object_id: objectId, ...a, created_at: createdAt, version, is_deleted: isDeleted })),
    );
  }

  async addTags(req: { projectId: string; objectId: string; digest: string; tags: string[]; createdAt: number }): Promise<void> {
    const rows = req.tags.map((tag) => ({ digest: req.digest, tag }));
    await this.#tagRows(req.projectId, req.objectId, rows, 0, req.createdAt);
  }

  async removeTags(req: { projectId: string; objectId: string; digest: string; tags: string[] }): Promise<void> {
    const rows = req.tags.map((tag) => ({ digest: req.digest, tag }));
    await this.#tagRows(req.projectId, req.objectId, rows, 1);
  }

  async setAliases(req: { projectId: string; objectId: string; digest: string; aliases: string[]; createdAt: number }): Promise<void> {
    const rows = req.aliases.map((alias) => ({ alias, digest: req.digest }));
    await this.#aliasRows(req.projectId, req.objectId, rows, 0, req.createdAt);
  }

  async removeAliases(req: { projectId: string; objectId: string; aliases: string[] }): Promise<void> {
    const rows = req.aliases.map((alias) => ({ alias, digest: '' }));
    await this.#aliasRows(req.projectId, req.objectId, rows, 1);
  }

  async listTags(projectId: string): Promise<string[]> {
    const rows = await this.#db.all<{ tag: string }>(
      'SELECT DISTINCT tag FROM object_tags FINAL WHERE project_id = {p:String} AND is_deleted = 0 ORDER BY tag',
      { p: projectId },
    );
    return rows.map((r) => r.tag);
  }

  async listAliases(projectId: string): Promise<string[]> {
    const rows = await this.#db.all<{ alias: string }>(
      'SELECT DISTINCT alias FROM object_aliases FINAL WHERE project_id = {p:String} AND is_deleted = 0 ORDER BY alias',
      { p: projectId },
    );
    return rows.map((r) => r.alias);
  }
}
