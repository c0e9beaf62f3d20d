/**
 * The shell around every signed-in page: a skip link, the top bar (project, theme, user) and
 * project navigation. Below 900 px the navigation folds into a "Menu" button that opens it as
 * a drawer over the page (closed by a choice, Escape or a click outside).
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Fragment, lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router-dom';
import { ColumnOwnerContext } from '../components/table/columnOwner.js';
import { whoamiQueryOptions } from '../features/auth/authQueries.js';
import { dropEarlyPaint } from '../lib/earlyPaint.js';
import { PageLoading } from './PageLoading.js';
import { ProjectSwitcher } from './ProjectSwitcher.js';
import { navigation } from './pages.js';
import { viewTypeOf } from '../features/savedViews/savedViewPages.js';

// Code-split: the links read saved views with the calls filter code, which the first page may not need.
const SavedViewLinks = lazy(() => import('../features/savedViews/SavedViewLinks.js').then((m) => ({ default: m.SavedViewLinks })));
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
  const mainRef = useRef<HTMLElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  // A trace page painted before the app's code (lib/earlyPaint.ts) stays only while a trace is shown.
  useLayoutEffect(() => {
    if (!inTrace) dropEarlyPaint();
  }, [inTrace]);
  // A navigation closes the drawer.
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <div className="app">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // Move the focus (not only the scroll) past the navigation, without a router navigation.
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="topbar">
        {inProject && (
          <button
            type="button"
            className="button ghost menu-button"
            aria-expanded={menuOpen}
            aria-controls="project-sections"
            onClick={() => setMenuOpen((o) => !o)}
          >
            ☰ Menu
          </button>
        )}
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
        {inProject && menuOpen && <div className="sidenav-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
        {inProject && (
          <nav id="project-sections" className={`sidenav${menuOpen ? ' open' : ''}`} aria-label="Project sections">
            {navigation.map((s) => {
              const viewType = viewTypeOf(s.path);
              return (
                <Fragment key={s.path}>
                  <NavLink
                    to={`/${entity}/${project}/${s.path}`}
                    className={({ isActive }) => `sidenav-link${isActive || (inTrace && s.path === 'calls') ? ' active' : ''}`}
                  >
                    <span>{s.label}</span>
                    {s.soon && <span className="soon">soon</span>}
                  </NavLink>
                  {/* Saved views of the page (docs/saved-views.md). */}
                  {viewType && (
                    <Suspense fallback={null}>
                      <SavedViewLinks projectId={`${entity}/${project}`} viewType={viewType} />
                    </Suspense>
                  )}
                </Fragment>
              );
            })}
          </nav>
        )}
        <main className="main" id="main" ref={mainRef} tabIndex={-1}>
          {/* Tables remember their columns per signed-in user (docs/dashboard.md "Columns"). */}
          <ColumnOwnerContext.Provider value={user.username}>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </ColumnOwnerContext.Provider>
        </main>
      </div>
    </div>
  );
}
