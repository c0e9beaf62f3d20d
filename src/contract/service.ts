/** Service endpoints: health, version, server info, projects, geolocation (docs/api/core.md §3.1). */
import { z } from 'zod';
import { ProjectId } from './common.js';

export const Empty = z.object({});

export const HealthRes = z.object({ status: z.literal('ok') });

export const ServerInfoRes = z.object({
  min_required_weave_python_version: z.string(),
  trace_server_version: z.string().nullable(),
});

export const VersionRes = z.object({ version: z.string(), name: z.literal('weft') });

// POST /service/projects_info
export const ProjectsInfoReq = z.object({
  project_ids: z.array(ProjectId).nullish().describe('Projects to look up; absent lists every project the caller may see'),
});
export const ProjectInfo = z.object({
  external_project_id: z.string(),
  internal_project_id: z.string(),
  entity: z.string(),
  project: z.string(),
  call_count: z.number().int(),
  last_activity: z.string().nullable().describe('Start time of the newest call'),
});
export const ProjectsInfoRes = z.array(ProjectInfo);
export type ProjectInfo = z.infer<typeof ProjectInfo>;

// GET /geolocate
export const GeolocateReq = z.object({ ip: z.string().nullish() });
export const GeolocateRes = z.object({
  ip: z.string(),
  location: z
    .object({
      file_index: z.number().int().nullable(),
      range_start_int: z.number().nullable(),
      range_end_int: z.number().nullable(),
      range_start_ip: z.string().nullable(),
      range_end_ip: z.string().nullable(),
      country_code: z.string().nullable(),
      country_name: z.string().nullable(),
    })
    .nullable(),
  allowed: z.boolean(),
  network: z
    .enum(['loopback', 'private', 'link-local', 'public', 'invalid'])
    .describe('What the server can tell offline about the address'),
});
