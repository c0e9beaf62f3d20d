/**
 * One prompt (`/:entity/:project/prompts/:objectId?v=<digest>&vs=<digest>`): its versions with
 * their aliases (`production`, …, editable), the chosen version's messages and variables, a line
 * diff against another version, the calls whose inputs name that version, and "Open in
 * playground" to run and edit it there (docs/prompts.md).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatRelative } from '../../lib/format.js';
import { objectRef } from '../../lib/refs.js';
import { objectVersionQueryOptions, objectVersionsQueryOptions } from '../objects/objectQueries.js';
import { LabelEditor } from '../objects/versions/LabelEditor.js';
import { diffLines, foldUnchanged } from '../objects/versions/lineDiff.js';
import { promptMessages, promptText, promptVariables } from './promptModel.js';
import { promptCallsQueryOptions } from './promptQueries.js';
import './prompts.css';

export function PromptPage() {
  const { entity = '', project = '', objectId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const versions = useQuery(objectVersionsQueryOptions({ projectId, objectId }));
  const chosen = params.get('v') ?? versions.data?.[0]?.digest ?? null;
  const against = params.get('vs');
  const version = useQuery({
    ...objectVersionQueryOptions({ projectId, objectId, version: chosen ?? 'latest' }),
    enabled: chosen !== null,
  });
  const base = useQuery({ ...objectVersionQueryOptions({ projectId, objectId, version: against ?? 'latest' }), enabled: against !== null });
  const ref = chosen ? objectRef({ projectId, kind: 'object', name: objectId, digest: chosen }) : null;
  const calls = useQuery({ ...promptCallsQueryOptions(projectId, ref ?? ''), enabled: ref !== null });
  const diff = useMemo(() => {
    if (!against || !base.data || !version.data) return null;
    const lines = diffLines(promptText(base.data.val), promptText(version.data.val));
    return lines && foldUnchanged(lines);
  }, [against, base.data, version.data]);
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  if (versions.error) return <ErrorState error={versions.error} />;
  if (!versions.data) return <Spinner showLabel label="Loading prompt" />;
  const current = versions.data.find((v) => v.digest === chosen);

  return (
    <div className="page">
      <header className="page-header">
        <h1>
          <Link to={`/${projectId}/prompts`}>Prompts</Link> / <span className="mono">{objectId}</span>
        </h1>
      </header>
      <div className="prompt-layout">
        <section className="card" aria-label="Versions">
          <table className="simple-table" aria-label="Prompt versions">
            <thead>
              <tr>
                <th>Version</th>
                <th>Aliases</th>
                <th>Saved</th>
              </tr>
            </thead>
            <tbody>
              {versions.data.map((v) => (
                <tr key={v.digest} className={v.digest === chosen ? 'prompt-version-current' : undefined}>
                  <td>
                    <button
                      type="button"
                      className="button ghost small"
                      aria-pressed={v.digest === chosen}
                      onClick={() => set('v', v.digest)}
                    >
                      v{v.version_index}
                    </button>
                  </td>
                  <td>{v.digest === chosen ? <LabelEditor kind="alias" version={v} /> : v.aliases.join(', ')}</td>
                  <td className="muted">{formatRelative(v.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="card" aria-label="Prompt">
          {!version.data ? (
            <Spinner label="Loading version" />
          ) : (
            <>
              <div className="row prompt-version-head">
                <h2>
                  v{current?.version_index} <span className="muted small">{version.data.leaf_object_class}</span>
                </h2>
                <Link
                  className="button small"
                  to={`/${projectId}/playground?${new URLSearchParams({ prompt: objectId, v: version.data.digest }).toString()}`}
                >
                  Open in playground
                </Link>
              </div>
              <p>
                Variables:{' '}
                <span className="mono" aria-label="Variables">
                  {promptVariables(version.data.val).join(', ') || 'none'}
                </span>
              </p>
              <div className="prompt-messages">
                {promptMessages(version.data.val).map((m, i) => (
                  <div key={i} className="prompt-message">
                    {m.role && <div className="prompt-role">{m.role}</div>}
                    <pre className="prompt-content">{m.content}</pre>
                  </div>
                ))}
              </div>
              <label className="field">
                <span>Compare with</span>
                <select className="input" value={against ?? ''} onChange={(e) => set('vs', e.target.value || null)}>
                  <option value="">No comparison</option>
                  {versions.data
                    .filter((v) => v.digest !== chosen)
                    .map((v) => (
                      <option key={v.digest} value={v.digest}>
                        v{v.version_index}
                      </option>
                    ))}
                </select>
              </label>
              {against &&
                (diff === null ? (
                  <Spinner label="Comparing" />
                ) : (
                  <pre className="prompt-diff" aria-label="Changes">
                    {diff.map((line, k) =>
                      line.kind === 'fold' ? (
                        <div key={k} className="muted">
                          ⋯ {line.count} unchanged lines
                        </div>
                      ) : (
                        <div key={k} className={`prompt-diff-${line.kind}`}>
                          {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '− ' : '  '}
                          {line.text}
                        </div>
                      ),
                    )}
                  </pre>
                ))}
            </>
          )}
        </section>
        <section className="card" aria-label="Calls using this version">
          <h2>Calls using this version</h2>
          {!calls.data ? (
            <Spinner label="Loading calls" />
          ) : calls.data.length === 0 ? (
            <p className="muted">No call names this version in its inputs.</p>
          ) : (
            <ul className="prompt-calls">
              {calls.data.map((c) => (
                <li key={c.id}>
                  <Link to={`/${projectId}/calls/${encodeURIComponent(c.id)}`}>{c.display_name ?? c.op_name.split('/').pop()}</Link>{' '}
                  <span className="muted">{formatRelative(c.started_at)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
