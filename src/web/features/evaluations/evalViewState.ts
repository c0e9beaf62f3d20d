/**
 * The evaluation pages keep their view in the URL, so a copied link reproduces it:
 * - runs list: `?sort=started:desc&evaluation=quiz-eval&model=gpt-judge&status=failed`
 * - one run: `?failures=1&below=0.5&sort=scores.correct:asc`
 * - compare: `?runs=a,b,c&baseline=a&vs=b&diff=1&sort=difference:scores.quality:desc&row=<row digest>&marks=1`
 *   (or `sort=value:scores.correct:asc:<run id>` for one run's values; `vs` is the run read against
 *   the baseline, `row` opens the row view, `marks` highlights the words the two outputs differ in).
 * Defaults are left out to keep links short.
 */

import { custom, flag, list, number, parseSortKey, text, urlState, type UrlField } from '../../lib/urlState.js';

/** A sort key: a column id and a direction. */
export interface ColumnSort {
  id: string;
  direction: 'asc' | 'desc';
}

/** A column sort (`id:asc`); unreadable reads as `fallback`, which is left out. */
function columnSort(param: string, fallback: ColumnSort): UrlField<ColumnSort>;
function columnSort(param: string, fallback: null): UrlField<ColumnSort | null>;
function columnSort(param: string, fallback: ColumnSort | null): UrlField<ColumnSort | null> {
  const textOf = (s: ColumnSort | null) => (s ? `${s.id}:${s.direction}` : null);
  return custom<ColumnSort | null>(
    param,
    (raw) => {
      const key = parseSortKey(raw);
      return key ? { id: key.field, direction: key.direction } : fallback;
    },
    (v) => (textOf(v) === textOf(fallback) ? null : textOf(v)),
  );
}

/** The runs list as the URL describes it. */
export interface RunsView {
  sort: ColumnSort;
  evaluation: string | null;
  model: string | null;
  status: string | null;
}

/** Newest runs first unless the URL says otherwise. */
export const DEFAULT_RUNS_SORT: ColumnSort = { id: 'started', direction: 'desc' };

/** Reads and writes the runs list view. */
export const { read: readRunsView, write: writeRunsView } = urlState<RunsView>({
  sort: columnSort('sort', DEFAULT_RUNS_SORT),
  evaluation: text('evaluation'),
  model: text('model'),
  status: text('status'),
});

/** One run's results table as the URL describes it. */
export interface RunView {
  failures: boolean;
  /** Continuous scores below this count as failures; null = only binary scores decide. */
  below: number | null;
  /** An eval_results field (`scores.x`, `inputs.x`, `outputs`) and direction; null = dataset order. */
  sort: ColumnSort | null;
}

/** Reads and writes a run page's view. */
export const { read: readRunView, write: writeRunView } = urlState<RunView>({
  failures: flag('failures'),
  below: number('below'),
  sort: columnSort('sort', null),
});

/** A compare table sort: by one run's value of a field, or by the spread across runs. */
export interface CompareSort {
  mode: 'value' | 'difference';
  field: string;
  direction: 'asc' | 'desc';
  runId: string | null;
}

/** The compare page as the URL describes it. */
export interface CompareView {
  runIds: string[];
  baseline: string | null;
  /** The run read against the baseline (null: the first other run). */
  against: string | null;
  diffOnly: boolean;
  sort: CompareSort | null;
  /** The dataset row open in the row view. */
  row: string | null;
  /** The row view marks the words the two outputs differ in. */
  marks: boolean;
}

function parseCompareSort(raw: string | null): CompareSort | null {
  const m = raw ? /^(value|difference):(.+?):(asc|desc)(?::(.+))?$/.exec(raw) : null;
  return m ? { mode: m[1] as CompareSort['mode'], field: m[2]!, direction: m[3] as 'asc' | 'desc', runId: m[4] ?? null } : null;
}

const compareFields = urlState<CompareView>({
  runIds: list('runs'),
  baseline: text('baseline'),
  against: text('vs'),
  diffOnly: flag('diff'),
  sort: custom('sort', parseCompareSort, (s) => (s ? `${s.mode}:${s.field}:${s.direction}${s.runId ? `:${s.runId}` : ''}` : null)),
  row: text('row'),
  marks: flag('marks'),
});

/**
 * Reads the compare view. The baseline and the compared run are runs of the comparison when the
 * URL names them, else null: the page then takes the oldest run as the baseline, the one the others
 * are usually measured against, and the first other run as the compared one.
 */
export function readCompareView(p: URLSearchParams): CompareView {
  const view = compareFields.read(p);
  const known = (id: string | null) => (id && view.runIds.includes(id) ? id : null);
  return { ...view, baseline: known(view.baseline), against: known(view.against) };
}

/** Writes the compare view. */
export const writeCompareView = compareFields.write;
