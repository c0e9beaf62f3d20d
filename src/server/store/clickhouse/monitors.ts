/**
 * ClickHouse implementation of MonitorsStore (migrations/v05JobsMonitorSweeps.ts).
 *
 * SQLite fills an inbox from a trigger in the transaction that ends a call. ClickHouse has no
 * triggers and no transactions, so the same promises are kept differently:
 *
 * - Nothing scored inline. Every call write stamps each part with the time a Weft process
 *   received it (`start_seen_at`, `end_seen_at`, calls.ts): two more columns of the same
 *   INSERT, nothing read on the ingest path. A call is "newly ended" when the later of its two
 *   stamps is recent; `ended_at` cannot serve, since it is the client's clock and batches
 *   arrive late.
 * - Nothing missed across restarts. A project's sweeps are a log (`monitor_sweeps`) of decided
 *   batches, each with a high-water mark; a sweep reads the calls stamped since the last mark
 *   minus a lookback (30 s by default) that covers slow inserts and clock skew between Weft
 *   processes, leaving out the calls already handed out (marked in the call's own row,
 *   `monitor_swept_slot`, so a retried end much later does not hand it out again either). Assumption: a call
 *   part becomes visible within the lookback of its stamp. The first sweep of a project starts
 *   at its first Monitor version (or the first after it was forgotten).
 * - Nothing queued twice across replicas. Settling a batch is a consensus slot per project
 *   (consensus.ts): of two replicas sweeping at once, exactly one batch for slot k+1 is stored,
 *   carrying its jobs. Its effects — the jobs queued, then its calls marked swept — are applied
 *   by the winner and again, idempotently, by whoever next sees that slot unsettled (a crash
 *   between winning and applying loses nothing): job ids are stored in the slot, so applying
 *   twice collapses (JobsStore.enqueue). A sweep always settles the last slot before reading
 *   candidates, so calls of a decided batch are never handed out again.
 * - Forgetting a project (all monitors inactive) records the newest Monitor version seen; a
 *   version stored after it starts the project again. Calls stored while a project is forgotten
 *   are not monitored, as on SQLite.
 */
import type { EndedBatch, MonitorJob, MonitorsStore } from '../MonitorsStore.js';
import type { ClickHouseSettings } from '@clickhouse/client';
import { num, RESULT_SETTINGS, type ClickHouseDatabase } from './ClickHouseDatabase.js';
import { proposeSlot } from './consensus.js';
import type { ClickHouseJobsStore } from './jobs.js';

/** When a call's later part reached Weft (the stamps of migration 5). */
export const SEEN_SQL = 'greatest(ifNull(start_seen_at, 0), ifNull(end_seen_at, 0))';

const DEFAULT_LOOKBACK_MS = 30_000;

/** Projects with a Monitor version stored since they were last forgotten, and the first such version's time. */
const PROJECTS_SQL = `
  SELECT o.project_id AS project_id, min(o.created_at) AS resume_at
  FROM object_versions AS o
  LEFT JOIN (SELECT project_id, max(monitors_up_to) AS up_to FROM monitor_forgotten GROUP BY project_id) AS f
    ON f.project_id = o.project_id
  WHERE o.leaf_object_class = 'Monitor' AND o.created_at > ifNull(f.up_to, -1)
  GROUP BY o.project_id
  ORDER BY project_id`;

/**
 * The project's ended, visible calls whose later part was stamped at or after `{low}` and that no
 * decided sweep handed out, oldest stamp first (with `part_ts`, which a swept mark repeats).
 */
const CANDIDATES_SQL = `
  SELECT id, ${SEEN_SQL} AS seen, part_ts FROM calls FINAL
  WHERE project_id = {p:String} AND seen >= {low:Int64}
    AND started_at IS NOT NULL AND ended_at IS NOT NULL AND deleted_at IS NULL AND monitor_swept_slot IS NULL
  ORDER BY seen, id
  LIMIT {n:UInt32}`;

interface SweepRow {
  project_id: string;
  slot: number;
  token: string;
  high: string;
  call_ids: string[];
  jobs: string;
}

interface Cursor {
  projectId: string;
  slot: number;
  high: number;
}

export class ClickHouseMonitorsStore implements MonitorsStore {
  readonly #db: ClickHouseDatabase;
  readonly #jobs: ClickHouseJobsStore;
  readonly #lookbackMicros: number;
  /** The last slot of each project this process knows is settled, to skip re-checking it. */
  readonly #settled = new Map<string, number>();

  constructor(db: ClickHouseDatabase, jobs: ClickHouseJobsStore, options: { lookbackMs?: number } = {}) {
    this.#db = db;
    this.#jobs = jobs;
    this.#lookbackMicros = (options.lookbackMs ?? DEFAULT_LOOKBACK_MS) * 1000;
  }

  /** One batch per monitored project with newly ended calls. */
  async pendingEnded(req: { limit: number; now: number }): Promise<EndedBatch[]> {
    const projects = await this.#db.all<{ project_id: string; resume_at: string }>(PROJECTS_SQL);
    const batches: EndedBatch[] = [];
    for (const { project_id: projectId, resume_at } of projects) {
      const last = await this.#db.get<SweepRow>(
        `SELECT * FROM monitor_sweeps WHERE project_id = {p:String} ORDER BY slot DESC, decided_at, token LIMIT 1`,
        { p: projectId },
      );
      if (last) await this.#settle(last);
      const low = Math.max(last ? num(last.high) - this.#lookbackMicros : 0, num(resume_at));
      const rs = await this.#db.client.query({
        query: CANDIDATES_SQL,
        query_params: { p: projectId, low, n: req.limit },
        format: 'JSONEachRow',
        clickhouse_settings: { ...RESULT_SETTINGS, ...(await this.#finalIndexSettings()) },
      });
      const rows = await rs.json<{ id: string; seen: string; part_ts: string }>();
      if (rows.length === 0) continue;
      // A full batch ends at its newest stamp (the rest follow); otherwise at the sweep's time.
      const high = rows.length >= req.limit ? num(rows[rows.length - 1]!.seen) : Math.max(req.now, num(rows[rows.length - 1]!.seen));
      const cursor: Cursor = { projectId, slot: (last ? num(last.slot) : 0) + 1, high };
      this.#partTs.set(projectId, new Map(rows.map((r) => [r.id, num(r.part_ts)])));
      batches.push({ calls: rows.map((r) => ({ projectId, callId: r.id })), cursor: JSON.stringify(cursor) });
    }
    return batches;
  }

  async ackEnded(req: { batch: EndedBatch; jobs: MonitorJob[]; now: number }): Promise<boolean> {
    const cursor = JSON.parse(req.batch.cursor) as Cursor;
    const { won, decided } = await proposeSlot<SweepRow>(
      this.#db,
      { table: 'monitor_sweeps', keyColumn: 'project_id', key: cursor.projectId, slot: cursor.slot },
      { high: cursor.high, call_ids: req.batch.calls.map((c) => c.callId), jobs: JSON.stringify(req.jobs) },
    );
    // The decided batch takes effect whoever proposed it.
    if (decided) await this.#settle(decided);
    return won;
  }

  async forgetProject(req: { projectId: string; monitorsUpTo: number }): Promise<void> {
    await this.#db.insert('monitor_forgotten', [{ project_id: req.projectId, monitors_up_to: req.monitorsUpTo }]);
  }

  #finalIndexSettings_: Promise<ClickHouseSettings> | null = null;
  /** The part_ts of the calls this process last handed out, per project, for their swept marks. */
  readonly #partTs = new Map<string, Map<string, number>>();

  async #callPartTs(projectId: string, ids: string[]): Promise<Map<string, number>> {
    const known = this.#partTs.get(projectId);
    if (known && ids.every((id) => known.has(id))) return known;
    const rows = await this.#db.all<{ id: string; part_ts: string }>(
      'SELECT id, part_ts FROM calls FINAL PREWHERE project_id = {p:String} AND id IN {ids:Array(String)}',
      { p: projectId, ids },
    );
    return new Map(rows.map((r) => [r.id, num(r.part_ts)]));
  }

  /**
   * The stamp's skip index may prune a granule holding a call's start part while its end part
   * matches, and FINAL would then see a call without its start. Servers with
   * `use_skip_indexes_if_final_exact_mode` widen the ranges to stay exact (on by default where
   * it exists); on others the index is not used under FINAL.
   */
  #finalIndexSettings(): Promise<ClickHouseSettings> {
    this.#finalIndexSettings_ ??= this.#db
      .get<{ n: string }>("SELECT count() AS n FROM system.settings WHERE name = 'use_skip_indexes_if_final_exact_mode'")
      .then((r) =>
        num(r?.n ?? 0) > 0
          ? ({ use_skip_indexes_if_final: 1, use_skip_indexes_if_final_exact_mode: 1 } as ClickHouseSettings)
          : { use_skip_indexes_if_final: 0 },
      );
    return this.#finalIndexSettings_;
  }

  /** Applies a decided batch if it is not yet: its jobs queued, then its calls marked (one block), so marks imply jobs. */
  async #settle(row: SweepRow): Promise<void> {
    const slot = num(row.slot);
    if (this.#settled.get(row.project_id) === slot || row.call_ids.length === 0) return;
    const marked = await this.#db.get<{ n: string }>(
      'SELECT count() AS n FROM calls FINAL PREWHERE project_id = {p:String} AND id = {c:String} WHERE monitor_swept_slot IS NOT NULL',
      { p: row.project_id, c: row.call_ids[0] },
    );
    if (num(marked?.n ?? 0) === 0) {
      const jobs = JSON.parse(row.jobs) as MonitorJob[];
      if (jobs.length) await this.#jobs.enqueueAll(jobs);
      // The mark is a part of the call, like a rename. part_ts is not nullable, so a mark carries
      // the call's own (as the sweep read it) rather than moving the call in time.
      const partTs = await this.#callPartTs(row.project_id, row.call_ids);
      await this.#db.insert(
        'calls',
        row.call_ids.map((id) => ({ project_id: row.project_id, id, monitor_swept_slot: slot, part_ts: partTs.get(id) ?? 0 })),
      );
    }
    this.#settled.set(row.project_id, slot);
  }
}
