/**
 * Monitors: a judge applied automatically to a sampled share of the new calls that match a
 * filter. A monitor is a Weave `Monitor` object (weave/flow/monitor.py; the dashboard's
 * MonitorFormDrawer writes it): `sampling_rate` 0–1, `scorers` (refs), `active`, and the calls it
 * watches.
 *
 * Decision (the two reference writers disagree): the Python `Monitor` keeps the filter as
 * `call_filter: {op_names, query}`, the reference dashboard writes top-level `op_names` (null for
 * every op) and `query` (`{$expr}` or null). Both are read; the dashboard here writes the
 * dashboard's shape. `op_names` are op names or op refs (`weave:///e/p/op/name:*`), as the calls
 * filter takes them.
 *
 * How it runs (store/MonitorsStore.ts): the write that ends a call in a project with a monitor
 * makes it pending; `sweepMonitorInbox` takes the pending batches, asks the calls query which of
 * them each active monitor matches (the calls table's own filter semantics), samples them, and
 * queues one `calls_score` job per monitor and batch — the jobs and settling the batch together,
 * so a crash neither loses nor repeats a batch. Sampling is
 * a hash of monitor and call, so a call's fate under a monitor is the same on every run.
 *
 * Calls the scoring itself writes (the judge's trace) carry `attributes.weft.source = "scorer"`
 * and are never monitored, or a monitor on every op would score its own judge forever.
 */
import { createHash } from 'node:crypto';
import type { CallSchema } from '../../../contract/calls.js';
import type { Query } from '../../../contract/common.js';
import { uuidv7 } from '../../core/ids.js';
import type { MonitorJob } from '../../store/MonitorsStore.js';
import type { Store } from '../../store/Store.js';
import { CALLS_SCORE_JOB } from '../calls/callsScore.js';
import { isRefString } from '../objects/refs.js';

type Obj = Record<string, unknown>;

export interface MonitorSpec {
  ref: string;
  objectId: string;
  opNames: string[] | null;
  query: Query | null;
  samplingRate: number;
  scorerRefs: string[];
  active: boolean;
  /** Who saved the monitor version: its scoring runs as them. */
  createdBy: string;
  /** When that version was stored (µs). */
  createdAt: number;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Reads a stored Monitor value; null when it names no scorer or no valid rate. */
export function toMonitorSpec(value: Obj, meta: { ref: string; objectId: string; createdBy: string; createdAt: number }): MonitorSpec {
  const filter = isObj(value.call_filter) ? value.call_filter : value;
  const opNames = Array.isArray(filter.op_names) ? filter.op_names.filter((n): n is string => typeof n === 'string' && n !== '') : null;
  const query = isObj(filter.query) && isObj(filter.query.$expr) ? (filter.query as Query) : null;
  const rate = typeof value.sampling_rate === 'number' && Number.isFinite(value.sampling_rate) ? value.sampling_rate : 0;
  return {
    ...meta,
    opNames: opNames && opNames.length ? opNames : null,
    query,
    samplingRate: Math.min(1, Math.max(0, rate)),
    // A judge listed twice scores once (its feedback would only repeat).
    scorerRefs: Array.isArray(value.scorers) ? [...new Set(value.scorers.filter(isRefString))] : [],
    active: value.active === true,
  };
}

/** The latest version of every live Monitor of a project. */
export async function listMonitors(store: Store, projectId: string): Promise<MonitorSpec[]> {
  const rows = await store.objects.queryObjects({ projectId, filter: { leaf_object_classes: ['Monitor'], latest_only: true } });
  const out: MonitorSpec[] = [];
  for (const r of rows) {
    if (r.deletedAt !== null || r.valJson === null) continue;
    const value: unknown = JSON.parse(r.valJson);
    if (!isObj(value)) continue;
    out.push(
      toMonitorSpec(value, {
        ref: `weave:///${projectId}/object/${r.objectId}:${r.digest}`,
        objectId: r.objectId,
        createdBy: r.wbUserId ?? 'monitor',
        createdAt: r.createdAt,
      }),
    );
  }
  return out;
}

/** A call's place in [0, 1) under a monitor: sampled when below the rate. */
export function sampleFraction(monitorId: string, callId: string): number {
  return createHash('sha256').update(`${monitorId}\u0000${callId}`).digest().readUInt32BE(0) / 2 ** 32;
}

const isScorerCall = (call: CallSchema) => {
  const weft = isObj(call.attributes) ? call.attributes.weft : undefined;
  return isObj(weft) && weft.source === 'scorer';
};

/** Which of `callIds` the monitor's filter matches, as the calls query answers it. */
async function matchingCalls(store: Store, projectId: string, monitor: MonitorSpec, callIds: string[]): Promise<string[]> {
  const out: string[] = [];
  const rows = store.calls.queryCalls({
    projectId,
    filter: { call_ids: callIds, ...(monitor.opNames ? { op_names: monitor.opNames } : {}) },
    query: monitor.query,
    columns: ['id', 'attributes', 'ended_at'],
  });
  for await (const call of rows) if (call.ended_at && !isScorerCall(call)) out.push(call.id);
  return out;
}

export interface SweepResult {
  /** Ended calls taken from the store and settled by this process. */
  handled: number;
  /** Scoring jobs queued. */
  jobs: number;
}

/**
 * Handles the pending batches: for each, queues the scoring jobs and settles the batch together
 * (a batch another process settled first is dropped, jobs and all). `kick` is told when jobs
 * were queued, so the runner starts them without waiting for its poll.
 */
export async function sweepMonitorInbox(store: Store, opts: { batch: number; now: number; kick?: () => void }): Promise<SweepResult> {
  const batches = await store.monitors.pendingEnded({ limit: opts.batch, now: opts.now });
  const result: SweepResult = { handled: 0, jobs: 0 };
  for (const batch of batches) {
    const byProject = new Map<string, string[]>();
    for (const p of batch.calls) byProject.set(p.projectId, [...(byProject.get(p.projectId) ?? []), p.callId]);

    const jobs: MonitorJob[] = [];
    const idle: { projectId: string; monitorsUpTo: number }[] = [];
    for (const [projectId, callIds] of byProject) {
      const monitors = await listMonitors(store, projectId);
      const active = monitors.filter((m) => m.active);
      // Forgotten as of the newest version seen, so a version stored meanwhile starts it again.
      if (!active.length)
        idle.push({ projectId, monitorsUpTo: monitors.length ? Math.max(...monitors.map((m) => m.createdAt)) : opts.now });
      for (const monitor of active) {
        if (!monitor.scorerRefs.length || monitor.samplingRate <= 0) continue;
        const matched = await matchingCalls(store, projectId, monitor, [...new Set(callIds)]);
        const sampled = matched.filter((id) => sampleFraction(monitor.objectId, id) < monitor.samplingRate);
        if (!sampled.length) continue;
        jobs.push({
          id: uuidv7(),
          kind: CALLS_SCORE_JOB,
          createdAt: opts.now,
          projectId,
          createdBy: monitor.createdBy,
          payload: { call_ids: sampled, scorer_refs: monitor.scorerRefs, source: monitor.ref, trigger_ref: monitor.ref },
        });
      }
    }
    // A sibling process settled this batch first: its jobs stand, ours are dropped.
    if (!(await store.monitors.ackEnded({ batch, jobs, now: opts.now }))) continue;
    result.handled += batch.calls.length;
    result.jobs += jobs.length;
    // Projects whose monitors are all paused stop queueing ends (re-activating a monitor stores a
    // new version, which queues them again).
    for (const forget of idle) await store.monitors.forgetProject(forget);
  }
  if (result.jobs) opts.kick?.();
  return result;
}
