/**
 * The evaluation pages keep their view in the URL, so a copied link reproduces it:
 * - runs list: `?sort=started:desc&evaluation=quiz-eval&model=gpt-judge&status=failed`
 * - one run: `?failures=1&below=0.5&sort=scores.correct:asc`
 * - compare: `?runs=a,b,c&baseline=a&diff=1&sort=difference:scores.quality:desc&row=<row digest>`
 *   (or `sort=value:scores.correct:asc:<run id>` for one run's values; `row` opens the row view).
 * Defaults are left out to keep links short.
 */

/** A sort key: a column id and a direction. */
export interface ColumnSort {
  id: string;
  direction: 'asc' | 'desc';
}

function parseSort(raw: string | null): ColumnSort | null {
  const m = raw ? /^(.+):(asc|desc)$/.exec(raw) : null;
  return m ? { id: m[1]!, direction: m[2] as 'asc' | 'desc' } : null;
}
const sortText = (s: ColumnSort | null) => (s ? `${s.id}:${s.direction}` : null);

/** The runs list as the URL describes it. */
export interface RunsView {
  sort: ColumnSort;
  evaluation: string | null;
  model: string | null;
  status: string | null;
}

/** Newest runs first unless the URL says otherwise. */
export const DEFAULT_RUNS_SORT: ColumnSort = { id: 'started', direction: 'desc' };

/** Reads the runs list view. */
export function readRunsView(p: URLSearchParams): RunsView {
  return {
    sort: parseSort(p.get('sort')) ?? DEFAULT_RUNS_SORT,
    evaluation: p.get('evaluation'),
    model: p.get('model'),
    status: p.get('status'),
  };
}

/** Writes the runs list view. */
export function writeRunsView(v: RunsView, p = new URLSearchParams()): URLSearchParams {
  const sort = sortText(v.sort);
  return setAll(p, {
    sort: sort === sortText(DEFAULT_RUNS_SORT) ? null : sort,
    evaluation: v.evaluation,
    model: v.model,
    status: v.status,
  });
}

/** One run's results table as the URL describes it. */
export interface RunView {
  failures: boolean;
  /** Continuous scores below this count as failures; null = only binary scores decide. */
  below: number | null;
  /** An eval_results field (`scores.x`, `inputs.x`, `outputs`) and direction; null = dataset order. */
  sort: ColumnSort | null;
}

/** Reads a run page's view. */
export function readRunView(p: URLSearchParams): RunView {
  const below = p.get('below');
  return {
    failures: p.get('failures') === '1',
    below: below !== null && below !== '' && Number.isFinite(Number(below)) ? Number(below) : null,
    sort: parseSort(p.get('sort')),
  };
}

/** Writes a run page's view. */
export function writeRunView(v: RunView, p = new URLSearchParams()): URLSearchParams {
  return setAll(p, { failures: v.failures ? '1' : null, below: v.below === null ? null : String(v.below), sort: sortText(v.sort) });
}

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
  diffOnly: boolean;
  sort: CompareSort | null;
  /** The dataset row open in the row view. */
  row: string | null;
}

function parseCompareSort(raw: string | null): CompareSort | null {
  const m = raw ? /^(value|difference):(.+?):(asc|desc)(?::(.+))?$/.exec(raw) : null;
  return m ? { mode: m[1] as CompareSort['mode'], field: m[2]!, direction: m[3] as 'asc' | 'desc', runId: m[4] ?? null } : null;
}

/**
 * Reads the compare view. The baseline is one of the runs when the URL names one, else null:
 * the page then takes the oldest run, the one the others are usually measured against.
 */
export function readCompareView(p: URLSearchParams): CompareView {
  const runIds = [
    ...new Set(
      (p.get('runs') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const wanted = p.get('baseline');
  return {
    runIds,
    baseline: wanted && runIds.includes(wanted) ? wanted : null,
    diffOnly: p.get('diff') === '1',
    sort: parseCompareSort(p.get('sort')),
    row: p.get('row') || null,
  };
}

/** Writes the compare view. */
export function writeCompareView(v: CompareView, p = new URLSearchParams()): URLSearchParams {
  const sort = v.sort ? `${v.sort.mode}:${v.sort.field}:${v.sort.direction}${v.sort.runId ? `:${v.sort.runId}` : ''}` : null;
  return setAll(p, { runs: v.runIds.join(','), baseline: v.baseline, diff: v.diffOnly ? '1' : null, sort, row: v.row });
}

function setAll(p: URLSearchParams, values: Record<string, string | null>): URLSearchParams {
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === '') p.delete(k);
    else p.set(k, v);
  }
  return p;
}
