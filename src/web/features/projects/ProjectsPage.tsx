/** The project picker: every project the user can see, and a way to start a new one. */
import type { QueryClient } from '@tanstack/react-query';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { formatInteger, formatRelative } from '../../lib/format.js';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { projectsQueryOptions } from './projectQueries.js';

/** Prefetches the project list. */
export function projectsLoader(queryClient: QueryClient) {
  return async () => {
    await queryClient.ensureQueryData(projectsQueryOptions());
    return null;
  };
}

/** Projects page (the dashboard's home). */
export function ProjectsPage() {
  const { data: projects } = useSuspenseQuery(projectsQueryOptions());
  return (
    <div className="page narrow">
      <header className="page-header">
        <h1>Projects</h1>
      </header>
      {projects.length === 0 ? (
        <div className="empty-state left">
          <p>
            <strong>No projects yet.</strong> A project appears as soon as something is traced into it. Name one below to see how to send
            its first trace.
          </p>
        </div>
      ) : (
        <table className="simple-table">
          <thead>
            <tr>
              <th>Project</th>
              <th className="num">Calls</th>
              <th>Last activity</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.external_project_id}>
                <td>
                  <Link to={`/${p.entity}/${p.project}/calls`}>
                    <span className="muted">{p.entity} / </span>
                    {p.project}
                  </Link>
                </td>
                <td className="num">{formatInteger(p.call_count)}</td>
                <td title={p.last_activity ?? ''}>{p.last_activity ? formatRelative(p.last_activity) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <OpenProjectForm />
    </div>
  );
}

/** Opens `<entity>/<project>`, existing or not: a new project shows how to send its first trace. */
function OpenProjectForm() {
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const navigate = useNavigate();
  const [entity, setEntity] = useState(user.entities[0] ?? '');
  const [project, setProject] = useState('');
  const valid = /^[^/\s]+$/.test(entity) && /^[^/\s]+$/.test(project);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid) void navigate(`/${encodeURIComponent(entity)}/${encodeURIComponent(project)}/calls`);
  };
  return (
    <form className="card inline-form" onSubmit={submit}>
      <h2>Open or start a project</h2>
      <div className="row">
        {user.is_admin || user.entities.length === 0 ? (
          <input
            className="input"
            aria-label="Entity"
            placeholder="entity"
            list="weft-entities"
            value={entity}
            onChange={(e) => setEntity(e.target.value)}
          />
        ) : (
          <select className="input" aria-label="Entity" value={entity} onChange={(e) => setEntity(e.target.value)}>
            {user.entities.map((e) => (
              <option key={e}>{e}</option>
            ))}
          </select>
        )}
        <datalist id="weft-entities">
          {user.entities.map((e) => (
            <option key={e} value={e} />
          ))}
        </datalist>
        <span className="muted">/</span>
        <input
          className="input"
          aria-label="Project name"
          placeholder="project"
          value={project}
          onChange={(e) => setProject(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={!valid}>
          Open
        </button>
      </div>
    </form>
  );
}
