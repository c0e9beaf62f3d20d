/**
 * Feedback on calls, as the dashboard reads it: reactions (`wandb.reaction.1`), notes
 * (`wandb.note.1`), annotations (`wandb.annotation.<name>`) and scores (`wandb.runnable.<scorer>`,
 * with the tags and ratings a scorer may type beside them), from `/feedback/query` rows or
 * a call's `summary.weave.feedback` (docs/api/core.md §3.7). Pure functions, shared by the detail
 * panel and the calls table so both tell the same story.
 */
import type { Feedback } from '../../../contract/feedback.js';
import type { Call } from '../calls/callFields.js';

/** One feedback row as the server lists it. */
export type FeedbackRow = Feedback;

/** Feedback types the dashboard writes. */
export const REACTION_TYPE = 'wandb.reaction.1';
export const NOTE_TYPE = 'wandb.note.1';
export const ANNOTATION_PREFIX = 'wandb.annotation.';
/** What judges, monitors and SDK scorers write: `wandb.runnable.<scorer name>`, payload `{output}`. */
export const RUNNABLE_PREFIX = 'wandb.runnable.';

/** Thumbs first, then the reactions the picker offers. */
export const THUMBS_UP = '👍';
export const THUMBS_DOWN = '👎';
export const PICKER_EMOJIS = [
  '👍',
  '👎',
  '❤️',
  '🎉',
  '😂',
  '😮',
  '😢',
  '🤔',
  '👀',
  '🔥',
  '🚀',
  '💯',
  '✅',
  '❌',
  '⚠️',
  '🐛',
  '💡',
  '🙏',
] as const;

/** The ref feedback about a call points at. */
export const callRef = (projectId: string, callId: string): string => `weave:///${projectId}/call/${callId}`;

/** Query-language field of one feedback type's payload path: `feedback.[wandb.note.1].payload.note`. */
export const feedbackField = (feedbackType: string, path: string): string => `feedback.[${feedbackType}].payload.${path}`;

/** The field filters use for reactions. */
export const REACTION_FIELD = feedbackField(REACTION_TYPE, 'emoji');
/** The field filters use for notes. */
export const NOTE_FIELD = feedbackField(NOTE_TYPE, 'note');
/** The field of an annotation's value. */
export const annotationField = (name: string): string => feedbackField(`${ANNOTATION_PREFIX}${name}`, 'value');

/** The annotation name in an annotation value field, or null for any other path. */
export function annotationNameOf(path: string): string | null {
  const m = /^feedback\.\[wandb\.annotation\.(.+)\]\.payload\.value$/.exec(path);
  return m ? m[1]! : null;
}

/** True for query-language paths into feedback. */
export const isFeedbackPath = (path: string): boolean => path.startsWith('feedback.');

/** One emoji's reactions: who and when, and the viewer's own row if they gave it. */
export interface ReactionGroup {
  emoji: string;
  rows: FeedbackRow[];
  mine: FeedbackRow | null;
}

const emojiOf = (row: FeedbackRow): string => {
  const p = row.payload as { emoji?: unknown; detoned?: unknown };
  return typeof p.detoned === 'string' && p.detoned ? p.detoned : typeof p.emoji === 'string' ? p.emoji : '';
};

/** Reactions grouped by emoji (skin tones merged), thumbs first, then by first use. */
export function groupReactions(rows: readonly FeedbackRow[], me: string | null): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const row of rows) {
    if (row.feedback_type !== REACTION_TYPE) continue;
    const emoji = emojiOf(row);
    if (!emoji) continue;
    const group = groups.get(emoji) ?? { emoji, rows: [], mine: null };
    group.rows.push(row);
    if (me !== null && row.wb_user_id === me) group.mine ??= row;
    groups.set(emoji, group);
  }
  const rank = (e: string) => (e === THUMBS_UP ? 0 : e === THUMBS_DOWN ? 1 : 2);
  return [...groups.values()].sort((a, b) => rank(a.emoji) - rank(b.emoji));
}

/** Notes, oldest first. */
export function notesOf(rows: readonly FeedbackRow[]): FeedbackRow[] {
  return rows.filter((r) => r.feedback_type === NOTE_TYPE && typeof (r.payload as { note?: unknown }).note === 'string');
}

/** The note text of a note row. */
export const noteText = (row: FeedbackRow): string => String((row.payload as { note?: unknown }).note ?? '');

/** Annotation rows of one spec, newest first. */
export function annotationsOf(rows: readonly FeedbackRow[], name: string): FeedbackRow[] {
  const type = `${ANNOTATION_PREFIX}${name}`;
  return rows.filter((r) => r.feedback_type === type).sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** An annotation row's value. */
export const annotationValue = (row: FeedbackRow): unknown => (row.payload as { value?: unknown }).value;

/** A value as the table and panel print it. */
export function formatFeedbackValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The feedback a call was read with (`include_feedback`), or null when it was not asked for. */
export function feedbackOfCall(call: Pick<Call, 'summary'>): FeedbackRow[] | null {
  const weave = call.summary?.weave;
  const list = typeof weave === 'object' && weave !== null ? (weave as { feedback?: unknown }).feedback : undefined;
  return Array.isArray(list) ? (list as FeedbackRow[]) : null;
}

/** What a call's feedback adds up to, for one table cell. */
export interface FeedbackSummary {
  reactions: { emoji: string; count: number }[];
  notes: number;
  annotations: number;
}

/** Reaction counts, note count and annotation count of a call's feedback. */
export function summarizeFeedback(rows: readonly FeedbackRow[]): FeedbackSummary {
  return {
    reactions: groupReactions(rows, null).map((g) => ({ emoji: g.emoji, count: g.rows.length })),
    notes: notesOf(rows).length,
    annotations: rows.filter((r) => r.feedback_type.startsWith(ANNOTATION_PREFIX)).length,
  };
}

/** A scorer's conclusion about a call: its output, and the tags and ratings it typed beside it. */
export interface ScorerResult {
  row: FeedbackRow;
  /** The scorer's name (`wandb.runnable.<name>`), or the feedback type of other typed feedback. */
  scorer: string;
  /** The payload's `output`, when the row is a scorer's. */
  output: unknown;
  tags: { name: string; reason?: string; confidence?: number }[];
  ratings: { name: string; value: number; reason?: string; confidence?: number }[];
}

/**
 * The scores among a call's feedback, oldest first: every scorer's row, and any other row that
 * carries typed tags or ratings (a client may write them under its own feedback type).
 */
export function scorerResultsOf(rows: readonly FeedbackRow[]): ScorerResult[] {
  const out: ScorerResult[] = [];
  for (const row of rows) {
    const runnable = row.feedback_type.startsWith(RUNNABLE_PREFIX);
    const tags = row.scorer_tags ?? [];
    const ratings = Object.entries(row.scorer_ratings ?? {});
    if (!runnable && !tags.length && !ratings.length) continue;
    out.push({
      row,
      scorer: runnable ? row.feedback_type.slice(RUNNABLE_PREFIX.length) : row.feedback_type,
      output: runnable ? (row.payload as { output?: unknown }).output : undefined,
      tags: tags.map((name) => ({ name, reason: row.scorer_tag_reasons?.[name], confidence: row.scorer_tag_confidences?.[name] })),
      ratings: ratings.map(([name, value]) => ({
        name,
        value,
        reason: row.scorer_rating_reasons?.[name],
        confidence: row.scorer_rating_confidences?.[name],
      })),
    });
  }
  return out;
}
