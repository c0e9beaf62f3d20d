/**
 * The projects a caller may see: where they have a role, by entity or by a per-project override
 * (docs/security/roles.md). `/service/projects_info` and the MCP `list_projects` tool list these.
 */
import { canAccessProject, type AuthUser } from '../../auth/authenticate.js';
import type { ProjectSummary } from '../../store/ProjectsStore.js';
import type { Store } from '../../store/Store.js';

/** The projects among `projectIds` (all, when null) where the caller has a role. */
export async function listVisibleProjects(store: Store, user: AuthUser, projectIds: string[] | null = null): Promise<ProjectSummary[]> {
  const wanted = projectIds?.filter((id) => canAccessProject(user, id)) ?? null;
  const projects = await store.projects.listProjects({ entities: visibleEntities(user), projectIds: wanted });
  // A project override alone brings in its entity's listing: keep only where the caller has a role.
  return projects.filter((p) => canAccessProject(user, p.projectId));
}

/** Entities whose projects a listing starts from: the caller's, and those of their per-project roles. */
function visibleEntities(user: AuthUser): 'all' | string[] {
  if (user.isAdmin) return 'all';
  return [...new Set([...user.entities, ...Object.keys(user.projectRoles).map((p) => p.split('/')[0]!)])];
}
