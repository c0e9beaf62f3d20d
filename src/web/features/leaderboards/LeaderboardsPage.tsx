/**
 * Leaderboards (`/:entity/:project/leaderboards`): the project's `Leaderboard` objects, as the
 * SDKs publish them or as made here (docs/leaderboards.md). "New leaderboard" saves the first
 * version and opens it.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ListTable } from '../../components/table/ListTable.js';
import { formatRelative } from '../../lib/format.js';
import { useCan } from '../auth/useCan.js';
import { LeaderboardEditor } from './LeaderboardEditor.js';
import { fromLeaderboardValue } from './leaderboardModel.js';
import { leaderboardsQueryOptions } from './leaderboardQueries.js';
import './leaderboards.css';

export function LeaderboardsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const boards = useQuery(leaderboardsQueryOptions(projectId));
  const save = useCan(projectId)('objCreate');
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  return (
    <div className="page">
      <header className="page-header">
        <h1>Leaderboards</h1>
        <div className="spacer" />
        <button
          type="button"
          className="button primary"
          disabled={!save.allowed}
          title={save.reason ?? undefined}
          onClick={() => setCreating(true)}
        >
          New leaderboard
        </button>
      </header>
      <section className="card" aria-label="Leaderboards">
        <p className="muted small">
          A leaderboard compares models on chosen metrics of their <Link to={`/${projectId}/evaluations`}>evaluation runs</Link>: one row
          per model, one column per evaluation, scorer and metric.
        </p>
        <ListTable
          items={boards.data}
          pending={boards.isPending}
          noun="leaderboards"
          label="Leaderboard list"
          head={
            <>
              <th>Name</th>
              <th>Description</th>
              <th className="num">Columns</th>
              <th>Version</th>
              <th>Saved</th>
            </>
          }
          row={(b) => (
            <tr key={b.name}>
              <td>
                <Link className="mono" to={`/${projectId}/leaderboards/${encodeURIComponent(b.name)}`}>
                  {b.name}
                </Link>
              </td>
              <td>{fromLeaderboardValue(b.name, b.val).description}</td>
              <td className="num">{fromLeaderboardValue(b.name, b.val).columns.length}</td>
              <td>v{b.version - 1}</td>
              <td className="muted">{formatRelative(b.createdAt)}</td>
            </tr>
          )}
        />
      </section>
      {creating && (
        <LeaderboardEditor
          projectId={projectId}
          initial={{ name: '', description: '', columns: [] }}
          previous={null}
          onClose={() => setCreating(false)}
          onSaved={(name) => void navigate(`/${projectId}/leaderboards/${encodeURIComponent(name)}`)}
        />
      )}
    </div>
  );
}
