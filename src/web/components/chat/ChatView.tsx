/** A conversation rendered as messages: roles, text, tool calls and tool results. */
import { useState } from 'react';
import { MediaList } from '../media/MediaView.js';
import type { ChatMessage } from './chatModel.js';
import './chat.css';

const CAP = 4000;

/**
 * Conversation view; `ariaLabel` names the list when a page shows several (one per turn);
 * `projectId` lets media kept in the project's files show (docs/media.md).
 */
export function ChatView({
  messages,
  ariaLabel = 'Conversation',
  projectId,
}: {
  messages: ChatMessage[];
  ariaLabel?: string;
  projectId?: string;
}) {
  return (
    <ol className="chat" aria-label={ariaLabel}>
      {messages.map((m, i) => (
        <li key={i} className={`chat-msg role-${m.role}${m.fromOutput ? ' reply' : ''}`}>
          <div className="chat-role">
            {m.role}
            {m.name && <span className="muted"> · {m.name}</span>}
            {m.toolCallId && <span className="muted mono"> · result of {m.toolCallId}</span>}
            {m.fromOutput && <span className="tag">output</span>}
          </div>
          {m.text && <ChatText text={m.text} />}
          {m.media && <MediaList items={m.media} projectId={projectId} />}
          {m.toolCalls.map((tc, j) => (
            <div key={j} className="chat-tool">
              <span className="chat-tool-name">
                → {tc.name}
                {tc.id && <span className="muted mono"> ({tc.id})</span>}
              </span>
              <pre className="mono">{typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments, null, 2)}</pre>
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}

/** Message text, cut at a few thousand characters until asked for the rest. */
function ChatText({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > CAP;
  return (
    <div className="chat-text">
      {cut ? `${text.slice(0, CAP)}…` : text}
      {cut && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          Show all ({text.length.toLocaleString()} characters)
        </button>
      )}
    </div>
  );
}
