/** SQLite implementation of ProvidersStore (table model_providers, migration 8). */
import { ConflictError } from '../../errors.js';
import type { ProviderRecord, ProvidersStore } from '../ProvidersStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

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
  created_at: number;
  updated_at: number;
}

const toRecord = (r: Row): ProviderRecord => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  baseUrl: r.base_url,
  apiKeySealed: r.api_key_sealed,
  apiKeyMask: r.api_key_mask,
  authStyle: r.auth_style === 'api-key' ? 'api-key' : 'bearer',
  extraHeaders: JSON.parse(r.extra_headers),
  models: JSON.parse(r.models),
  priceIds: JSON.parse(r.price_ids),
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqliteProvidersStore implements ProvidersStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async listProviders(projectId: string): Promise<ProviderRecord[]> {
    return this.#db.all<Row>('SELECT * FROM model_providers WHERE project_id = ? ORDER BY name', [projectId]).map(toRecord);
  }

  async anyProvider(entities: string[] | 'all'): Promise<boolean> {
    if (entities === 'all') return !!this.#db.get('SELECT 1 FROM model_providers LIMIT 1');
    if (!entities.length) return false;
    const row = this.#db.get(
      `SELECT 1 FROM model_providers WHERE substr(project_id, 1, instr(project_id, '/') - 1) IN (${entities.map(() => '?').join(', ')}) LIMIT 1`,
      entities,
    );
    return !!row;
  }

  async getProvider(req: { projectId: string; id: string }): Promise<ProviderRecord | null> {
    const row = this.#db.get<Row>('SELECT * FROM model_providers WHERE project_id = ? AND id = ?', [req.projectId, req.id]);
    return row ? toRecord(row) : null;
  }

  async saveProvider(p: ProviderRecord): Promise<void> {
    this.#db.transaction(() => {
      const taken = this.#db.get<{ id: string }>('SELECT id FROM model_providers WHERE project_id = ? AND name = ? AND id <> ?', [
        p.projectId,
        p.name,
        p.id,
      ]);
      if (taken) throw new ConflictError(`The project already has a provider named "${p.name}"`);
      this.#db.run(
        `INSERT INTO model_providers (id, project_id, name, base_url, api_key_sealed, api_key_mask, auth_style, extra_headers, models,
           price_ids, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url, api_key_sealed = excluded.api_key_sealed,
           api_key_mask = excluded.api_key_mask, auth_style = excluded.auth_style, extra_headers = excluded.extra_headers,
           models = excluded.models, price_ids = excluded.price_ids, updated_at = excluded.updated_at`,
        [
          p.id,
          p.projectId,
          p.name,
          p.baseUrl,
          p.apiKeySealed,
          p.apiKeyMask,
          p.authStyle,
          JSON.stringify(p.extraHeaders),
          JSON.stringify(p.models),
          JSON.stringify(p.priceIds),
          p.createdBy,
          p.createdAt,
          p.updatedAt,
        ],
      );
    });
  }

  async deleteProvider(req: { projectId: string; id: string }): Promise<boolean> {
    return this.#db.transaction(
      () => this.#db.run('DELETE FROM model_providers WHERE project_id = ? AND id = ?', [req.projectId, req.id]).changes > 0,
    );
  }
}
