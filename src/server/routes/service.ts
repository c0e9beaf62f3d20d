/** Service endpoints: health, version, server info, projects, geolocation, whoami. */
import { canAccessProject } from '../auth/authenticate.js';
import { formatMicrosOrNull } from '../core/datetime.js';
import { defaultEntityOf } from '../domain/defaultEntity.js';
import { classifyIp } from '../domain/network.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { WEFT_VERSION } from '../version.js';

export const serviceRoutes = defineRoutes({
  health: { handler: async () => ({ status: 'ok' as const }) },

  serverInfo: {
    handler: async () => ({ min_required_weave_python_version: '0.0.1', trace_server_version: WEFT_VERSION }),
  },

  version: { handler: async () => ({ version: WEFT_VERSION, name: 'weft' as const }) },

  projectsInfo: {
    // Lists only what the caller may see, so there is nothing further to check.
    projects: () => [],
    handler: async (req, { store, user }) => {
      const projectIds = req.project_ids?.filter((id) => canAccessProject(user, id)) ?? null;
      const projects = await store.projects.listProjects({
        entities: user.isAdmin ? 'all' : [...user.entities],
        projectIds,
      });
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
    handler: async (req, { remoteIp }) => {
      const { ip, network } = classifyIp(req.ip ?? remoteIp);
      return { ip, location: null, allowed: false, network };
    },
  },

  whoami: {
    projects: () => [],
    handler: async (_req, { store, user }) => {
      const record = await store.accounts.getUser(user.username);
      return {
        username: user.username,
        is_admin: user.isAdmin,
        entities: [...user.entities].sort(),
        default_entity: record ? defaultEntityOf(record) : null,
        auth: user.via,
      };
    },
  },
});
