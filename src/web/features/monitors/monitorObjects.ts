/**
 * The `Monitor` object as the reference dashboard saves it (MonitorFormDrawer): `_class_name`
 * "Monitor", `_bases` ["Object", "BaseModel"], `op_names` (op refs ending in ":*", null for
 * every op), `query` (null: no further filter), `sampling_rate` 0–1, `scorers` (judge refs),
 * `active`. The Python SDK's `weave.Monitor` keeps op names and query under `call_filter`;
 * both are read (server: domain/llm/monitors.ts).
 */
import type { Json } from '../judges/judgeObjects.js';

export interface MonitorForm {
  name: string;
  description: string;
  /** Op names (not refs); empty: every op. */
  ops: string[];
  /** Judge refs. */
  scorers: string[];
  /** Percent, 0–100. */
  samplingPercent: number;
  active: boolean;
  /** A query saved by another writer (the SDK, the reference dashboard), kept as it is. */
  query: Json | null;
}

export const emptyMonitorForm = (): MonitorForm => ({
  name: '',
  description: '',
  ops: [],
  scorers: [],
  samplingPercent: 10,
  active: true,
  query: null,
});

const opRef = (projectId: string, op: string) => `weave:///${projectId}/op/${op}:*`;
/** `weave:///e/p/op/name:*` (or a plain name) → `name`. */
export const opNameOf = (ref: string) => /\/op\/([^/:]+)/.exec(ref)?.[1] ?? ref;

/**
 * Ops of evaluation and LLM machinery, written by the SDKs' `Evaluation` and by Weft's judges,
 * playground and evaluate-model jobs: rarely what a monitor watches, so the picker folds them away.
 */
const INTERNAL_OP = /^(weave\.|Evaluation\.|LLMStructuredCompletionModel\.|LLMAsAJudgeScorer\.)/;
export const isInternalOp = (name: string) => INTERNAL_OP.test(name);

export function toMonitorValue(projectId: string, form: MonitorForm): Json {
  return {
    _type: 'Monitor',
    name: form.name,
    description: form.description || null,
    ref: null,
    op_names: form.ops.length ? form.ops.map((op) => opRef(projectId, op)) : null,
    query: form.query,
    sampling_rate: Math.min(100, Math.max(0, form.samplingPercent)) / 100,
    scorers: form.scorers,
    active: form.active,
    _class_name: 'Monitor',
    _bases: ['Object', 'BaseModel'],
  };
}

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export function fromMonitorValue(name: string, val: Json): MonitorForm {
  const filter = isObj(val.call_filter) ? val.call_filter : val;
  const ops = Array.isArray(filter.op_names) ? filter.op_names.filter((o): o is string => typeof o === 'string').map(opNameOf) : [];
  return {
    name,
    description: typeof val.description === 'string' ? val.description : '',
    ops,
    scorers: Array.isArray(val.scorers) ? val.scorers.filter((s): s is string => typeof s === 'string') : [],
    samplingPercent: typeof val.sampling_rate === 'number' ? Math.round(val.sampling_rate * 1000) / 10 : 0,
    active: val.active === true,
    query: isObj(filter.query) ? filter.query : null,
  };
}
