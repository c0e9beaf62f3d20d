/**
 * Objects data through react-query: a project's objects (latest version per object, with
 * version counts), one object's versions, one version in full, and files (op source).
 * Keys nest by project and object, so a tag or alias change invalidates by prefix.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ObjSchema } from '../../../contract/objects.js';
import { api } from '../../lib/api.js';

/** An object version as the dashboard receives it. */
export type ObjVersion = ObjSchema;

/** One row of the objects list: an object's latest version and how many versions it has. */
export interface ObjectSummary {
  latest: ObjVersion;
  versionCount: number;
}

/** Query keys for objects and files. */
export const objectKeys = {
  all: ['objects'] as const,
  project: (projectId: string) => [...objectKeys.all, projectId] as const,
  list: (projectId: string) => [...objectKeys.project(projectId), 'list'] as const,
  object: (projectId: string, objectId: string) => [...objectKeys.project(projectId), 'object', objectId] as const,
  versions: (projectId: string, objectId: string) => [...objectKeys.object(projectId, objectId), 'versions'] as const,
  version: (projectId: string, objectId: string, version: string) =>
    [...objectKeys.object(projectId, objectId), 'version', version] as const,
  tags: (projectId: string) => [...objectKeys.project(projectId), 'tags'] as const,
  file: (projectId: string, digest: string) => ['files', projectId, digest] as const,
};

/**
 * Groups versions by object: the latest (is_latest, else the highest index) and the count.
 * The server has no per-object count, so the list reads every version's metadata (no values).
 */
export function summarizeObjects(versions: readonly ObjVersion[]): ObjectSummary[] {
  const byId = new Map<string, ObjectSummary>();
  for (const v of versions) {
    const s = byId.get(v.object_id);
    if (!s) byId.set(v.object_id, { latest: v, versionCount: 1 });
    else {
      s.versionCount++;
      if (v.is_latest === 1 || (s.latest.is_latest !== 1 && v.version_index > s.latest.version_index)) s.latest = v;
    }
  }
  return [...byId.values()];
}

/** Every object of a project: latest versions with version counts. */
export function objectsListQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: objectKeys.list(projectId),
    queryFn: async ({ signal }) => summarizeObjects((await api.objsQuery({ project_id: projectId, metadata_only: true }, { signal })).objs),
  });
}

/** An object's versions (metadata, tags and aliases), newest first. */
export function objectVersionsQueryOptions({ projectId, objectId }: { projectId: string; objectId: string }) {
  return queryOptions({
    queryKey: objectKeys.versions(projectId, objectId),
    queryFn: async ({ signal }) => {
      const { objs } = await api.objsQuery({ project_id: projectId, filter: { object_ids: [objectId] }, metadata_only: true }, { signal });
      return objs.sort((a, b) => b.version_index - a.version_index);
    },
  });
}

/** One version with its value; `version` is a digest, `latest`, `v<N>` or an alias. */
export function objectVersionQueryOptions({ projectId, objectId, version }: { projectId: string; objectId: string; version: string }) {
  return queryOptions({
    queryKey: objectKeys.version(projectId, objectId, version),
    queryFn: async ({ signal }) => (await api.objRead({ project_id: projectId, object_id: objectId, digest: version }, { signal })).obj,
  });
}

/** A file's text (op source). Files are content-addressed, so they never go stale. */
export function fileTextQueryOptions({ projectId, digest }: { projectId: string; digest: string }) {
  return queryOptions({
    queryKey: objectKeys.file(projectId, digest),
    queryFn: async ({ signal }) => (await api.fileContent({ project_id: projectId, digest }, { signal })).text(),
    staleTime: Infinity,
  });
}

/** Every tag used in the project (suggestions when tagging). */
export function projectTagsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: objectKeys.tags(projectId),
    queryFn: async ({ signal }) => (await api.tagsList({ project_id: projectId }, { signal })).tags,
  });
}
