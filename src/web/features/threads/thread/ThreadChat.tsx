/**
 * The thread read as a conversation: one block per turn (what it added to the chat, its status,
 * latency and a link to its trace). The selected turn is outlined and scrolled into view; a click
 * on a block selects its turn.
 */
import { memo, useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { ChatView } from '../../../components/chat/ChatView.js';
import type { ChatMessage } from '../../../components/chat/chatModel.js';
import { StatusBadge } from '../../../components/ui/StatusBadge.js';
import { formatDateTime, formatDuration } from '../../../lib/format.js';
import { callLatencyMs, callName, callStatus, type Call } from '../../../entities/calls/callFields.js';
// Its classes live with the thread pages' styles; review shows it on pages that load none of them.
import '../threads.css';

/** Props of ThreadChat. */
export interface ThreadChatProps {
  turns: Call[];
  /** Per turn, the messages it added (threadConversation). */
  conversation: ChatMessage[][];
  selectedId: string | null;
  onSelect: (id: string) => void;
  traceHref: (turn: Call) => string;
}

/** Conversation panel. */
export function ThreadChat({ turns, conversation, selectedId, onSelect, traceHref }: ThreadChatProps) {
  const scrollRef = useRef<HTMLElement>(null);

  // Bring the selected turn's start to the top of the panel (only the panel scrolls, not the page).
  useEffect(() => {
    const panel = scrollRef.current;
    const block = selectedId ? panel?.querySelector<HTMLElement>(`[data-turn-id="${CSS.escape(selectedId)}"]`) : null;
    if (!panel || !block) return;
    panel.scrollTop += block.getBoundingClientRect().top - panel.getBoundingClientRect().top - 8;
  }, [selectedId]);

  return (
    <section ref={scrollRef} className="thread-chat" aria-label="Conversation">
      {turns.map((turn, index) => (
        <TurnBlock
          key={turn.id}
          turn={turn}
          index={index}
          messages={conversation[index] ?? []}
          selected={turn.id === selectedId}
          onSelect={onSelect}
          href={traceHref(turn)}
        />
      ))}
    </section>
  );
}

interface TurnBlockProps {
  turn: Call;
  index: number;
  messages: ChatMessage[];
  selected: boolean;
  onSelect: (id: string) => void;
  href: string;
}

/** One turn's part of the conversation; memoized so moving the selection redraws two blocks. */
const TurnBlock = memo(function TurnBlock({ turn, index, messages, selected, onSelect, href }: TurnBlockProps) {
  const status = callStatus(turn);
  const latency = callLatencyMs(turn);
  return (
    <article
      data-turn-id={turn.id}
      className={`turn-block${selected ? ' selected' : ''}`}
      aria-label={`Turn ${index + 1}`}
      aria-current={selected || undefined}
      onClick={(e) => {
        // Links, buttons and text being selected keep their own meaning.
        if ((e.target as HTMLElement).closest('a,button') || window.getSelection()?.toString()) return;
        onSelect(turn.id);
      }}
    >
      <header className="turn-block-head">
        <strong>Turn {index + 1}</strong>
        <span className="muted" title={turn.op_name}>
          {callName(turn)}
        </span>
        <span className="muted">{formatDateTime(turn.started_at)}</span>
        <span className="num">{latency === null ? 'running' : formatDuration(latency)}</span>
        <StatusBadge status={status} />
        <span className="spacer" />
        <Link to={href} className="small">
          Open trace →
        </Link>
      </header>
      {messages.length > 0 ? (
        <ChatView messages={messages} ariaLabel={`Turn ${index + 1} messages`} projectId={turn.project_id} />
      ) : (
        <p className="muted small">
          {latency === null ? 'No reply yet: this turn is still running.' : 'This turn has no inputs or output to show.'}
        </p>
      )}
      {turn.exception && <TurnException text={turn.exception} />}
    </article>
  );
});

/** A turn's exception: its last line (the error itself), the traceback on demand. */
function TurnException({ text }: { text: string }) {
  const lines = text.trim().split('\n');
  const last = lines.at(-1)!.trim();
  if (lines.length === 1) return <p className="turn-exception">{last}</p>;
  return (
    <details className="turn-exception">
      <summary>{last}</summary>
      <pre>{text}</pre>
    </details>
  );
}
