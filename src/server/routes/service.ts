/** Service endpoints: health, version, server info, projects, geolocation, whoami. */
import type { AuthUser } from '../auth/authenticate.js';
import { formatMicrosOrNull } from '../core/datetime.js';
import { whoamiOf } from '../domain/accounts/accounts.js';
import { listVisibleProjects } from '../domain/accounts/visibleProjects.js';
import { classifyIp } from '../domain/llm/network.js';
import { defineRoutes } from '../http/defineRoutes.js';
import type { InferenceServices } from '../providers/InferenceServices.js';
import type { Store } from '../store/Store.js';
import { WEFT_VERSION } from '../version.js';

export const serviceRoutes = defineRoutes({
  health: { runs: 'main', handler: async () => ({ status: 'ok' as const }) },

  serverInfo: {
    runs: 'read',
    handler: async () => ({ min_required_weave_python_version: '0.0.1', trace_server_version: WEFT_VERSION }),
  },

  version: { runs: 'read', handler: async () => ({ version: WEFT_VERSION, name: 'weft' as const }) },

  projectsInfo: {
    runs: 'read',
    // Lists only what the caller may see, so there is nothing further to check.
    projects: () => [],
    handler: async (req, { store, user }) => {
      const projects = await listVisibleProjects(store, user, req.project_ids ?? null);
      return projects.map((p) => {
        const [entity, project] = p.projectId.split('/') as [string, string];
        return {
          external_project_id: p.projectId,
          internal_project_id: p.projectId,
          entity,
          project,
          call_count: p.callCount,
          last_activity: formatMicrosOrNull(p.lastActivity),
        };
      });
    },
  },

  geolocate: {
    runs: 'main',
    // `allowed` says whether inference may be used: true once any model provider is configured
    // (instance-wide, or for one of the caller's projects); Weft has no geo-IP database to say more.
    handler: async (req, { remoteIp, inference, store, user }) => {
      const { ip, network } = classifyIp(req.ip ?? remoteIp);
      return { ip, location: null, allowed: await inferenceConfigured(inference, store, user), network };
    },
  },

  whoami: {
    // On the main thread, beside the credential check it reports: every dashboard page waits for
    // it, and on a read thread it queued behind the user's own long reads (docs/request-threads.md).
    runs: 'main',
    projects: () => [],
    handler: async (_req, { store, user }) => {
      return whoamiOf(user, await store.accounts.getUser(user.username), user.via);
    },
  },
});

/** Whether any provider serves the caller: an instance-wide one, or one of a project in the caller's entities. */
async function inferenceConfigured(inference: InferenceServices, store: Store, user: AuthUser): Promise<boolean> {
  if (inference.registry.hasInstanceProvider()) return true;
  if (await store.providers.anyProvider(user.isAdmin ? 'all' : [...user.entities])) return true;
  // Projects the caller reaches only through a per-project role: those projects, not their entities.
  for (const projectId of Object.keys(user.projectRoles)) {
    if (!user.entities.has(projectId.split('/')[0]!) && (await store.providers.listProviders(projectId)).length > 0) return true;
  }
  return false;
}
