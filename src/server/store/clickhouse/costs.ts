/**
 * ClickHouse implementation of CostsStore over `llm_token_prices`, a ReplacingMergeTree(version,
 * is_deleted) keyed by (pricing_level_id, id) and read with FINAL
 * (migrations/v04FeedbackPrices.ts).
 *
 * Opening the store brings the default level to the list this release ships
 * (core/defaultPrices.ts), like SQLite's re-seeding, but as a difference: shipped rows missing or
 * changed are inserted, default rows no longer shipped get tombstones (never the instance
 * providers' `instance:` rows), and an unchanged database gets no write at all, so any number of
 * replicas can open it. Two replicas of different releases opening at once (a rolling deploy)
 * each write their own list; the last opener's list stands until the next start.
 *
 * Weaker than SQLite, and what is promised instead: there are no transactions, so
 * `replaceInstancePrices` is one INSERT block (tombstones of the old instance rows plus the new
 * rows: one part, all or nothing), decided from a read just before it; two replacements racing
 * leave the newer writer's rows plus any row only the other one added. Retries converge.
 */
import { defaultPriceRecords } from '../../core/defaultPrices.js';
import type { CostQuery, CostsStore, PriceRecord } from '../CostsStore.js';
import { planTableQuery, tableRowToWire, type TableColumns } from '../query/index.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { printTableSelect } from './tableQuery.js';

/** Every column, as `/cost/query` can name them (the same as SQLite's). */
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

const COLUMN_LIST = Object.keys(COLUMNS).join(', ');

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

interface PriceRow {
  id: string;
  pricing_level: 'project' | 'default';
  pricing_level_id: string;
  provider_id: string;
  llm_id: string;
  effective_date: string | number;
  prompt_token_cost: number;
  completion_token_cost: number;
  cache_read_input_token_cost: number;
  cache_creation_input_token_cost: number;
  prompt_token_cost_unit: string;
  completion_token_cost_unit: string;
  created_by: string;
  created_at: string | number;
}

const toRow = (p: PriceRecord, version: number, isDeleted = 0) => ({
  id: p.id,
  pricing_level: p.pricingLevel,
  pricing_level_id: p.pricingLevelId,
  provider_id: p.providerId,
  llm_id: p.llmId,
  effective_date: p.effectiveDate,
  prompt_token_cost: p.promptTokenCost,
  completion_token_cost: p.completionTokenCost,
  cache_read_input_token_cost: p.cacheReadInputTokenCost ?? 0,
  cache_creation_input_token_cost: p.cacheCreationInputTokenCost ?? 0,
  prompt_token_cost_unit: p.promptTokenCostUnit,
  completion_token_cost_unit: p.completionTokenCostUnit,
  created_by: p.createdBy,
  created_at: p.createdAt,
  version,
  is_deleted: isDeleted,
});

const fromRow = (r: PriceRow): PriceRecord => ({
  id: r.id,
  pricingLevel: r.pricing_level,
  pricingLevelId: r.pricing_level_id,
  providerId: r.provider_id,
  llmId: r.llm_id,
  effectiveDate: num(r.effective_date),
  promptTokenCost: r.prompt_token_cost,
  completionTokenCost: r.completion_token_cost,
  cacheReadInputTokenCost: r.cache_read_input_token_cost,
  cacheCreationInputTokenCost: r.cache_creation_input_token_cost,
  promptTokenCostUnit: r.prompt_token_cost_unit,
  completionTokenCostUnit: r.completion_token_cost_unit,
  createdBy: r.created_by,
  createdAt: num(r.created_at),
});

/** Whether two records hold the same price (what re-seeding compares). */
const samePrice = (a: PriceRecord, b: PriceRecord) => JSON.stringify(toRow(a, 0), skipVersion) === JSON.stringify(toRow(b, 0), skipVersion);
const skipVersion = (key: string, value: unknown) => (key === 'version' ? undefined : value);

/**
 * The prices that may apply to the given models in a project: its own and the default list
 * (instance providers' rows included). A function, so other ClickHouse stores can price rows.
 */
export async function pricesFor(db: ClickHouseDatabase, req: { projectId: string; llmIds: string[] }): Promise<PriceRecord[]> {
  if (req.llmIds.length === 0) return [];
  const rows = await db.all<PriceRow>(
    `SELECT ${COLUMN_LIST} FROM llm_token_prices FINAL WHERE pricing_level_id IN ({p:String}, 'default') AND llm_id IN {llms:Array(String)}
      AND ((pricing_level = 'project' AND pricing_level_id = {p:String}) OR (pricing_level = 'default' AND pricing_level_id = 'default'))`,
    { p: req.projectId, llms: req.llmIds },
  );
  return rows.map(fromRow);
}

export class ClickHouseCostsStore implements CostsStore {
  readonly #db: ClickHouseDatabase;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  /** Brings the shipped default prices up to date (see the module comment); called once when the store opens. */
  async seedDefaults(): Promise<void> {
    const shipped = defaultPriceRecords();
    const stored = new Map(
      (
        await this.#db.all<PriceRow>(
          `SELECT ${COLUMN_LIST} FROM llm_token_prices FINAL WHERE pricing_level_id = 'default' AND NOT startsWith(id, 'instance:')`,
        )
      ).map((r) => [r.id, fromRow(r)]),
    );
    const wanted = new Set(shipped.map((p) => p.id));
    const gone = [...stored.values()].filter((p) => !wanted.has(p.id));
    const changed = shipped.filter((p) => !stored.has(p.id) || !samePrice(stored.get(p.id)!, p));
    if (gone.length + changed.length === 0) return;
    const version = await this.#version("pricing_level_id = 'default'");
    await this.#db.insert('llm_token_prices', [...gone.map((p) => toRow(p, version, 1)), ...changed.map((p) => toRow(p, version))]);
  }

  async createPrices(rows: PriceRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const version = await this.#version('id IN {ids:Array(String)}', { ids: rows.map((p) => p.id) });
    await this.#db.insert(
      'llm_token_prices',
      rows.map((p) => toRow(p, version)),
    );
  }

  async replaceInstancePrices(rows: PriceRecord[]): Promise<void> {
    const current = await this.#db.all<PriceRow>(
      `SELECT ${COLUMN_LIST} FROM llm_token_prices FINAL WHERE pricing_level_id = 'default' AND startsWith(id, 'instance:')`,
    );
    const kept = new Set(rows.filter((r) => r.pricingLevelId === 'default').map((r) => r.id));
    const ids = [...current.map((r) => r.id), ...rows.map((p) => p.id)];
    const version = await this.#version('id IN {ids:Array(String)}', { ids });
    await this.#db.insert('llm_token_prices', [
      ...current.filter((r) => !kept.has(r.id)).map((r) => toRow(fromRow(r), version, 1)),
      ...rows.map((p) => toRow(p, version)),
    ]);
  }

  async queryPrices(q: CostQuery): Promise<Record<string, unknown>[]> {
    const plan = planTableQuery(COLUMNS, q, DEFAULT_FIELDS);
    // The project's own prices and the instance providers' (an operator's price is one the
    // project's calls are charged), as on SQLite; ties of created_at by id (SQLite: insertion).
    const { sql, params } = printTableSelect({
      from: 'llm_token_prices FINAL',
      scope: `((pricing_level = 'project' AND pricing_level_id = {p:String}) OR (pricing_level = 'default' AND pricing_level_id = 'default' AND startsWith(id, 'instance:')))`,
      params: { p: q.projectId },
      plan,
      tieBreak: ['created_at ASC', 'id ASC'],
    });
    const rows = await this.#db.all<Record<string, unknown>>(sql, params);
    return rows.map((row) =>
      tableRowToWire(
        COLUMNS,
        plan.fields,
        plan.fields.map((_, i) => row[`f${i}`]),
      ),
    );
  }

  async purgePrices(req: { projectId: string; ids: string[] }): Promise<number> {
    if (req.ids.length === 0) return 0;
    const live = await this.#db.all<PriceRow>(
      `SELECT ${COLUMN_LIST} FROM llm_token_prices FINAL
       WHERE pricing_level_id = {p:String} AND pricing_level = 'project' AND id IN {ids:Array(String)}`,
      { p: req.projectId, ids: [...new Set(req.ids)] },
    );
    if (live.length === 0) return 0;
    const version = await this.#version('id IN {ids:Array(String)}', { ids: live.map((r) => r.id) });
    await this.#db.insert(
      'llm_token_prices',
      live.map((r) => toRow(fromRow(r), version, 1)),
    );
    return live.length;
  }

  async pricesFor(req: { projectId: string; llmIds: string[] }): Promise<PriceRecord[]> {
    return pricesFor(this.#db, req);
  }

  /** Above every stored version of the rows `where` selects (a superset of the rows written is fine). */
  #version(where: string, params: Record<string, unknown> = {}): Promise<number> {
    return this.#db.versionAfter('llm_token_prices', where, params);
  }
}
