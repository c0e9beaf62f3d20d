/** A project with no calls yet: how to send its first trace, with this server and project filled in. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../../components/ui/CopyButton.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { buildSnippets } from './snippets.js';
import './gettingStarted.css';

/** Empty-state guide for `<entity>/<project>`. */
export function GettingStarted({ entity, project }: { entity: string; project: string }) {
  const { data: user } = useQuery(whoamiQueryOptions());
  const snippets = buildSnippets({
    origin: window.location.origin,
    projectId: `${entity}/${project}`,
    username: user?.username ?? 'admin',
  });
  const [active, setActive] = useState(snippets[0]!.id);
  const current = snippets.find((s) => s.id === active) ?? snippets[0]!;

  return (
    <section className="getting-started" aria-labelledby="gs-title">
      <h2 id="gs-title">
        Send the first trace to {entity}/{project}
      </h2>
      <p className="muted">
        This project has no calls yet. Weft speaks the Weave trace server API, so the official Weave SDKs and any OpenTelemetry exporter log
        to it unchanged. Calls appear here as soon as they arrive.
      </p>
      <div className="gs-tabs" role="tablist" aria-label="How to send traces">
        {snippets.map((s) => (
          <button
            key={s.id}
            type="button"
            role="tab"
            id={`gs-tab-${s.id}`}
            aria-selected={s.id === active}
            aria-controls="gs-panel"
            className="gs-tab"
            onClick={() => setActive(s.id)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div className="gs-tab-panel" role="tabpanel" id="gs-panel" aria-labelledby={`gs-tab-${current.id}`}>
        <p>{withCode(current.intro)}</p>
        <div className="code-block">
          <div className="code-actions">
            <CopyButton text={current.code} />
          </div>
          <pre>
            <code>{current.code}</code>
          </pre>
        </div>
      </div>
    </section>
  );
}

/** Renders `backticked` parts of a sentence as code. */
function withCode(text: string) {
  return text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}
