/**
 * Reading evaluation results into rows for eval_results/query (docs/api/evaluations.md
 * §2.3), as the reference's eval_results_helpers does: the predict_and_score children of
 * every evaluation root are grouped by dataset row, one trial per call, with the predict and
 * scorer calls found among their own children.
 *
 * The same code reads API runs and SDK evaluations. Where the SDKs differ, both are read:
 * - the row output is `output` (Python SDK, API runs) or `model_output` (TS SDK), the latency
 *   `model_latency.mean` or a plain number of seconds (TS SDK);
 * - the predict call is the child whose `inputs.self` is the model, whose op *is* the model (a
 *   TS-SDK model is an op), or whose op name says predict/invoke; never a score;
 * - a scorer's call is the score child naming that scorer, else the child whose op is named
 *   after the score key (TS-SDK scorers are ops), else one whose op name contains the key.
 * A row still open (its prediction not finished yet) reads its output and scores from its
 * children, so results show while a run is in progress.
 *
 * Row digest: the row digest inside a dataset-row ref (`.../id/<digest>`), else the digest of
 * the example as sorted-key JSON. Examples come back from stored calls, where `1.0` has become
 * `1`, so an inline example's digest may differ from the Python server's; it is stable within
 * Weft, which is what grouping needs.
 */
import type { CallSchema } from '../../../contract/calls.js';
import type { EvalResultsTrial } from '../../../contract/evalResults.js';
import type { PriceRecord } from '../../store/CostsStore.js';
import type { ChildInput, Store } from '../../store/Store.js';
import { costsForUsage, type Usage } from '../stats/costs.js';
import { bytesDigest } from '../objects/digests.js';
import {
  callsById,
  childrenOf,
  isPredictAndScore,
  isScore,
  latencySeconds,
  predictAndScoreOutput,
  refName,
  weaveAttrs,
} from './evaluationCalls.js';
import { opDisplayName } from '../../core/opNames.js';
import { usageTotalsOf } from '../../core/usage.js';
import { fromPlain, toPythonJson } from '../objects/losslessJson.js';

/** One dataset row: its trials per evaluation root, in start order. */
export interface EvalRow {
  rowDigest: string;
  /** `inputs.example` of its first trial: the row itself or a dataset-row ref. */
  example: unknown;
  trials: Map<string, EvalResultsTrial[]>;
  /** Its predict_and_score calls by id (for completeTrials). */
  calls?: Map<string, CallSchema>;
}

type Obj = Record<string, unknown>;
const asObject = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);

/** The row digest a dataset-row ref names, if `example` is one. */
export const rowRefDigest = (example: unknown): string | null =>
  typeof example === 'string' ? (/^weave:\/\/\/.*\/id\/([^/]+)$/.exec(example)?.[1] ?? null) : null;

export const rowDigestOf = (example: unknown): string => rowRefDigest(example) ?? bytesDigest(toPythonJson(fromPlain(example ?? null)));

function selectPredictCall(children: CallSchema[], modelRef: unknown): CallSchema | null {
  const candidates = children.filter((c) => !isScore(c));
  return (
    candidates.find((c) => modelRef !== undefined && (c.inputs.self === modelRef || c.op_name === modelRef)) ??
    candidates.find((c) => /predict|invoke/i.test(c.op_name)) ??
    null
  );
}

function scorerCallIds(scores: Obj, children: CallSchema[], predict: CallSchema | null): Record<string, string> {
  const others = children.filter((c) => c !== predict);
  const out: Record<string, string> = {};
  for (const key of Object.keys(scores)) {
    const lower = key.toLowerCase();
    const match =
      others.find((c) => isScore(c) && refName(weaveAttrs(c).scorer) === key) ??
      others.find((c) => [key, `${key}.score`].includes(opDisplayName(c.op_name))) ??
      others.find((c) => opDisplayName(c.op_name).toLowerCase().includes(lower));
    if (match) out[key] = match.id;
  }
  return out;
}

const usageOf = (call: CallSchema | null): Record<string, Usage> =>
  (asObject(asObject(call?.summary)?.usage) as Record<string, Usage>) ?? {};

/** What the predict call's usage cost, over the priced models; null when none is priced. */
function predictCost(call: CallSchema | null, prices: PriceRecord[], projectId: string): number | null {
  if (!call || !prices.length) return null;
  const costs = Object.values(costsForUsage({ usage: usageOf(call), prices, startedAt: Date.parse(call.started_at) * 1000, projectId }));
  return costs.length ? costs.reduce((n, c) => n + (c.prompt_tokens_total_cost ?? 0) + (c.completion_tokens_total_cost ?? 0), 0) : null;
}

/** GenAI span refs on the row and its predict call, without repeats; null when none. */
function spanRefs(...calls: (CallSchema | null)[]): EvalResultsTrial['genai_span_ref'] {
  const seen = new Map<string, { trace_id: string; span_id: string }>();
  for (const call of calls) {
    const raw = call ? weaveAttrs(call).genai_span_ref : undefined;
    for (const ref of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const r = asObject(ref);
      if (typeof r?.trace_id === 'string' && typeof r.span_id === 'string')
        seen.set(`${r.trace_id}/${r.span_id}`, { trace_id: r.trace_id, span_id: r.span_id });
    }
  }
  return seen.size ? [...seen.values()] : null;
}

function toTrial(pas: CallSchema, children: CallSchema[] | null, prices: PriceRecord[]): EvalResultsTrial {
  const out = asObject(pas.output) ?? (pas.ended_at || !children ? {} : (predictAndScoreOutput(children) as Obj));
  const scores = asObject(out.scores) ?? {};
  const predict = children ? selectPredictCall(children, pas.inputs.model) : null;
  const latency = out.model_latency;
  const fallbackLatency = typeof latency === 'number' ? latency : asObject(latency)?.mean;
  return {
    predict_and_score_call_id: pas.id,
    predict_call_id: predict?.id ?? null,
    model_output: 'output' in out ? out.output : (out.model_output ?? null),
    scores,
    scorer_call_ids: children ? scorerCallIds(scores, children, predict) : {},
    model_latency_seconds: (predict && latencySeconds(predict)) ?? (typeof fallbackLatency === 'number' ? fallbackLatency : null),
    total_tokens: usageTotalsOf(usageOf(predict))?.total_tokens ?? null,
    total_cost: predictCost(predict, prices, pas.project_id),
    genai_span_ref: spanRefs(pas, predict),
  };
}

/**
 * Every row of the given evaluation roots, in first-seen order. `children` reads the
 * predict/score calls under each row (the reference's include_predict_and_score_children);
 * `costs` prices each trial's predict call.
 *
 * With `children: 'open'` only the rows still open read their children (their output and
 * scores come from them); the others' trials carry what the row call itself holds (output,
 * scores, latency), which is all filters and sorts read. `completeTrials` then reads the
 * children of the page that is answered, so a page of 50 rows of a 100,000-row run reads 50
 * rows' children, not 400,000 calls.
 */
export async function loadEvalRows(
  store: Store,
  req: { projectId: string; evalIds: string[]; children: boolean | 'open'; costs: boolean },
): Promise<EvalRow[]> {
  const byRoot = await childrenOf(store, req.projectId, req.evalIds);
  const pasCalls = req.evalIds.flatMap((id) => (byRoot.get(id) ?? []).filter(isPredictAndScore));
  const withChildren = req.children === 'open' ? pasCalls.filter((c) => !c.ended_at) : req.children ? pasCalls : [];
  const grandchildren = withChildren.length
    ? await childrenOf(
        store,
        req.projectId,
        withChildren.map((c) => c.id),
      )
    : null;
  const prices = req.costs && req.children === true && grandchildren ? await pricesOf(store, req.projectId, grandchildren) : [];
  const rows = new Map<string, EvalRow>();
  for (const pas of pasCalls) {
    const example = pas.inputs.example;
    const digest = rowDigestOf(example);
    const row = rows.get(digest) ?? { rowDigest: digest, example, trials: new Map(), calls: new Map() };
    rows.set(digest, row);
    const trials = row.trials.get(pas.parent_id!) ?? [];
    const children = req.children === true ? (grandchildren?.get(pas.id) ?? []) : (grandchildren?.get(pas.id) ?? null);
    trials.push(toTrial(pas, children, prices));
    row.trials.set(pas.parent_id!, trials);
    row.calls!.set(pas.id, pas);
  }
  return [...rows.values()];
}

/**
 * Every row of the given evaluation roots from its row calls' keys alone (id, evaluation and
 * example, CallsStore.childInputs), in the order loadEvalRows gives: enough to choose a page in
 * the default order (by row digest) without reading every row call whole. Trials carry only
 * their call id until `completeTrials` (with `reload`) reads the page's.
 */
export async function loadRowKeys(store: Store, projectId: string, evalIds: string[]): Promise<EvalRow[]> {
  const byRoot = new Map<string, ChildInput[]>();
  for (const key of await store.calls.childInputs({ projectId, parentIds: evalIds, key: 'example' })) {
    if (!isPredictAndScore(key)) continue;
    const siblings = byRoot.get(key.parent_id);
    if (siblings) siblings.push(key);
    else byRoot.set(key.parent_id, [key]);
  }
  const rows = new Map<string, EvalRow>();
  for (const evalId of evalIds) {
    for (const key of byRoot.get(evalId) ?? []) {
      // Parsed as a whole call's inputs are (query/callRow.ts), so the digest is the same.
      const example: unknown = key.input === null ? undefined : JSON.parse(key.input);
      const digest = rowDigestOf(example);
      const row = rows.get(digest) ?? { rowDigest: digest, example, trials: new Map() };
      rows.set(digest, row);
      const trials = row.trials.get(evalId) ?? [];
      trials.push({ ...NO_TRIAL, predict_and_score_call_id: key.id });
      row.trials.set(evalId, trials);
    }
  }
  return [...rows.values()];
}

const NO_TRIAL: EvalResultsTrial = {
  predict_and_score_call_id: '',
  predict_call_id: null,
  model_output: null,
  scores: {},
  scorer_call_ids: {},
  model_latency_seconds: null,
  total_tokens: null,
  total_cost: null,
  genai_span_ref: null,
};

async function pricesOf(store: Store, projectId: string, grandchildren: Map<string, CallSchema[]>): Promise<PriceRecord[]> {
  const llmIds = new Set([...grandchildren.values()].flat().flatMap((c) => Object.keys(usageOf(c))));
  return llmIds.size ? await store.costs.pricesFor({ projectId, llmIds: [...llmIds] }) : [];
}

/**
 * Rebuilds the trials of rows loaded with `children: 'open'` or by loadRowKeys: with their
 * children (and costs) when `children`; `reload` first reads their row calls whole (after
 * loadRowKeys). A row call deleted meanwhile keeps the trial it had.
 */
export async function completeTrials(
  store: Store,
  projectId: string,
  rows: EvalRow[],
  opts: { children: boolean; costs: boolean; reload: boolean },
): Promise<void> {
  const pasIds = rows.flatMap((r) => [...r.trials.values()].flatMap((trials) => trials.map((t) => t.predict_and_score_call_id)));
  if (!pasIds.length) return;
  const full = opts.reload ? await callsById(store, projectId, pasIds) : null;
  const grandchildren = opts.children ? await childrenOf(store, projectId, pasIds) : null;
  const prices = opts.costs && grandchildren ? await pricesOf(store, projectId, grandchildren) : [];
  for (const row of rows) {
    for (const [evalId, trials] of row.trials) {
      row.trials.set(
        evalId,
        trials.map((t) => {
          const pas = (full ?? row.calls)?.get(t.predict_and_score_call_id);
          return pas ? toTrial(pas, grandchildren ? (grandchildren.get(pas.id) ?? []) : null, prices) : t;
        }),
      );
    }
  }
}

/** The dataset rows behind row refs, by row digest (unknown digests are absent). */
export async function resolveRowRefs(store: Store, projectId: string, rows: EvalRow[]): Promise<Map<string, unknown>> {
  const digests = rows.flatMap((r) => (rowRefDigest(r.example) ? [r.rowDigest] : []));
  if (!digests.length) return new Map();
  const stored = await store.tables.readRows({ projectId, digests });
  return new Map([...stored].map(([digest, json]) => [digest, JSON.parse(json) as unknown]));
}
