/**
 * One leaderboard (`/:entity/:project/leaderboards/:name`): models as rows, one column per
 * leaderboard column, each cell the newest run's metric linking to that run; a click on a
 * column header sorts by it, best first, then worst first (docs/leaderboards.md).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { parseRef, refHref, shortDigest } from '../../lib/refs.js';
import { useCan } from '../auth/useCan.js';
import { LeaderboardEditor } from './LeaderboardEditor.js';
import { fromLeaderboardValue, leaderboardRows, sortRows } from './leaderboardModel.js';
import { leaderboardQueryOptions, leaderboardRunsQueryOptions } from './leaderboardQueries.js';
import './leaderboards.css';

function cellText(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  if (value === null || value === undefined) return '–';
  return String(value);
}

export function LeaderboardPage() {
  const { entity = '', project = '', name = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const board = useQuery(leaderboardQueryOptions(projectId, name));
  const form = board.data ? fromLeaderboardValue(board.data.name, board.data.val) : null;
  const evaluations = [...new Set(form?.columns.map((c) => c.evaluation) ?? [])];
  const runs = useQuery({ ...leaderboardRunsQueryOptions(projectId, evaluations), enabled: !!form });
  const [sort, setSort] = useState<{ column: number; bestFirst: boolean }>({ column: 0, bestFirst: true });
  const [editing, setEditing] = useState(false);
  const save = useCan(projectId)('objCreate');

  if (board.error) return <ErrorState error={board.error} />;
  if (!board.data || !form) return <Spinner showLabel label="Loading leaderboard" />;
  const rows = runs.data ? leaderboardRows(form.columns, runs.data) : [];
  const sorted = form.columns.length ? sortRows(rows, sort.column, form.columns[sort.column]?.minimize ?? null, sort.bestFirst) : rows;

  return (
    <div className="page">
      <header className="page-header">
        <h1>
          <Link to={`/${projectId}/leaderboards`}>Leaderboards</Link> / <span className="mono">{board.data.name}</span>
        </h1>
        <div className="spacer" />
        <Link className="button" to={`/${projectId}/objects/${encodeURIComponent(board.data.name)}`}>
          v{board.data.version - 1}
        </Link>
        <button type="button" className="button" disabled={!save.allowed} title={save.reason ?? undefined} onClick={() => setEditing(true)}>
          Edit
        </button>
      </header>
      {form.description && <p className="muted">{form.description}</p>}
      <section className="card">
        {!runs.data ? (
          <Spinner showLabel label="Loading runs" />
        ) : rows.length === 0 ? (
          <p className="muted">No runs of these evaluations yet.</p>
        ) : (
          <table className="simple-table leaderboard-table" aria-label={`Leaderboard ${board.data.name}`}>
            <thead>
              <tr>
                <th>Model</th>
                {form.columns.map((c, i) => {
                  const active = sort.column === i;
                  const evaluation = parseRef(c.evaluation);
                  return (
                    <th
                      key={i}
                      className="num"
                      aria-sort={active ? ((c.minimize === true) === sort.bestFirst ? 'ascending' : 'descending') : 'none'}
                    >
                      <button
                        type="button"
                        className="leaderboard-sort"
                        onClick={() => setSort({ column: i, bestFirst: active ? !sort.bestFirst : true })}
                      >
                        <span className="leaderboard-eval">{evaluation && 'name' in evaluation ? evaluation.name : c.evaluation}</span>
                        <span>
                          {c.scorer} · {c.metricPath} {c.minimize ? '↓' : '↑'}
                        </span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {sorted.map((r) => {
                const model = parseRef(r.model);
                return (
                  <tr key={r.model}>
                    <td>
                      {model && model.kind !== 'call' && model.kind !== 'table' ? (
                        <Link className="mono" to={refHref(model)}>
                          {model.name}:{shortDigest(model.digest)}
                        </Link>
                      ) : (
                        <span className="mono">{r.model}</span>
                      )}
                    </td>
                    {r.cells.map((cell, i) => (
                      <td key={i} className="num">
                        {cell ? (
                          <Link to={`/${projectId}/evaluations/runs/${encodeURIComponent(cell.runId)}`}>{cellText(cell.value)}</Link>
                        ) : (
                          <span className="muted">–</span>
                        )}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {editing && (
        <LeaderboardEditor
          projectId={projectId}
          initial={form}
          previous={board.data.val}
          onClose={() => setEditing(false)}
          onSaved={() => setEditing(false)}
        />
      )}
    </div>
  );
}
