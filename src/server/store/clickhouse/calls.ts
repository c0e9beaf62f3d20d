/**
 * ClickHouse implementation of CallsStore over the CoalescingMergeTree `calls` table.
 *
 * Every write is one INSERT of the columns it knows (migrations/): starts, ends, renames,
 * deletes and retries from any number of replicas merge to the same row in any order, with no
 * read on the ingest path. Reads use FINAL and see only calls whose start has arrived.
 *
 * Reads of given ids put their project and id conditions in PREWHERE, which ClickHouse applies
 * before FINAL merges: those are the sorting key, so every row of a call is kept or dropped
 * together and the merge sees all of them. With the same conditions in WHERE, FINAL first merges
 * every granule (8,192 calls with their payloads) an id falls in: at 1M calls, the statement
 * alone read a page of 100 ids spread over the project in 1.1-1.4 s, and in 135 ms with
 * PREWHERE; one call in 52 against 22 ms. Any other condition stays in WHERE, after the merge
 * (a delete's row must meet its start).
 */
import type { CallRecord, CallsQuery, CallsStore, CallWrite, ChildInput, ReadCallRequest, TraceSpanRecord } from '../Store.js';
import { inputKey, loadedColumns } from '../query/index.js';
import { CALL_READ_COLUMNS, callFromRow, endColumns, startColumns, type CallRow } from './callConverters.js';
import { num, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { callFileRefRows } from './fileRefs.js';
import { chooseSearchGrams, type SearchGrams } from './callSearch.js';
import { callsSearches, compileCallsList, compileCallsWhere, VISIBLE, type CallsList } from './callsQuery.js';
import { callIdsWhereSql } from './callsSql.js';

/** Bytes a call's payloads take, as `storage_size_bytes` counts them. */
export const STORAGE_SIZE_SQL = ['attributes', 'inputs', 'output', 'summary', 'exception']
  .map((c) => `ifNull(length(${c}), 0)`)
  .join(' + ');

/** Projects remembered as stored (see #knownProjects); past this many the memory starts over. */
const MAX_KNOWN_PROJECTS = 10_000;

/** The ids of trace `{t:String}`'s calls, found without FINAL (callIdsWhereSql). */
const TRACE_IDS_SQL = callIdsWhereSql('trace_id', '({t:String})');

/** A trace's spans for its outline (traceSpans): the trace_id bloom filter (i_trace) picks the granules; only these columns are read. */
export const TRACE_SPANS_SQL = `SELECT id, parent_id AS parentId, op_name AS opName, display_name AS displayName, started_at AS startedAt,
         ended_at AS endedAt, exception IS NOT NULL AS error, summary AS summaryJson
       FROM calls FINAL PREWHERE project_id = {p:String} AND id IN (${TRACE_IDS_SQL})
       WHERE trace_id = {t:String} AND ${VISIBLE}
       ORDER BY started_at ASC, id ASC LIMIT {limit:UInt64}`;

/** The most calls a start-time window reads before the plain query answers instead. */
const MAX_WINDOW = 200_000;

export class ClickHouseCallsStore implements CallsStore {
  readonly #db: ClickHouseDatabase;
  /**
   * Projects whose row this process has inserted: project rows are never deleted, so a later
   * batch need not insert it again. Each insert is a round trip and a new part for the engine
   * to merge; per batch it was half the inserts of ingest.
   */
  readonly #knownProjects = new Set<string>();
  /** Told of each call write, which queued its parts for the search indexer (callSearchIndexer.ts). */
  searchIndexer: { wrote(parts: number): void } | null = null;
  constructor(db: ClickHouseDatabase) {
    this.#db = db;
  }

  async writeCalls(writes: CallWrite[]): Promise<void> {
    // One row per call, each column its last non-null value among the writes: what
    // CoalescingMergeTree makes of the writes inserted one by one, so a start and an end in
    // one batch (the common case) become one row, and parts of several requests merged by the
    // group commit (groupCommit.ts) mean what they meant apart: a re-sent end without its
    // exception keeps it (docs/clickhouse.md "Call parts").
    // Each part is stamped with when it reached this process: the monitor sweeper finds newly
    // ended calls by these (monitors.ts), as ended_at is the client's clock.
    const now = Date.now() * 1000;
    const merged = new Map<string, Record<string, unknown>>();
    for (const w of writes) {
      const key = `${w.projectId}\u0000${w.id}`;
      let row = merged.get(key);
      if (!row) merged.set(key, (row = { project_id: w.projectId, id: w.id }));
      const columns = w.kind === 'start' ? { ...startColumns(w), start_seen_at: now } : { ...endColumns(w), end_seen_at: now };
      for (const [column, value] of Object.entries(columns)) if (value !== null || !(column in row)) row[column] = value;
    }
    // Projects first: a call never lands in a project that listProjects cannot see.
    const newProjects = [...new Set(writes.map((w) => w.projectId))].filter((p) => !this.#knownProjects.has(p));
    await this.#db.insert(
      'projects',
      newProjects.map((p) => ({ project_id: p, entity: p.split('/')[0], created_at: now })),
    );
    if (this.#knownProjects.size + newProjects.length > MAX_KNOWN_PROJECTS) this.#knownProjects.clear();
    for (const p of newProjects) this.#knownProjects.add(p);
    // One INSERT: the call's start-order entry and thread turn are derived from it by the
    // engine (migrations/v19CallViews.ts), so none exists without the call
    // (docs/clickhouse.md "Writes that fail half-way").
    // The files each call refers to, before the call (fileRefs.ts): retention never misses one;
    // a reference left by a failed call insert only keeps a file longer.
    await this.#db.insert(
      'call_file_refs',
      writes.flatMap((w) => callFileRefRows(w.projectId, w.id, [w.kind === 'start' ? w.inputsJson : w.outputJson])),
    );
    await this.#db.insert('calls', [...merged.values()]);
    this.searchIndexer?.wrote(merged.size);
  }

  async readCall(req: ReadCallRequest): Promise<CallRecord | null> {
    const extra = req.includeStorageSize ? `, ${STORAGE_SIZE_SQL} AS storage_size_bytes` : '';
    // The trace's size is reported on its root only: parent_id tells which.
    const columns = req.columns?.length ? loadedColumns([...req.columns, 'parent_id']) : CALL_READ_COLUMNS;
    const row = await this.#db.get<CallRow>(
      `SELECT ${columns.join(', ')}${extra} FROM calls FINAL
       PREWHERE project_id = {p:String} AND id = {id:String} WHERE ${VISIBLE}`,
      { p: req.projectId, id: req.id },
    );
    if (!row) return null;
    const call = callFromRow(row);
    // Storage of a whole trace is reported on its root call only.
    if (req.includeTotalStorageSize)
      call.total_storage_size_bytes = row.parent_id == null ? await this.#traceSize(req.projectId, row.trace_id ?? '') : null;
    return call;
  }

  async #traceSize(projectId: string, traceId: string): Promise<number> {
    const r = await this.#db.get<{ n: string }>(
      `SELECT sum(${STORAGE_SIZE_SQL}) AS n FROM calls FINAL PREWHERE project_id = {p:String} AND id IN (${TRACE_IDS_SQL})
       WHERE trace_id = {t:String} AND deleted_at IS NULL`,
      { p: projectId, t: traceId },
    );
    return num(r?.n ?? 0);
  }

  async updateCallDisplayName(req: { projectId: string; id: string; displayName: string }): Promise<void> {
    // A rename is a row of its own, so one that overtakes its start is kept, like an early end.
    await this.#db.insert('calls', [{ project_id: req.projectId, id: req.id, display_name: req.displayName, part_ts: Date.now() * 1000 }]);
  }

  async deleteCalls(req: { projectId: string; ids: string[]; deletedAt: number }): Promise<number> {
    if (req.ids.length === 0) return 0;
    // The requested calls' traces are read once (id, parent_id) and walked here, as Weave does:
    // a recursive CTE re-read the project's rows at every level and carried each row's path,
    // quadratic in a deep chain (docs/security/writer.md). A seen set stops cycles. A child in
    // another trace than its parent is followed too, as on SQLite: its trace is read next.
    type Link = { id: string; parent_id: string | null; live: number };
    const rows: Link[] = [];
    const traces = new Set<string>();
    let newTraces = (
      await this.#db.all<{ trace_id: string }>(
        `SELECT DISTINCT trace_id FROM calls FINAL PREWHERE project_id = {p:String} AND id IN {ids:Array(String)}`,
        { p: req.projectId, ids: req.ids },
      )
    ).map((r) => r.trace_id);
    while (newTraces.length) {
      for (const t of newTraces) traces.add(t);
      const read = await this.#db.all<Link>(
        `SELECT id, parent_id, (${VISIBLE}) AS live FROM calls FINAL PREWHERE project_id = {p:String}
           AND id IN (${callIdsWhereSql('trace_id', '{traces:Array(String)}')})
         WHERE trace_id IN {traces:Array(String)}`,
        { p: req.projectId, traces: newTraces },
      );
      for (const r of read) rows.push(r);
      // Traces holding a child of any call read so far: a superset of what the walk reaches, which
      // descendantsOf decides. Only trace ids travel as parameters, never the calls themselves.
      const all = [...traces];
      newTraces = (
        await this.#db.all<{ trace_id: string }>(
          `SELECT DISTINCT trace_id FROM calls FINAL PREWHERE project_id = {p:String}
           WHERE trace_id NOT IN {traces:Array(String)} AND parent_id IN (
             SELECT id FROM calls PREWHERE project_id = {p:String} WHERE trace_id IN {traces:Array(String)})`,
          { p: req.projectId, traces: all },
        )
      ).map((r) => r.trace_id);
    }
    const doomed = descendantsOf(req.ids, rows).map((id) => ({ id }));
    // Their thread turns get the delete from this insert (migrations/v19CallViews.ts).
    await this.#db.insert(
      'calls',
      doomed.map((d) => ({ project_id: req.projectId, id: d.id, deleted_at: req.deletedAt, part_ts: req.deletedAt })),
    );
    return doomed.length;
  }

  async *queryCalls(query: CallsQuery): AsyncIterable<CallRecord> {
    const grams = await this.#searchGrams(query);
    const list = compileCallsList(query, grams);
    const page = (await this.#pageByStart(query, list, grams)) ?? (await this.#db.all<CallRow>(list.pageSql, list.params));
    if (list.rows) {
      for (const row of page) yield callFromRow(row);
      return;
    }
    // Two phases (as Weave's query builder does): the page's ids from the sort and filter
    // columns only, then those ids' rows, so FINAL reads whole rows for one page, not the project.
    if (page.length === 0) return;
    const order = new Map(page.map((r, i) => [r.id, i]));
    for (let i = 0; i < page.length; i += 1000) {
      const slice = page.slice(i, i + 1000).map((r) => r.id);
      const rows = await this.#db.all<CallRow>(
        `SELECT ${list.columns.join(', ')} FROM calls FINAL PREWHERE project_id = {p:String} AND id IN {ids:Array(String)}`,
        { p: query.projectId, ids: slice },
      );
      rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      for (const row of rows) yield callFromRow(row);
    }
  }

  async childInputs(req: { projectId: string; parentIds: string[]; key: string }): Promise<ChildInput[]> {
    if (!req.parentIds.length) return [];
    const { where, params } = compileCallsWhere({ projectId: req.projectId, filter: { parent_ids: req.parentIds } });
    // JSONExtractRaw answers the input's JSON text, '' when absent.
    const rows = await this.#db.all<ChildInput>(
      `SELECT id, parent_id, op_name, nullIf(JSONExtractRaw(ifNull(inputs, ''), {inputKey:String}), '') AS input
       FROM calls FINAL WHERE ${where} ORDER BY started_at ASC, id ASC`,
      { ...params, inputKey: inputKey(req.key) },
    );
    return rows;
  }

  /**
   * A page sorted by start time first (after a search's whole-word rank, if any), computed over the
   * newest (or oldest) k starts of calls_by_start, k growing until the window's page is provably
   * exact; null when the plain query must answer (docs/search.md "At scale"). Every call's start
   * has a row there, derived from its own insert (docs/clickhouse.md "Writes that fail half-way").
   */
  async #pageByStart(query: CallsQuery, list: CallsList, grams: SearchGrams | undefined): Promise<CallRow[] | null> {
    if (!list.byStart || !query.limit) return null;
    const wanted = (query.offset ?? 0) + query.limit;
    let k = Math.max(4 * wanted, 200);
    if (grams && Number.isFinite(grams.candidates)) {
      // No indexed call holds the text: only queued ones can, which the plain query reads. With at
      // most 2 × wanted candidates, k below comes to the whole project: no window, so no count.
      if (grams.candidates <= 2 * wanted) return null;
      const calls = await this.#db.get<{ n: string }>('SELECT count() AS n FROM calls_by_start WHERE project_id = {p:String}', {
        p: query.projectId,
      });
      k = Math.max(k, Math.ceil((2 * wanted * num(calls?.n ?? 0)) / grams.candidates));
    }
    for (; k <= MAX_WINDOW; k *= 8) {
      const edge = await this.#db.get<{ t: string }>(list.byStart.edgeSql, { p: query.projectId, k: k - 1 });
      if (!edge) return null;
      const rows = await this.#db.all<CallRow & { search_word?: number }>(list.byStart.pageSql, { ...list.params, edge: edge.t });
      if (rows.length === query.limit && (!list.byStart.ranked || Number(rows.at(-1)!.search_word) === 1)) {
        for (const row of rows) delete row.search_word;
        return rows;
      }
    }
    return null;
  }

  async traceSpans(req: { projectId: string; traceId: string; limit: number }): Promise<TraceSpanRecord[]> {
    const rows = await this.#db.all<{
      id: string;
      parentId: string | null;
      opName: string;
      displayName: string | null;
      startedAt: string;
      endedAt: string | null;
      error: number;
      summaryJson: string | null;
    }>(TRACE_SPANS_SQL, { p: req.projectId, t: req.traceId, limit: req.limit });
    return rows.map((r) => ({
      ...r,
      startedAt: num(r.startedAt),
      endedAt: r.endedAt === null ? null : num(r.endedAt),
      error: Boolean(Number(r.error)),
    }));
  }

  /** The posting lists of the query's substring searches, read before its SQL is printed (callSearch.ts). */
  async #searchGrams(query: CallsQuery): Promise<SearchGrams | undefined> {
    const searches = callsSearches(query);
    return searches.length > 0 ? chooseSearchGrams(this.#db, query.projectId, searches) : undefined;
  }

  async countCalls(query: CallsQuery): Promise<number> {
    const list = compileCallsList({ ...query, limit: null, offset: null, sortBy: null }, await this.#searchGrams(query));
    const limit = query.limit != null ? `LIMIT ${Math.max(0, Math.floor(query.limit))}` : '';
    const row = await this.#db.get<{ n: string }>(`SELECT count() AS n FROM (${list.pageSql} ${limit})`, list.params);
    return num(row?.n ?? 0);
  }

  async totalStorageSize(query: CallsQuery): Promise<number> {
    const list = compileCallsList(
      {
        ...query,
        filter: { ...query.filter, trace_roots_only: true },
        limit: null,
        offset: null,
        sortBy: null,
      },
      await this.#searchGrams(query),
    );
    const row = await this.#db.get<{ n: string }>(
      `SELECT sum(${STORAGE_SIZE_SQL}) AS n FROM calls FINAL
       WHERE project_id = {p:String} AND ${VISIBLE} AND trace_id IN (
         SELECT trace_id FROM calls FINAL PREWHERE project_id = {p:String} AND id IN (${list.pageSql}))`,
      list.params,
    );
    return num(row?.n ?? 0);
  }
}

/**
 * The given ids and every call below them by parent_id links among `rows`, each once: those
 * live (started, not deleted). The walk goes through deleted calls, as SQLite's does.
 */
function descendantsOf(ids: string[], rows: { id: string; parent_id: string | null; live: number }[]): string[] {
  const children = new Map<string, string[]>();
  const live = new Set<string>();
  for (const r of rows) {
    if (num(r.live)) live.add(r.id);
    if (r.parent_id === null) continue;
    const list = children.get(r.parent_id);
    if (list) list.push(r.id);
    else children.set(r.parent_id, [r.id]);
  }
  const queue = [...new Set(ids)];
  const seen = new Set(queue);
  for (let i = 0; i < queue.length; i++) {
    for (const child of children.get(queue[i]!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      queue.push(child);
    }
  }
  return queue.filter((id) => live.has(id));
}
