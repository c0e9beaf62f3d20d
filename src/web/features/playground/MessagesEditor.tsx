/** The playground's message list: a role and a text per message, add and remove. */
import type { PromptMessage } from './promptModel.js';
import './playground.css';

/** Edits the messages in place. */
export function MessagesEditor({ messages, onChange }: { messages: PromptMessage[]; onChange: (m: PromptMessage[]) => void }) {
  const update = (i: number, patch: Partial<PromptMessage>) => onChange(messages.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  return (
    <div className="playground-messages">
      {messages.map((m, i) => (
        <div key={i} className="playground-message">
          <select
            className="input"
            aria-label={`Role of message ${i + 1}`}
            value={m.role}
            onChange={(e) => update(i, { role: e.target.value as PromptMessage['role'] })}
          >
            <option value="system">system</option>
            <option value="user">user</option>
            <option value="assistant">assistant</option>
          </select>
          <textarea
            className="input"
            aria-label={`Message ${i + 1}`}
            rows={Math.min(10, Math.max(2, m.content.split('\n').length))}
            value={m.content}
            onChange={(e) => update(i, { content: e.target.value })}
          />
          <button
            type="button"
            className="button small"
            aria-label={`Remove message ${i + 1}`}
            onClick={() => onChange(messages.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button small"
        onClick={() => onChange([...messages, { role: messages.at(-1)?.role === 'user' ? 'assistant' : 'user', content: '' }])}
      >
        Add message
      </button>
    </div>
  );
}
