/**
 * SQLite implementation of CostsStore. Opening it replaces the default-level prices with the
 * list this release ships (domain/defaultPrices.ts); project-level prices are never touched.
 */
import { defaultPriceRecords } from '../../core/defaultPrices.js';
import type { CostQuery, CostsStore, PriceRecord } from '../CostsStore.js';
import type { SqliteDatabase } from './SqliteDatabase.js';
import { deleteTableIds, queryTable, type SqlFragment, type TableColumns } from './tableQuery.js';

/** Every column, as `/cost/query` can name them. */
const COLUMNS: TableColumns = {
  id: 'text',
  pricing_level: 'text',
  pricing_level_id: 'text',
  provider_id: 'text',
  llm_id: 'text',
  effective_date: 'datetime',
  prompt_token_cost: 'number',
  completion_token_cost: 'number',
  cache_read_input_token_cost: 'number',
  cache_creation_input_token_cost: 'number',
  prompt_token_cost_unit: 'text',
  completion_token_cost_unit: 'text',
  created_by: 'text',
  created_at: 'datetime',
};

/** What `/cost/query` returns without `fields` (the reference's CostQueryOutput). */
const DEFAULT_FIELDS = [
  'id',
  'llm_id',
  'prompt_token_cost',
  'completion_token_cost',
  'cache_read_input_token_cost',
  'cache_creation_input_token_cost',
  'prompt_token_cost_unit',
  'completion_token_cost_unit',
  'effective_date',
  'provider_id',
];

const INSERT_SQL = `INSERT INTO llm_token_prices (${Object.keys(COLUMNS).join(', ')})
  VALUES (${Object.keys(COLUMNS)
    .map(() => '?')
    .join(', ')})`;

const values = (p: PriceRecord) => [
  p.id,
  p.pricingLevel,
  p.pricingLevelId,
  p.providerId,
  p.llmId,
  p.effectiveDate,
  p.promptTokenCost,
  p.completionTokenCost,
  p.cacheReadInputTokenCost ?? 0,
  p.cacheCreationInputTokenCost ?? 0,
  p.promptTokenCostUnit,
  p.completionTokenCostUnit,
  p.createdBy,
  p.createdAt,
];

interface PriceRow {
  id: string;
  pricing_level: 'project' | 'default';
  pricing_level_id: string;
  provider_id: string;
  llm_id: string;
  effective_date: number;
  prompt_token_cost: number;
  completion_token_cost: number;
  cache_read_input_token_cost: number;
  cache_creation_input_token_cost: number;
  prompt_token_cost_unit: string;
  completion_token_cost_unit: string;
  created_by: string;
  created_at: number;
}

const fromRow = (r: PriceRow): PriceRecord => ({
  id: r.id,
  pricingLevel: r.pricing_level,
  pricingLevelId: r.pricing_level_id,
  providerId: r.provider_id,
  llmId: r.llm_id,
  effectiveDate: r.effective_date,
  promptTokenCost: r.prompt_token_cost,
  completionTokenCost: r.completion_token_cost,
  cacheReadInputTokenCost: r.cache_read_input_token_cost,
  cacheCreationInputTokenCost: r.cache_creation_input_token_cost,
  promptTokenCostUnit: r.prompt_token_cost_unit,
  completionTokenCostUnit: r.completion_token_cost_unit,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

/** Ids per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/** The project's own prices (never the default level). */
const projectPrices = (projectId: string): SqlFragment => ({
  sql: "pricing_level = 'project' AND pricing_level_id = ?",
  params: [projectId],
});

/**
 * What `/costs/query` lists: the project's own prices and the instance providers' (their ids
 * start with `instance:`; an operator's price is one the project's calls are charged).
 */
const projectAndInstancePrices = (projectId: string): SqlFragment => ({
  sql: "((pricing_level = 'project' AND pricing_level_id = ?) OR (pricing_level = 'default' AND id LIKE 'instance:%'))",
  params: [projectId],
});

export class SqliteCostsStore implements CostsStore {
  readonly #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
    // The writer seeds; a read-only connection (a request thread) finds the prices there.
    if (!db.readOnly) this.#seedDefaults();
  }

  /**
   * Only the rows that differ are written: every write to the price list makes the projects'
   * kept thread costs stale (threadCostsKept.ts), so an unchanged list must not look changed.
   */
  #seedDefaults(): void {
    const insert = this.#db.prepare(INSERT_SQL);
    const remove = this.#db.prepare('DELETE FROM llm_token_prices WHERE id = ?');
    this.#db.transaction(() => {
      const stored = new Map(
        this.#db
          .all<PriceRow>("SELECT * FROM llm_token_prices WHERE pricing_level = 'default' AND id NOT LIKE 'instance:%'")
          .map((r) => [r.id, JSON.stringify(values(fromRow(r)))]),
      );
      const shipped = defaultPriceRecords();
      const wanted = new Set(shipped.map((p) => p.id));
      for (const id of stored.keys()) if (!wanted.has(id)) remove.run(id);
      for (const price of shipped) {
        const row = values(price);
        const was = stored.get(price.id);
        if (was === JSON.stringify(row)) continue;
        if (was !== undefined) remove.run(price.id);
        insert.run(...row);
      }
    });
  }

  async createPrices(rows: PriceRecord[]): Promise<void> {
    const insert = this.#db.prepare(INSERT_SQL);
    this.#db.transaction(() => {
      for (const row of rows) insert.run(...values(row));
    });
  }

  async replaceInstancePrices(rows: PriceRecord[]): Promise<void> {
    const insert = this.#db.prepare(INSERT_SQL);
    this.#db.transaction(() => {
      this.#db.run("DELETE FROM llm_token_prices WHERE pricing_level = 'default' AND id LIKE 'instance:%'");
      for (const row of rows) insert.run(...values(row));
    });
  }

  async queryPrices(q: CostQuery): Promise<Record<string, unknown>[]> {
    return queryTable(this.#db, {
      table: 'llm_token_prices',
      columns: COLUMNS,
      scope: projectAndInstancePrices(q.projectId),
      fields: q.fields?.length ? q.fields : DEFAULT_FIELDS,
      query: q.query,
      sortBy: q.sortBy,
      tieBreak: 'created_at ASC, rowid ASC',
      limit: q.limit,
      offset: q.offset,
    });
  }

  async purgePrices(req: { projectId: string; ids: string[] }): Promise<number> {
    return deleteTableIds(this.#db, { table: 'llm_token_prices', scope: projectPrices(req.projectId), ids: req.ids });
  }

  async pricesFor(req: { projectId: string; llmIds: string[] }): Promise<PriceRecord[]> {
    return pricesFor(this.#db, req);
  }
}

/**
 * The prices that may apply to the given models in a project: its own and the default list.
 * A function, so other stores can read prices without constructing a SqliteCostsStore (whose
 * constructor re-seeds the default list in a write transaction).
 */
export function pricesFor(db: SqliteDatabase, req: { projectId: string; llmIds: string[] }): PriceRecord[] {
  const out: PriceRecord[] = [];
  for (let i = 0; i < req.llmIds.length; i += CHUNK) {
    const ids = req.llmIds.slice(i, i + CHUNK);
    const list = ids.map(() => '?').join(', ');
    const sql = `SELECT * FROM llm_token_prices WHERE llm_id IN (${list})
      AND ((pricing_level = 'project' AND pricing_level_id = ?) OR (pricing_level = 'default' AND pricing_level_id = 'default'))`;
    out.push(...db.all<PriceRow>(sql, [...ids, req.projectId]).map(fromRow));
  }
  return out;
}
