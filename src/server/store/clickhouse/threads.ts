/**
 * ClickHouse implementation of ThreadsStore: statistics computed per request in one pass over
 * the merged turns grouped by thread (docs/clickhouse.md "Reads"), so no statistic is
 * kept in step with writes and any replica answers the same. The numbers follow
 * core/threadStats.ts: `quantileExactInclusive` is numpy's linear method, as core/percentile.ts;
 * ties break by id. Filters mean what query/threadsFilter.ts says:
 *
 * - A date range keeps the turns that started inside it for the statistics and the cost (priced
 *   at the first turn inside); a thread without such a turn is not listed.
 * - Content search (threadSearch.ts) and attribute tests (threadsFilter.ts) are judged over all
 *   of a thread's live turns, as SQLite's indexes are, whatever the date range: they pick the
 *   threads (matchingThreadsSql) by each turn's searchable text and attributes in thread_turns.
 * - Statistic bounds are HAVING conditions on the thread row.
 *
 * Everything reads thread_turns (migrations 10 and 11: turns only, narrow), merged with FINAL
 * like calls; calls FINAL, with every call's payloads, is read for the previews alone. Failure,
 * tokens and usage by model come from columns computed from the summary at insert, and a turn's
 * searchable text from its inputs and output (migration 11), so no request parses a summary
 * or a payload: only the tested attributes are parsed. Cost (threadCosts.ts):
 * the pass sums each thread's tokens per model and prices them; a count reads no usage unless a
 * cost bound needs it.
 *
 * A page (a limit or offset) takes two passes: the first finds the page's threads computing
 * only what the order and the filters read, the second every statistic and the cost of those
 * threads only, from thread_turns (queryThreads).
 *
 * Without a date range, the statistics come instead from the snapshots kept between requests
 * (threadSnapshots.ts): the snapshot's rows of the threads no insert touched since its mark,
 * and the touched threads computed now, filtered, sorted and priced alike. Until a project's
 * snapshot is built (in the background, from its first read) reads take the pass.
 */
import { chooseSearchGrams, searchCandidates, searchClause, type SearchGrams } from './callSearch.js';
import { VISIBLE } from './callsQuery.js';
import type { ThreadRecord, ThreadsQuery, ThreadsStore } from '../Store.js';
import { planThreadsFilter, type ThreadsFilterPlan } from '../query/threadsFilter.js';
import { threadSortColumn } from '../query/threadsOrder.js';
import { num, numOrNull, type ClickHouseDatabase, type Params } from './ClickHouseDatabase.js';
import { PRICES_SQL, threadCostSql } from './threadCosts.js';
import { attributesMatchSql, binder, boundsSql, type Bind } from './threadsFilter.js';
import { searchWordPattern, TURN_TEXT_SQL } from './threadSearch.js';
import { ThreadSnapshots, type SnapshotMark, type ThreadSnapshotOptions } from './threadSnapshots.js';
import { statsSql, THREAD_STAT_COLUMNS, TURN_USAGE, TURNS } from './threadStatsSql.js';

/** The thread row's columns as the answer reads them. */
const RECORD_COLUMNS = ['thread_id', ...THREAD_STAT_COLUMNS];

interface StatsRow {
  thread_id: string;
  turn_count: string;
  finished_turn_count: string;
  start_time: string;
  last_updated: string | null;
  first_turn_id: string;
  last_turn_id: string | null;
  p50_turn_duration_ms: number | null;
  p99_turn_duration_ms: number | null;
  error_count: string;
  total_tokens: string;
  total_cost: number | null;
}

const fromRow = (r: StatsRow): ThreadRecord => ({
  threadId: r.thread_id,
  turnCount: num(r.turn_count),
  finishedTurnCount: num(r.finished_turn_count),
  startTime: num(r.start_time),
  lastUpdated: numOrNull(r.last_updated),
  firstTurnId: r.first_turn_id,
  lastTurnId: r.last_turn_id,
  p50TurnDurationMs: r.p50_turn_duration_ms,
  p99TurnDurationMs: r.p99_turn_duration_ms,
  errorCount: num(r.error_count),
  totalTokens: num(r.total_tokens),
  totalCost: r.total_cost,
});

/** Whether cost decides the order or a bound (then every matching thread is priced in the pass). */
const costDecides = (q: ThreadsQuery) =>
  q.sortBy.some((s) => s.field === 'total_cost') || q.min?.total_cost != null || q.max?.total_cost != null;

/** What the thread rows carry besides the statistics: nothing, or `usage_by_model` and `total_cost`. */
type Usage = 'none' | 'priced';

/** The date range as conditions on a turn's start. */
function rangeSql(q: ThreadsQuery, bind: Bind): string[] {
  const range: string[] = [];
  if (q.afterMicros != null) range.push(`started_at > ${bind(q.afterMicros, 'Int64')}`);
  if (q.beforeMicros != null) range.push(`started_at < ${bind(q.beforeMicros, 'Int64')}`);
  return range;
}

/**
 * The threads whose live turns pass the search and the attribute tests (judged over every live
 * turn, whatever the date range), as a SELECT of thread ids; null without such tests. A turn's
 * searchable text and attributes are thread_turns columns (migration 11), so this merges that
 * narrow table alone: no turn's payload is read, no JSON parsed but the tested attributes.
 */
function matchingThreadsSql(plan: ThreadsFilterPlan, patterns: string[], bind: Bind, grams?: SearchGrams): string | null {
  const columns = ['thread_id'];
  const having: string[] = [];
  if (plan.search && patterns.length > 0) {
    // Every word on some turn of the thread (not necessarily the same one), or the exact thread id.
    columns.push(`${TURN_TEXT_SQL} AS text`);
    const words = patterns.map((p) => `countIf(match(text, ${bind(p, 'String')})) > 0`);
    const substring = substringThreadsSql(plan, bind, grams);
    having.push(
      `(thread_id = ${bind(plan.search.text, 'String')} OR (${words.join(' AND ')})${substring ? ` OR thread_id IN (${substring})` : ''})`,
    );
  }
  if (plan.attributes.length > 0) {
    // Every tested value on one same turn.
    columns.push(`${attributesMatchSql(plan.attributes, bind)} AS attributes_match`);
    having.push('countIf(attributes_match) > 0');
  }
  if (having.length === 0) return null;
  return `SELECT thread_id FROM (SELECT ${columns.join(', ')} FROM ${TURNS.from} WHERE ${TURNS.where})
    GROUP BY thread_id HAVING ${having.join(' AND ')}`;
}

/**
 * The threads with a live turn holding the search text as a substring, as the calls' `search`
 * filter finds it (callSearch.ts: the candidates of its posting lists in PREWHERE, when chosen);
 * null when the text is too short.
 */
function substringThreadsSql(plan: ThreadsFilterPlan, bind: Bind, grams?: SearchGrams): string | null {
  const search = plan.search?.substring;
  if (!search) return null;
  const candidates = searchCandidates(search, bind, grams);
  const prewhere = candidates ? ` PREWHERE project_id = {p:String} AND ${candidates}` : '';
  return `SELECT thread_id FROM calls FINAL${prewhere} WHERE project_id = {p:String} AND ${VISIBLE} AND turn_id = id
    AND ${searchClause(search, bind, grams, candidates !== null)}`;
}

/**
 * The matching threads, one row each, as one SELECT over the merged turns grouped by thread;
 * with `within` (a SELECT of thread ids), only those threads.
 */
function threadRowsSql(q: ThreadsQuery, params: Params, usage: Usage, within?: string, grams?: SearchGrams): string {
  const plan = planThreadsFilter(q);
  const bind = binder(params);
  params.p = plan.projectId;
  const where = [TURNS.where];
  if (plan.threadIds) where.push(`thread_id IN ${bind(plan.threadIds, 'Array(String)')}`);
  if (within) where.push(`thread_id IN (${within})`);
  const patterns = (plan.search?.words ?? []).flatMap((w) => searchWordPattern(w) ?? []);
  if (plan.search && patterns.length === 0) {
    const substring = substringThreadsSql(plan, bind, grams);
    where.push(`(thread_id = ${bind(plan.search.text, 'String')}${substring ? ` OR thread_id IN (${substring})` : ''})`);
  }
  const matching = matchingThreadsSql(plan, patterns, bind, grams);
  if (matching) where.push(`thread_id IN (${matching})`);
  where.push(...rangeSql(q, bind));
  const having = boundsSql(plan.min, plan.max, bind);
  const turnColumns = usage === 'priced' ? [TURNS.facts, TURN_USAGE] : [TURNS.facts];
  const cost = usage === 'priced' ? `, ${threadCostSql('usage_by_model', 'start_time')} AS total_cost` : '';
  return `${usage === 'priced' ? `WITH ${PRICES_SQL} ` : ''}SELECT ${statsSql(usage === 'priced')}${cost}
    FROM (SELECT ${turnColumns.join(', ')} FROM ${TURNS.from} WHERE ${where.join(' AND ')})
    GROUP BY thread_id${having.length > 0 ? ` HAVING ${having.join(' AND ')}` : ''}`;
}

/**
 * The matching threads, one row each with every statistic and the usage by model, over the
 * snapshot's rows (`rows`: ThreadSnapshots.rowsSql), with `total_cost` when `priced`.
 */
function snapshotRowsSql(q: ThreadsQuery, rows: string, params: Params, priced: boolean, grams?: SearchGrams): string {
  const plan = planThreadsFilter(q);
  const bind = binder(params);
  params.p = plan.projectId;
  const where: string[] = [];
  if (plan.threadIds) where.push(`thread_id IN ${bind(plan.threadIds, 'Array(String)')}`);
  const patterns = (plan.search?.words ?? []).flatMap((w) => searchWordPattern(w) ?? []);
  if (plan.search && patterns.length === 0) where.push(`thread_id = ${bind(plan.search.text, 'String')}`);
  const matching = matchingThreadsSql(plan, patterns, bind, grams);
  if (matching) where.push(`thread_id IN (${matching})`);
  where.push(...boundsSql(plan.min, plan.max, bind));
  const cost = priced ? `, ${threadCostSql('tuple(usage_models, usage_prompt, usage_completion)', 'start_time')} AS total_cost` : '';
  return `SELECT *${cost} FROM (${rows})${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
}

/** Whether a query reads the snapshots: a date range bounds the statistics themselves, so it cannot. */
const fromSnapshots = (q: ThreadsQuery) => q.afterMicros == null && q.beforeMicros == null;

export class ClickHouseThreadsStore implements ThreadsStore {
  readonly #db: ClickHouseDatabase;
  readonly #snapshots: ThreadSnapshots | null;
  /** `snapshots` null: every request computes every statistic from the turns (the pass below). */
  constructor(db: ClickHouseDatabase, snapshots: ThreadSnapshotOptions | null) {
    this.#db = db;
    this.#snapshots = snapshots ? new ThreadSnapshots(db, snapshots) : null;
  }

  /** The posting lists of a thread search's substring part (callSearch.ts), when it has one. */
  async #searchGrams(q: ThreadsQuery): Promise<SearchGrams | undefined> {
    const search = planThreadsFilter(q).search?.substring;
    return search ? chooseSearchGrams(this.#db, q.projectId, [search]) : undefined;
  }

  /** The snapshot mark a query reads at, or null for the pass over the turns. */
  async #mark(q: ThreadsQuery): Promise<SnapshotMark | null> {
    return this.#snapshots && fromSnapshots(q) ? this.#snapshots.mark(q.projectId) : null;
  }

  /** Until the snapshot builds this store started in the background have ended (tests, benchmarks). */
  async snapshotsSettled(): Promise<void> {
    await this.#snapshots?.settled();
  }

  async *queryThreads(q: ThreadsQuery): AsyncIterable<ThreadRecord> {
    const mark = await this.#mark(q);
    if (mark != null) {
      yield* this.#queryFromSnapshots(this.#snapshots!, q, mark);
      return;
    }
    const params: Params = {};
    const paged = q.limit != null || q.offset != null;
    // NULLs sort first ascending and last descending, as query/threadsOrder.ts compares them.
    const order = q.sortBy.map(({ field, direction }) =>
      direction === 'desc' ? `${threadSortColumn(field)} DESC NULLS LAST` : `${threadSortColumn(field)} ASC NULLS FIRST`,
    );
    order.push('thread_id ASC');
    // A page's first pass leaves out the usage unless cost decides; the engine also drops the
    // statistics that neither the order nor a bound reads (the turn ids and the other
    // percentiles were most of a sort's time), since only the thread ids are read from it.
    let page = `${threadRowsSql(q, params, paged && !costDecides(q) ? 'none' : 'priced', undefined, await this.#searchGrams(q))} ORDER BY ${order.join(', ')}`;
    if (paged) {
      params.limit = q.limit ?? '18446744073709551615';
      params.offset = q.offset ?? 0;
      const ids = `SELECT thread_id FROM (${page} LIMIT {limit:UInt64} OFFSET {offset:UInt64})`;
      // The second pass: those threads' rows over the same turns (search and attributes only
      // chose the threads; the range still bounds the statistics).
      const turns: ThreadsQuery = { projectId: q.projectId, afterMicros: q.afterMicros, beforeMicros: q.beforeMicros, sortBy: q.sortBy };
      page = threadRowsSql(turns, params, 'priced', ids);
    }
    const sql = `SELECT ${RECORD_COLUMNS.join(', ')}, total_cost FROM (${page}) ORDER BY ${order.join(', ')}`;
    for await (const row of this.#db.stream<StatsRow>(sql, params)) yield fromRow(row);
  }

  async *#queryFromSnapshots(snapshots: ThreadSnapshots, q: ThreadsQuery, mark: SnapshotMark): AsyncIterable<ThreadRecord> {
    const params: Params = { p: q.projectId };
    const rows = snapshots.rowsSql(mark, params);
    const order = q.sortBy.map(({ field, direction }) =>
      direction === 'desc' ? `${threadSortColumn(field)} DESC NULLS LAST` : `${threadSortColumn(field)} ASC NULLS FIRST`,
    );
    order.push('thread_id ASC');
    // Cost is priced for every thread only when it decides; otherwise for the page's alone.
    const decides = costDecides(q);
    let page = `${snapshotRowsSql(q, rows, params, decides, await this.#searchGrams(q))} ORDER BY ${order.join(', ')}`;
    if (q.limit != null || q.offset != null) {
      params.limit = q.limit ?? '18446744073709551615';
      params.offset = q.offset ?? 0;
      page += ' LIMIT {limit:UInt64} OFFSET {offset:UInt64}';
    }
    const cost = decides ? '' : `, ${threadCostSql('tuple(usage_models, usage_prompt, usage_completion)', 'start_time')} AS total_cost`;
    const sql = `WITH ${PRICES_SQL} SELECT ${RECORD_COLUMNS.join(', ')}${decides ? ', total_cost' : cost} FROM (${page}) ORDER BY ${order.join(', ')}`;
    for await (const row of this.#db.stream<StatsRow>(sql, params)) yield fromRow(row);
  }

  async countThreads(q: ThreadsQuery): Promise<number> {
    const mark = await this.#mark(q);
    if (mark != null) {
      const params: Params = { p: q.projectId };
      const rows = this.#snapshots!.rowsSql(mark, params);
      const priced = q.min?.total_cost != null || q.max?.total_cost != null;
      const sql = `${priced ? `WITH ${PRICES_SQL} ` : ''}SELECT count() AS n FROM (${snapshotRowsSql(q, rows, params, priced, await this.#searchGrams(q))})`;
      return num((await this.#db.get<{ n: string }>(sql, params))?.n ?? 0);
    }
    const params: Params = {};
    const usage = q.min?.total_cost != null || q.max?.total_cost != null ? 'priced' : 'none';
    const rows = threadRowsSql(q, params, usage, undefined, await this.#searchGrams(q));
    return num((await this.#db.get<{ n: string }>(`SELECT count() AS n FROM (${rows})`, params))?.n ?? 0);
  }

  /** One query for both lists; PREWHERE before FINAL, as calls.ts reads given ids. */
  async previews(projectId: string, ids: { firstInput: string[]; lastOutput: string[] }) {
    const firstInput = new Map<string, string | null>();
    const lastOutput = new Map<string, string | null>();
    const all = [...new Set([...ids.firstInput, ...ids.lastOutput])];
    if (all.length === 0) return { firstInput, lastOutput };
    const rows = await this.#db.all<{ id: string; input: string | null; output: string | null }>(
      `SELECT id, substringUTF8(inputs, 1, 300) AS input, substringUTF8(output, 1, 300) AS output
       FROM calls FINAL PREWHERE project_id = {p:String} AND id IN {ids:Array(String)}`,
      { p: projectId, ids: all },
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids.firstInput) if (byId.has(id)) firstInput.set(id, byId.get(id)!.input);
    for (const id of ids.lastOutput) if (byId.has(id)) lastOutput.set(id, byId.get(id)!.output);
    return { firstInput, lastOutput };
  }
}
