/**
 * Thumbs up and down, any other reactions the call has, and a picker of common emojis. A
 * button shows how many gave that reaction (who and when on hover) and is pressed when the
 * viewer gave it; pressing it again takes the viewer's reaction back.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Popover } from '../../components/ui/Popover.js';
import { ReactionIcon } from '../../components/ui/ReactionIcon.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { describeAuthors } from './FeedbackMeta.js';
import {
  groupReactions,
  PICKER_EMOJIS,
  REACTION_TYPE,
  THUMBS_DOWN,
  THUMBS_UP,
  type ReactionGroup,
} from '../../entities/feedback/feedbackModel.js';
import { callFeedbackQueryOptions, useFeedbackMutations } from '../../entities/feedback/feedbackQueries.js';
import { MutationError } from '../../components/ui/MutationError.js';
import { useCan } from '../auth/useCan.js';
import './feedback.css';

const NAMES: Record<string, string> = { [THUMBS_UP]: 'Thumbs up', [THUMBS_DOWN]: 'Thumbs down' };

/** Reaction buttons for one call. */
export function ReactionBar({ projectId, callId }: { projectId: string; callId: string }) {
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const { data: rows } = useQuery(callFeedbackQueryOptions({ projectId, callId }));
  const { create, remove } = useFeedbackMutations({ projectId, callId });
  const groups = groupReactions(rows ?? [], user.username);
  const byEmoji = new Map(groups.map((g) => [g.emoji, g]));
  const can = useCan(projectId);
  const give = can('feedbackCreate');
  const takeBack = can('feedbackPurge');
  const busy = create.isPending || remove.isPending || rows === undefined;

  const toggle = (emoji: string) => {
    const mine = byEmoji.get(emoji)?.mine;
    if (mine) remove.mutate(mine.id);
    else create.mutate({ feedback_type: REACTION_TYPE, payload: { emoji } });
  };
  const shown: ReactionGroup[] = [
    byEmoji.get(THUMBS_UP) ?? { emoji: THUMBS_UP, rows: [], mine: null },
    byEmoji.get(THUMBS_DOWN) ?? { emoji: THUMBS_DOWN, rows: [], mine: null },
    ...groups.filter((g) => g.emoji !== THUMBS_UP && g.emoji !== THUMBS_DOWN),
  ];

  return (
    <div className="fb-reactions" role="group" aria-label="Reactions">
      {shown.map((g) => {
        const name = NAMES[g.emoji] ?? g.emoji;
        return (
          <button
            key={g.emoji}
            type="button"
            className="fb-chip"
            aria-pressed={g.mine !== null}
            aria-label={`${name}${g.rows.length ? ` (${g.rows.length})` : ''}`}
            title={
              (g.mine ? takeBack : give).reason ??
              (g.rows.length ? `${name}: ${describeAuthors(g.rows)}` : `React with ${name.toLowerCase()}`)
            }
            disabled={busy || !(g.mine ? takeBack : give).allowed}
            onClick={() => toggle(g.emoji)}
          >
            <ReactionIcon emoji={g.emoji} />
            {g.rows.length > 0 && <span className="fb-count">{g.rows.length}</span>}
          </button>
        );
      })}
      {give.allowed && (
        <Popover label={<span aria-hidden="true">☺+</span>} ariaLabel="Add a reaction" className="fb-chip fb-add">
          {(close) => (
            <div className="fb-picker" role="group" aria-label="Pick a reaction">
              {PICKER_EMOJIS.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  className="fb-pick"
                  aria-label={`React with ${emoji}`}
                  aria-pressed={byEmoji.get(emoji)?.mine ? true : false}
                  disabled={busy}
                  onClick={() => {
                    toggle(emoji);
                    close();
                  }}
                >
                  <ReactionIcon emoji={emoji} size={18} />
                </button>
              ))}
            </div>
          )}
        </Popover>
      )}
      <MutationError mutations={[create, remove]} />
    </div>
  );
}
