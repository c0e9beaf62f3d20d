/** The project switcher's list: a searchable list of projects with their call counts. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { projectsQueryOptions } from '../features/projects/projectQueries.js';
import { formatCompact } from '../lib/format.js';

/** Keeps the section (calls, threads, ...) when switching, but not its filters. */
function sectionOf(pathname: string): string {
  const part = pathname.split('/')[3];
  return part && part !== 'traces' ? part : 'calls';
}

/** The open switcher's panel; `close` closes the popover. */
export function ProjectMenu({ close }: { close: () => void }) {
  const { data, isPending, error } = useQuery(projectsQueryOptions());
  const [search, setSearch] = useState('');
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const shown = (data ?? []).filter((p) => p.external_project_id.toLowerCase().includes(search.toLowerCase()));
  return (
    <div className="menu project-menu">
      <input
        className="input"
        autoFocus
        placeholder="Find a project"
        aria-label="Find a project"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {isPending && <div className="menu-note muted">Loading projects…</div>}
      {error && <div className="menu-note">Could not load projects: {error.message}</div>}
      <ul className="menu-list">
        {shown.map((p) => (
          <li key={p.external_project_id}>
            <Link className="menu-item" to={`/${p.entity}/${p.project}/${section}`} onClick={close}>
              <span>
                <span className="muted">{p.entity} / </span>
                {p.project}
              </span>
              <span className="muted small">{formatCompact(p.call_count)} calls</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link className="menu-item menu-footer" to="/" onClick={close}>
        All projects…
      </Link>
    </div>
  );
}
