/**
 * The audit log (docs/security/audit.md): who did what, newest first, with filters, paging and
 * CSV / JSON-lines downloads of everything the filters match. Global admins see every row,
 * entity admins their entities' rows; the server decides which.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { formatDateTime } from '../../lib/format.js';
import { auditExportUrl, auditPageQueryOptions, type AuditFilter } from './auditQueries.js';
import './settings.css';

const FIELDS: { key: keyof AuditFilter; label: string; placeholder: string; type?: string }[] = [
  { key: 'actor', label: 'Actor', placeholder: 'user or key id' },
  { key: 'entity', label: 'Entity', placeholder: 'acme' },
  { key: 'project_id', label: 'Project', placeholder: 'acme/support' },
  { key: 'since', label: 'Since', placeholder: '', type: 'datetime-local' },
  { key: 'until', label: 'Until', placeholder: '', type: 'datetime-local' },
];

/** `datetime-local` gives local wall time; the API takes ISO 8601 with an offset. */
const toIso = (local: string | undefined): string | undefined => (local ? new Date(local).toISOString() : undefined);

/** The audit log card. */
export function AuditLogSection() {
  const [draft, setDraft] = useState<AuditFilter>({});
  const [filter, setFilter] = useState<AuditFilter>({});
  // The cursors of the pages before this one, so "Newer" can go back.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors.at(-1) ?? null;
  const { data, error, isFetching, refetch } = useQuery(auditPageQueryOptions(filter, cursor));

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter({ ...draft, since: toIso(draft.since), until: toIso(draft.until) });
    setCursors([null]);
  };

  return (
    <section className="card settings-section" id="audit-log" aria-labelledby="audit-log-title">
      <h2 id="audit-log-title">Audit log</h2>
      <p className="muted">
        Sign-ins, keys, users, deletes, exports, provider changes and jobs started, newest first. Rows cannot be changed or deleted; check
        their hash chain with <code>npx weft audit verify</code>.
      </p>
      <form className="settings-grid-form" onSubmit={apply} aria-label="Audit log filters">
        {FIELDS.map((f) => (
          <label key={f.key}>
            {f.label}
            <input
              className="input"
              type={f.type ?? 'text'}
              placeholder={f.placeholder}
              value={draft[f.key] ?? ''}
              onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
            />
          </label>
        ))}
        <label>
          Action
          <select className="input" value={draft.action ?? ''} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
            <option value="">Any</option>
            {(data?.actions ?? []).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button primary">
          Filter
        </button>
      </form>
      <div className="audit-toolbar">
        <a className="button small" href={auditExportUrl(filter, 'csv')} download>
          Export CSV
        </a>
        <a className="button small" href={auditExportUrl(filter, 'jsonl')} download>
          Export JSONL
        </a>
        <span className="muted">{isFetching ? 'Loading…' : null}</span>
      </div>
      {error ? (
        <ErrorState error={error} onRetry={() => void refetch()} compact />
      ) : (
        <div className="settings-table-wrap">
          <table className="simple-table" aria-label="Audit log">
            <thead>
              <tr>
                <th>Time</th>
                <th>Actor</th>
                <th>Action</th>
                <th>Target</th>
                <th>Outcome</th>
                <th>Address</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {(data?.rows ?? []).map((r) => (
                <tr key={r.id} className={r.outcome === 'success' ? undefined : 'inactive'}>
                  <td title={r.id}>{formatDateTime(r.time)}</td>
                  <td>
                    {r.actor_username ?? '—'}
                    <span className="muted">
                      {' '}
                      {r.actor_via}
                      {r.actor_key_id ? ` ${r.actor_key_id}` : ''}
                    </span>
                  </td>
                  <td className="mono">{r.action}</td>
                  <td className="mono">{r.target}</td>
                  <td>{r.outcome}</td>
                  <td className="mono">{r.address || '—'}</td>
                  <td className="mono audit-details">{Object.keys(r.details).length ? JSON.stringify(r.details) : ''}</td>
                </tr>
              ))}
              {data && data.rows.length === 0 && (
                <tr>
                  <td colSpan={7} className="muted">
                    No rows match.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <div className="audit-toolbar">
        <button type="button" className="button small" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          className="button small"
          disabled={!data?.next_cursor}
          onClick={() => data?.next_cursor && setCursors([...cursors, data.next_cursor])}
        >
          Older
        </button>
      </div>
    </section>
  );
}
