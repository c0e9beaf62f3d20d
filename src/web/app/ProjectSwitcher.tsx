/**
 * The current project in the top bar; opens a searchable list of the other projects. The list
 * (its code and the projects with their call counts) is fetched when a pointer or the focus
 * comes to the button, not with every page: most page loads never open it, and counting every
 * project's calls competed with the page's own first requests.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Popover } from '../components/ui/Popover.js';
import { projectsQueryOptions } from '../features/projects/projectQueries.js';
import { deferComponent, useDeferred } from '../lib/deferredComponent.js';

const ProjectMenu = deferComponent(
  () => import('./ProjectMenu.js'),
  (m) => m.ProjectMenu,
);

/** Project switcher. */
export function ProjectSwitcher({ entity, project }: { entity: string; project: string }) {
  const queryClient = useQueryClient();
  const warm = () => {
    ProjectMenu.load().catch(() => undefined);
    void queryClient.prefetchQuery(projectsQueryOptions());
  };
  return (
    <span className="project-switcher" onPointerOver={warm} onFocus={warm}>
      <Popover
        ariaLabel={`Project ${entity}/${project}, switch project`}
        className="button ghost project-button"
        label={
          <>
            <span className="muted">{entity} /</span> <strong>{project}</strong> <span aria-hidden="true">▾</span>
          </>
        }
      >
        {(close) => <Menu close={close} />}
      </Popover>
    </span>
  );
}

/** The list once its code is in. */
function Menu({ close }: { close: () => void }) {
  const { Component, error } = useDeferred(ProjectMenu);
  if (Component) return <Component close={close} />;
  return (
    <div className="menu project-menu">
      <div className="menu-note muted">{error ? 'Could not load the project list: reload the page.' : 'Loading projects…'}</div>
    </div>
  );
}
