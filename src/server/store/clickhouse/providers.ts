/**
 * ClickHouse implementation of ProvidersStore: one ReplacingMergeTree row per provider
 * (migrations/v06AnnotationQueuesProviders.ts), rewritten whole by a save, tombstoned by a
 * delete. The API key arrives sealed by the same secret box as on SQLite (auth/secretBox.ts) and
 * is stored as that ciphertext only; every replica must share `WEFT_SECRET` to read back keys
 * another one sealed.
 *
 * Weaker than SQLite, and said so: "a name is unique in its project" is checked by a read just
 * before the insert, so two replicas saving two providers of one name in the same instant can
 * both succeed; a save of one id from two places keeps the later version (last writer wins).
 */
import { ConflictError } from '../../errors.js';
import type { ProviderRecord, ProvidersStore } from '../ProvidersStore.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';

interface Row {
  id: string;
  project_id: string;
  name: string;
  base_url: string;
  api_key_sealed: string | null;
  api_key_mask: string | null;
  auth_style: string;
  extra_headers: string;
  models: string;
  price_ids: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS =
  'id, project_id, name, base_url, api_key_sealed, api_key_mask, auth_style, extra_headers, models, price_ids, created_by, created_at, updated_at';

/** The live providers (FINAL picks each id's newest version; a tombstone hides it). */
const LIVE = `SELECT ${COLUMNS} FROM model_providers FINAL WHERE is_deleted = 0`;

const toRecord = (r: Row): ProviderRecord => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  baseUrl: r.base_url,
  apiKeySealed: r.api_key_sealed,
  apiKeyMask: r.api_key_mask,
  authStyle: r.auth_style === 'api-key' ? 'api-key' : 'bearer',
  extraHeaders: JSON.parse(r.extra_headers) as Record<string, string>,
  models: JSON.parse(r.models) as ProviderRecord['models'],
  priceIds: JSON.parse(r.price_ids) as string[],
  createdBy: r.created_by,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

export class ClickHouseProvidersStore implements ProvidersStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async listProviders(projectId: string): Promise<ProviderRecord[]> {
    return (await this.#db.all<Row>(`${LIVE} AND project_id = {p:String} ORDER BY name`, { p: projectId })).map(toRecord);
  }

  async anyProvider(entities: string[] | 'all'): Promise<boolean> {
    if (entities !== 'all' && entities.length === 0) return false;
    const scope = entities === 'all' ? '' : " AND substringIndex(project_id, '/', 1) IN {e:Array(String)}";
    return (await this.#db.get(`SELECT 1 FROM (${LIVE}${scope}) LIMIT 1`, { e: entities === 'all' ? [] : entities })) !== null;
  }

  async getProvider(req: { projectId: string; id: string }): Promise<ProviderRecord | null> {
    const row = await this.#db.get<Row>(`${LIVE} AND project_id = {p:String} AND id = {i:String}`, { p: req.projectId, i: req.id });
    return row ? toRecord(row) : null;
  }

  async saveProvider(p: ProviderRecord): Promise<void> {
    const taken = await this.#db.get<{ id: string }>(
      `SELECT id FROM (${LIVE} AND project_id = {p:String} AND name = {n:String} AND id != {i:String})`,
      {
        p: p.projectId,
        n: p.name,
        i: p.id,
      },
    );
    if (taken) throw new ConflictError(`The project already has a provider named "${p.name}"`);
    // An update keeps the record's creation (the SQLite upsert leaves created_* alone).
    const existing = await this.getProvider({ projectId: p.projectId, id: p.id });
    const version = await this.#version(p.projectId, p.id);
    await this.#db.insert('model_providers', [
      {
        project_id: p.projectId,
        id: p.id,
        name: p.name,
        base_url: p.baseUrl,
        api_key_sealed: p.apiKeySealed,
        api_key_mask: p.apiKeyMask,
        auth_style: p.authStyle,
        extra_headers: JSON.stringify(p.extraHeaders),
        models: JSON.stringify(p.models),
        price_ids: JSON.stringify(p.priceIds),
        created_by: existing?.createdBy ?? p.createdBy,
        created_at: existing?.createdAt ?? p.createdAt,
        updated_at: p.updatedAt,
        version,
        is_deleted: 0,
      },
    ]);
  }

  async deleteProvider(req: { projectId: string; id: string }): Promise<boolean> {
    const existing = await this.getProvider(req);
    if (!existing) return false;
    await this.#db.insert('model_providers', [
      {
        project_id: existing.projectId,
        id: existing.id,
        name: existing.name,
        base_url: existing.baseUrl,
        api_key_sealed: null,
        api_key_mask: null,
        auth_style: existing.authStyle,
        extra_headers: '{}',
        models: '[]',
        price_ids: '[]',
        created_by: existing.createdBy,
        created_at: existing.createdAt,
        updated_at: existing.updatedAt,
        version: await this.#version(existing.projectId, existing.id),
        is_deleted: 1,
      },
    ]);
    return true;
  }

  #version(projectId: string, id: string): Promise<number> {
    return this.#db.versionAfter('model_providers', 'project_id = {p:String} AND id = {i:String}', { p: projectId, i: id });
  }
}
