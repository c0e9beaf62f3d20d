/**
 * The chosen fields of the call under review: a list of chat messages (or a chat reply) reads
 * as a conversation, text as text, a small record of plain values as labelled text, anything
 * else in the JSON viewer.
 */
import { ChatView } from '../../../components/chat/ChatView.js';
import { JsonViewer } from '../../../components/json/JsonViewer.js';
import { readPath, type Call } from '../../../entities/calls/callFields.js';
import { chatOf, isFlatRecord } from './fieldChat.js';
import './review.css';

/** The fields, one section each. */
export function CallFields({ call, paths }: { call: Call; paths: string[] }) {
  return (
    <div className="call-fields">
      {paths.map((path) => (
        <CallField key={path} path={path} value={readPath(call, path)} />
      ))}
    </div>
  );
}

/** One field under its path. */
function CallField({ path, value }: { path: string; value: unknown }) {
  const chat = chatOf(value);
  return (
    <section className="call-field" aria-label={path}>
      <h3 className="call-field-path mono">{path}</h3>
      {value === undefined ? (
        <p className="muted small">This call has no {path}.</p>
      ) : chat ? (
        <ChatView messages={chat} ariaLabel={`${path} conversation`} />
      ) : typeof value === 'string' ? (
        <div className="field-text">{value}</div>
      ) : typeof value === 'number' || typeof value === 'boolean' || value === null ? (
        <div className="field-text mono">{JSON.stringify(value)}</div>
      ) : isFlatRecord(value) ? (
        <dl className="field-record">
          {Object.entries(value).map(([k, v]) => (
            <div key={k}>
              <dt className="mono">{k}</dt>
              <dd className={typeof v === 'string' ? 'field-text' : 'field-text mono'}>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <JsonViewer value={value} ariaLabel={path} maxHeight={520} />
      )}
    </section>
  );
}
