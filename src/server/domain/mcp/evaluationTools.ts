/**
 * MCP tools over evaluation runs (docs/api/evaluations.md): list them as
 * `/v2/.../evaluation_runs` does, and compare two from the summary of `eval_results/query`
 * (per scorer: the mean or pass rate of each run, and run B minus run A).
 */
import { z } from 'zod';
import type { EvalResultsEvaluationSummary, EvalResultsRow, EvalResultsScorerStats } from '../../../contract/evalResults.js';
import { queryEvalResults } from '../evaluations/evalResults.js';
import { listRuns, requireRun, toRunRead } from '../evaluations/evaluationRuns.js';
import { cappedNote, cutPayload, rowLimit } from './toolBounds.js';
import { limitArg, offsetArg, projectArg, defineTool, type ToolDef } from './toolKit.js';

/** Characters of a changed row's input or output shown: enough to recognise the example. */
const ROW_VALUE_CHARS = 500;

type Stat = Pick<EvalResultsScorerStats, 'value_type' | 'trial_count' | 'numeric_mean' | 'pass_rate'>;

const scorerName = (s: EvalResultsScorerStats) => (s.path ? `${s.scorer_key}.${s.path}` : s.scorer_key);
const statOf = (s: EvalResultsScorerStats | undefined): Stat | null =>
  s ? { value_type: s.value_type, trial_count: s.trial_count, numeric_mean: s.numeric_mean, pass_rate: s.pass_rate } : null;
/** JSON with every object's keys sorted: two runs may record the same scores in another order. */
const sameOrderJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
  );
const minus = (b: number | null | undefined, a: number | null | undefined) => (a == null || b == null ? null : b - a);

export const evaluationTools: readonly ToolDef[] = [
  defineTool(
    'list_evaluation_runs',
    {
      title: 'List evaluation runs',
      description:
        'Evaluation runs of a project (API runs and SDK Evaluation.evaluate calls), oldest first: id, evaluation and model refs, status, start and finish. Compare two with compare_evaluation_runs.',
      input: {
        project_id: projectArg,
        evaluation: z.string().min(1).optional().describe('Only runs of this evaluation ref'),
        model: z.string().min(1).optional().describe('Only runs of this model ref'),
        limit: limitArg(50),
        offset: offsetArg,
      },
    },
    async (args, { store, limits, deadline }) => {
      const { limit, capped } = rowLimit(args.limit, 50, limits);
      const rows = listRuns(store, {
        projectId: args.project_id,
        evaluations: args.evaluation ? [args.evaluation] : null,
        models: args.model ? [args.model] : null,
        limit,
        offset: args.offset ?? 0,
      });
      const runs = await deadline.collect(rows);
      return {
        runs: runs.map(({ summary, ...run }) => ({
          ...run,
          latency_ms: (summary?.weave as { latency_ms?: number } | undefined)?.latency_ms ?? null,
        })),
        offset: args.offset ?? 0,
        ...(runs.length === limit ? { next_offset: (args.offset ?? 0) + limit } : {}),
        ...cappedNote(capped, limits),
      };
    },
  ),

  defineTool(
    'compare_evaluation_runs',
    {
      title: 'Compare two evaluation runs',
      description:
        'Two evaluation runs side by side: rows and trials of each, tokens and cost of their predictions, per scorer (nested scores as "scorer.path") the mean or pass rate of each run and the delta (run B minus run A), and the dataset rows both ran whose scores differ (input, each run\'s outputs and scores, values cut short).',
      input: {
        project_id: projectArg,
        run_a: z.string().min(1).describe('The baseline run id'),
        run_b: z.string().min(1).describe('The run compared with it'),
        changed_rows: z.number().int().min(0).optional().describe('Rows with differing scores to show (default 10; 0: none)'),
      },
    },
    async (args, { store, limits, deadline }) => {
      const { limit: showChanged, capped } = rowLimit(args.changed_rows, 10, limits);
      const [entity, project] = args.project_id.split('/') as [string, string];
      const runA = toRunRead(await deadline.race(requireRun(store, args.project_id, args.run_a)));
      const runB = toRunRead(await deadline.race(requireRun(store, args.project_id, args.run_b)));
      const results = await deadline.race(
        queryEvalResults(store, args.project_id, {
          entity,
          project,
          evaluation_call_ids: [args.run_a, args.run_b],
          // The summary reads every row already; the rows both ran are what a regression is found in.
          include_rows: showChanged > 0,
          require_intersection: true,
          summary_require_intersection: false,
          include_raw_data_rows: showChanged > 0,
          include_summary: true,
        }),
      );
      const summaries = new Map<string, EvalResultsEvaluationSummary>(
        (results.summary?.evaluations ?? []).map((e) => [e.evaluation_call_id, e]),
      );
      const a = summaries.get(args.run_a);
      const b = summaries.get(args.run_b);
      const stats = (s: EvalResultsEvaluationSummary | undefined) => new Map((s?.scorer_stats ?? []).map((x) => [scorerName(x), x]));
      const statsA = stats(a);
      const statsB = stats(b);
      const names = [...new Set([...statsA.keys(), ...statsB.keys()])].sort();
      const side = (run: ReturnType<typeof toRunRead>, s: EvalResultsEvaluationSummary | undefined) => ({
        evaluation_run_id: run.evaluation_run_id,
        evaluation: run.evaluation,
        model: run.model,
        status: run.status,
        started_at: run.started_at,
        row_count: s?.row_count ?? 0,
        trial_count: s?.trial_count ?? 0,
        predict_total_tokens: s?.predict_total_tokens ?? null,
        predict_total_cost: s?.predict_total_cost ?? null,
      });
      const changed = results.rows.filter((row) => {
        const [ta, tb] = [args.run_a, args.run_b].map((id) => row.evaluations.find((e) => e.evaluation_call_id === id)?.trials ?? []);
        return sameOrderJson(ta!.map((t) => t.scores)) !== sameOrderJson(tb!.map((t) => t.scores));
      });
      const trialsOf = (row: EvalResultsRow, id: string) =>
        (row.evaluations.find((e) => e.evaluation_call_id === id)?.trials ?? []).map((t) => ({
          output: cutPayload(t.model_output, ROW_VALUE_CHARS),
          scores: t.scores,
        }));
      return {
        run_a: side(runA, a),
        run_b: side(runB, b),
        ...(showChanged > 0
          ? {
              changed_row_count: changed.length,
              changed_rows: changed.slice(0, showChanged).map((row) => ({
                row_digest: row.row_digest,
                input: cutPayload(row.raw_data_row, ROW_VALUE_CHARS),
                a: trialsOf(row, args.run_a),
                b: trialsOf(row, args.run_b),
              })),
            }
          : {}),
        ...cappedNote(capped, limits),
        scorers: names.map((name) => {
          const sa = statsA.get(name);
          const sb = statsB.get(name);
          return {
            scorer: name,
            a: statOf(sa),
            b: statOf(sb),
            delta_mean: minus(sb?.numeric_mean, sa?.numeric_mean),
            delta_pass_rate: minus(sb?.pass_rate, sa?.pass_rate),
          };
        }),
      };
    },
  ),
];
