/**
 * The Scores column of the calls table: each judge's latest score of the call, from its
 * runnable feedback (`wandb.runnable.<judge>`, payload `{output}`) — what "Score with…",
 * monitors and SDK scorers store. Cells read `summary.weave.feedback` (the list asks for
 * `include_feedback` while the column is shown).
 */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import type { Call } from '../../entities/calls/callFields.js';
import { feedbackOfCall, RUNNABLE_PREFIX } from '../../entities/feedback/feedbackModel.js';
import { scoreText } from './judgeObjects.js';
import './judges.css';

const col = createColumnHelper<Call>();

/** Each judge's newest score of a call, by judge name. */
export function callScores(call: Call): { name: string; text: string; monitor: boolean }[] {
  const newest = new Map<string, { at: string; text: string; monitor: boolean }>();
  for (const row of feedbackOfCall(call) ?? []) {
    if (!row.feedback_type.startsWith(RUNNABLE_PREFIX)) continue;
    const name = row.feedback_type.slice(RUNNABLE_PREFIX.length);
    const seen = newest.get(name);
    if (seen && seen.at >= row.created_at) continue;
    const payload = row.payload as { output?: unknown } | null;
    newest.set(name, { at: row.created_at, text: scoreText(payload?.output), monitor: !!row.trigger_ref });
  }
  return [...newest].map(([name, v]) => ({ name, text: v.text, monitor: v.monitor })).sort((a, b) => a.name.localeCompare(b.name));
}

export const scoresColumn: ColumnDef<Call, unknown> = col.display({
  id: 'scores',
  header: 'Scores',
  size: 180,
  cell: ({ row }) => {
    const scores = callScores(row.original);
    if (!scores.length) return null;
    return (
      <span className="score-chips">
        {scores.map((s) => (
          <span key={s.name} className="score-chip" title={s.monitor ? `${s.name} (by a monitor)` : s.name}>
            {s.name}: {s.text}
          </span>
        ))}
      </span>
    );
  },
});
