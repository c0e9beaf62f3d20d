/**
 * Leaderboards (docs/leaderboards.md): the reference's `Leaderboard` object read into a form and
 * written back, and its table computed from evaluation runs. A run is an `Evaluation.evaluate`
 * call whose `inputs.self` is a column's evaluation ref; its `inputs.model` names the row and
 * `output[scorer_name]` followed along the dot path `summary_metric_path` is the cell. When a
 * model has several runs of one evaluation, the newest run's value is shown (and linked).
 */
import { newerFirst } from '../../lib/format.js';

/** One column as the form edits it. */
export interface LeaderboardColumnForm {
  evaluation: string;
  scorer: string;
  metricPath: string;
  /** `should_minimize`: null when the object leaves it unset (higher is better). */
  minimize: boolean | null;
}

export interface LeaderboardForm {
  name: string;
  description: string;
  columns: LeaderboardColumnForm[];
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const STAMP = ['_type', '_class_name', '_bases'];

/** The form for a stored leaderboard value (stamped or not). */
export function fromLeaderboardValue(objectId: string, val: Json): LeaderboardForm {
  const columns = Array.isArray(val.columns) ? val.columns.filter(isJson) : [];
  return {
    name: objectId,
    description: typeof val.description === 'string' ? val.description : '',
    columns: columns.map((c) => ({
      evaluation: String(c.evaluation_object_ref ?? ''),
      scorer: String(c.scorer_name ?? ''),
      metricPath: String(c.summary_metric_path ?? ''),
      minimize: typeof c.should_minimize === 'boolean' ? c.should_minimize : null,
    })),
  };
}

/**
 * The value to save with `builtin_object_class: "Leaderboard"`: the previous version's other
 * fields kept (the SDK's display settings), stamps removed so the server dumps it afresh as the
 * reference does.
 */
export function toLeaderboardValue(form: LeaderboardForm, previous: Json = {}): Json {
  const kept = Object.fromEntries(Object.entries(previous).filter(([k]) => !STAMP.includes(k)));
  return {
    ...kept,
    name: form.name,
    description: form.description.trim() === '' ? null : form.description,
    columns: form.columns.map((c) => ({
      evaluation_object_ref: c.evaluation,
      scorer_name: c.scorer,
      summary_metric_path: c.metricPath,
      should_minimize: c.minimize,
    })),
  };
}

/** What is wrong with a form, or null. */
export function leaderboardProblem(form: LeaderboardForm): string | null {
  if (!/^[\w.-]{1,128}$/u.test(form.name)) return 'The name is 1 to 128 letters, digits, ".", "_" or "-".';
  if (form.columns.length === 0) return 'Add at least one column.';
  const bad = form.columns.findIndex((c) => !c.evaluation || !c.scorer.trim() || !c.metricPath.trim());
  return bad >= 0 ? `Column ${bad + 1} needs an evaluation, a scorer and a metric path.` : null;
}

/** The parts of an evaluation run the table needs. */
export interface RunCall {
  id: string;
  started_at: string;
  inputs: Json;
  output: unknown;
}

export interface LeaderboardCell {
  value: number | string | boolean | null;
  runId: string;
}

export interface LeaderboardRow {
  model: string;
  cells: (LeaderboardCell | null)[];
}

/** The value at a dot path, or undefined. */
export function metricAt(output: unknown, scorer: string, path: string): unknown {
  let value: unknown = isJson(output) ? output[scorer] : undefined;
  for (const part of path.split('.').filter(Boolean)) {
    if (isJson(value)) value = value[part];
    else if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else return undefined;
  }
  return value;
}

const refOf = (v: unknown): string | null => (typeof v === 'string' && v.startsWith('weave:///') ? v : null);

/** One row per model with a run of any column's evaluation; each cell its newest run's value. */
export function leaderboardRows(columns: readonly LeaderboardColumnForm[], runs: readonly RunCall[]): LeaderboardRow[] {
  const newestFirst = [...runs].sort((a, b) => newerFirst(a.started_at, b.started_at));
  const rows = new Map<string, LeaderboardRow>();
  for (const run of newestFirst) {
    const evaluation = refOf(run.inputs.self);
    const model = refOf(run.inputs.model);
    if (!evaluation || !model) continue;
    columns.forEach((c, i) => {
      if (c.evaluation !== evaluation) return;
      let row = rows.get(model);
      if (!row) rows.set(model, (row = { model, cells: columns.map(() => null) }));
      if (row.cells[i]) return;
      const v = metricAt(run.output, c.scorer, c.metricPath);
      const value = typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : null;
      row.cells[i] = { value, runId: run.id };
    });
  }
  return [...rows.values()];
}

/** Sorts rows by one column (best first unless asked otherwise); rows without a number go last. */
export function sortRows(rows: readonly LeaderboardRow[], column: number, minimize: boolean | null, bestFirst: boolean): LeaderboardRow[] {
  const num = (r: LeaderboardRow) => {
    const v = r.cells[column]?.value;
    return typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null;
  };
  const ascending = (minimize === true) === bestFirst;
  return [...rows].sort((a, b) => {
    const x = num(a);
    const y = num(b);
    if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
    return ascending ? x - y : y - x;
  });
}

/** Leaf paths (dot-joined) under each scorer of a run output, for the metric path suggestions. */
export function metricPaths(output: unknown, scorer: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown, prefix: string) => {
    if (isJson(v)) for (const [k, child] of Object.entries(v)) walk(child, prefix ? `${prefix}.${k}` : k);
    else if (prefix && (typeof v === 'number' || typeof v === 'boolean')) out.push(prefix);
  };
  walk(isJson(output) ? output[scorer] : undefined, '');
  return out;
}
