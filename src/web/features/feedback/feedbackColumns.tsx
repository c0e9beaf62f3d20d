/**
 * Feedback columns of the calls table: a summary of each call's feedback (reactions with
 * counts, notes, annotations) and one column per annotation field, sortable on the server by
 * `feedback.[wandb.annotation.<name>].payload.value`. Cells read `summary.weave.feedback`,
 * which the list asks for with `include_feedback` while one of these columns is shown.
 */
import { ReactionIcon } from '../../components/ui/ReactionIcon.js';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import type { Call } from '../../entities/calls/callFields.js';
import {
  ANNOTATION_PREFIX,
  annotationNameOf,
  annotationValue,
  feedbackOfCall,
  formatFeedbackValue,
  summarizeFeedback,
  THUMBS_DOWN,
  THUMBS_UP,
} from '../../entities/feedback/feedbackModel.js';
import './feedback.css';

const col = createColumnHelper<Call>();

const REACTION_NAMES: Record<string, string> = { [THUMBS_UP]: 'thumbs up', [THUMBS_DOWN]: 'thumbs down' };
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One icon, with its count when more than one. */
function CellItem({ icon, count }: { icon: string; count: number }) {
  return (
    <span className="fb-cell-item" aria-hidden="true">
      <ReactionIcon emoji={icon} size={14} />
      {count > 1 && <span className="fb-count">{count}</span>}
    </span>
  );
}

/** Reactions, notes and annotations of one call, compactly. */
function FeedbackSummaryCell({ call }: { call: Call }) {
  const rows = feedbackOfCall(call);
  if (!rows || rows.length === 0) return null;
  const { reactions, notes, annotations } = summarizeFeedback(rows);
  const words = [
    ...reactions.map((r) => `${r.count} ${REACTION_NAMES[r.emoji] ?? r.emoji}`),
    ...(notes ? [plural(notes, 'note')] : []),
    ...(annotations ? [plural(annotations, 'annotation')] : []),
  ].join(', ');
  return (
    <span className="fb-cell" role="img" title={words} aria-label={words}>
      {reactions.map((r) => (
        <CellItem key={r.emoji} icon={r.emoji} count={r.count} />
      ))}
      {notes > 0 && <CellItem icon="📝" count={notes} />}
      {annotations > 0 && <CellItem icon="🏷️" count={annotations} />}
    </span>
  );
}

/** The built-in Feedback column. */
export const feedbackSummaryColumn: ColumnDef<Call, unknown> = col.display({
  id: 'feedback',
  header: 'Feedback',
  size: 160,
  cell: ({ row }) => <FeedbackSummaryCell call={row.original} />,
});

/** The values of one annotation on a call, newest first (several people may have annotated). */
function annotationValues(call: Call, name: string): unknown[] {
  const type = `${ANNOTATION_PREFIX}${name}`;
  return (feedbackOfCall(call) ?? [])
    .filter((r) => r.feedback_type === type)
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .map(annotationValue);
}

const annotationColumns = new Map<string, ColumnDef<Call, unknown>>();

/** A column for a feedback path; annotation values get the annotation's name as header. */
export function feedbackPathColumn(path: string): ColumnDef<Call, unknown> {
  let def = annotationColumns.get(path);
  if (!def) {
    const name = annotationNameOf(path);
    def = col.accessor((c) => (name ? annotationValues(c, name)[0] : undefined), {
      id: path,
      header: name ?? path,
      size: 140,
      cell: ({ row }) => {
        const values = name ? annotationValues(row.original, name).map(formatFeedbackValue) : [];
        const text = values.join(', ');
        return (
          <span className="fb-cell" title={values.length > 1 ? `${values.length} annotators: ${text}` : text}>
            {text}
          </span>
        );
      },
    }) as ColumnDef<Call, unknown>;
    annotationColumns.set(path, def);
  }
  return def;
}
