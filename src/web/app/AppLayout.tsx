/** The shell around every signed-in page: top bar (project, theme, user) and project navigation. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router-dom';
import { Spinner } from '../components/ui/Spinner.js';
import { whoamiQueryOptions } from '../features/auth/authQueries.js';
import { ProjectSwitcher } from './ProjectSwitcher.js';
import { sections } from './sections.js';
import { ThemeToggle } from './ThemeToggle.js';
import { UserMenu } from './UserMenu.js';

/** Layout route element. */
export function AppLayout() {
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const { entity, project } = useParams();
  const { pathname } = useLocation();
  // A trace is opened from Calls, so Calls stays highlighted there.
  const inTrace = pathname.split('/')[3] === 'traces';
  const inProject = entity !== undefined && project !== undefined;

  return (
    <div className="app">
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Weft home">
          <img src="/favicon.svg" alt="" width={20} height={20} />
          <span>Weft</span>
        </Link>
        {inProject && <ProjectSwitcher entity={entity} project={project} />}
        <div className="spacer" />
        <ThemeToggle />
        <UserMenu user={user} />
      </header>
      <div className="app-body">
        {inProject && (
          <nav className="sidenav" aria-label="Project sections">
            {sections.map((s) => (
              <NavLink
                key={s.path}
                to={`/${entity}/${project}/${s.path}`}
                className={({ isActive }) => `sidenav-link${isActive || (inTrace && s.path === 'calls') ? ' active' : ''}`}
              >
                <span>{s.label}</span>
                {!s.ready && <span className="soon">soon</span>}
              </NavLink>
            ))}
          </nav>
        )}
        <main className="main">
          <Suspense
            fallback={
              <div className="page-loading">
                <Spinner showLabel />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
