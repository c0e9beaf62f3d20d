/**
 * The feedback part of a call's detail panel: annotation fields, notes, scores, and who reacted
 * how. Reactions are given in the panel's header (ReactionBar); here they are listed with their
 * authors so each can be read and the viewer's own removed. Scores are what judges, monitors and
 * SDK scorers concluded, with the tags and ratings a scorer typed and why.
 */
import { ReactionIcon } from '../../components/ui/ReactionIcon.js';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Section } from '../../components/ui/Section.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { AnnotationFields } from './AnnotationFields.js';
import { FeedbackMeta } from './FeedbackMeta.js';
import { groupReactions, scorerResultsOf, type FeedbackRow, type ScorerResult } from '../../entities/feedback/feedbackModel.js';
import { scoreText } from '../judges/judgeObjects.js';
import { callFeedbackQueryOptions, useFeedbackMutations } from '../../entities/feedback/feedbackQueries.js';
import { MutationError } from '../../components/ui/MutationError.js';
import { NotesList } from './NotesList.js';
import { useCan } from '../auth/useCan.js';
import '../judges/judges.css';
import './feedback.css';

/** Feedback section for one call. */
export function FeedbackSection({ projectId, callId }: { projectId: string; callId: string }) {
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const { data: rows, error, refetch } = useQuery(callFeedbackQueryOptions({ projectId, callId }));
  const count = rows?.length ?? 0;
  return (
    <Section title={count ? `Feedback (${count})` : 'Feedback'}>
      {error ? (
        <ErrorState error={error} onRetry={() => void refetch()} compact />
      ) : (
        <div className="fb-section">
          <AnnotationFields projectId={projectId} callId={callId} rows={rows ?? []} me={user.username} />
          <NotesList projectId={projectId} callId={callId} rows={rows ?? []} me={user.username} />
          <ScoresList rows={rows ?? []} />
          <ReactionList projectId={projectId} callId={callId} rows={rows ?? []} me={user.username} />
        </div>
      )}
    </Section>
  );
}

/** Each reaction with its author and time; the viewer's own can be removed. */
function ReactionList({
  projectId,
  callId,
  rows,
  me,
}: {
  projectId: string;
  callId: string;
  rows: Parameters<typeof groupReactions>[0];
  me: string;
}) {
  const { remove } = useFeedbackMutations({ projectId, callId });
  const mayRemove = useCan(projectId)('feedbackPurge').allowed;
  const reactions = groupReactions(rows, me).flatMap((g) => g.rows.map((row) => ({ emoji: g.emoji, row })));
  if (reactions.length === 0) return null;
  return (
    <div className="fb-block">
      <h4>Reactions</h4>
      <ul className="fb-list" aria-label="Reactions given">
        {reactions.map(({ emoji, row }) => (
          <li key={row.id}>
            <span className="fb-emoji" role="img" aria-label={emoji}>
              <ReactionIcon emoji={emoji} />
            </span>
            <FeedbackMeta row={row} />
            {row.wb_user_id === me && mayRemove && (
              <button type="button" className="link-button" disabled={remove.isPending} onClick={() => remove.mutate(row.id)}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <MutationError mutations={[remove]} />
    </div>
  );
}

/** `toxic: insults the user (90%)`: a tag's or rating's reason and confidence, for its tooltip. */
function why(name: string, reason: string | undefined, confidence: number | undefined): string {
  const sure = confidence === undefined ? '' : ` (${Math.round(confidence * 100)}% sure)`;
  return `${name}${reason ? `: ${reason}` : ''}${sure}`;
}

/** Each score with its scorer, the tags and ratings it typed (their reasons on hover), and when. */
function ScoresList({ rows }: { rows: readonly FeedbackRow[] }) {
  const results = scorerResultsOf(rows);
  if (results.length === 0) return null;
  return (
    <div className="fb-block">
      <h4>Scores</h4>
      <ul className="fb-list" aria-label="Scores">
        {results.map((r) => (
          <li key={r.row.id} className="fb-score">
            <span className="fb-score-name">{r.scorer}</span>
            {r.output !== undefined && <span className="fb-score-value">{scoreText(r.output)}</span>}
            <ScorerChips result={r} />
            <FeedbackMeta row={r.row} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ScorerChips({ result }: { result: ScorerResult }) {
  if (!result.tags.length && !result.ratings.length) return null;
  return (
    <span className="score-chips">
      {result.tags.map((t) => (
        <span key={`t-${t.name}`} className="score-chip" title={why(t.name, t.reason, t.confidence)}>
          {t.name}
        </span>
      ))}
      {result.ratings.map((r) => (
        <span key={`r-${r.name}`} className="score-chip" title={why(`${r.name} ${r.value}`, r.reason, r.confidence)}>
          {r.name === '_rating_' ? 'rating' : r.name} {r.value}
        </span>
      ))}
    </span>
  );
}
