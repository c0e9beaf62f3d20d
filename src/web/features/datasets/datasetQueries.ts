/**
 * Dataset data through react-query (docs/datasets.md "Dataset page"): the project's datasets
 * with version and row counts, and every row of a version (for the diff and exports). A
 * dataset's versions and values are the objects feature's queries, and its rows pages the
 * tables feature's, so a save invalidates those by prefix.
 */
import { queryOptions } from '@tanstack/react-query';
import { datasetTableDigest } from '../../../client/datasetVersions.js';
import { api } from '../../lib/api.js';
import { summarizeObjects, type ObjVersion } from '../objects/objectQueries.js';
import type { StoredRow } from './datasetModel.js';

/** The objects' base class of a `weave.Dataset` (and its subclasses). */
export const DATASET_CLASS = 'Dataset';

export const datasetKeys = {
  all: ['datasets'] as const,
  project: (projectId: string) => [...datasetKeys.all, projectId] as const,
  list: (projectId: string) => [...datasetKeys.project(projectId), 'list'] as const,
  versions: (projectId: string, objectId: string) => [...datasetKeys.project(projectId), 'versions', objectId] as const,
  rows: (projectId: string, tableDigest: string) => [...datasetKeys.project(projectId), 'rows', tableDigest] as const,
};

/** One dataset of the list. */
export interface DatasetSummary {
  latest: ObjVersion;
  versionCount: number;
  rowCount: number | null;
}

/** Every dataset of the project: latest version, version count and its row count. */
export function datasetsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: datasetKeys.list(projectId),
    queryFn: async ({ signal }): Promise<DatasetSummary[]> => {
      const { objs } = await api.objsQuery(
        { project_id: projectId, filter: { base_object_classes: [DATASET_CLASS] }, sort_by: [{ field: 'object_id', direction: 'asc' }] },
        { signal },
      );
      const summaries = summarizeObjects(objs);
      const digests = [...new Set(summaries.flatMap((s) => datasetTableDigest(s.latest.val) ?? []))];
      const counts = new Map<string, number>();
      if (digests.length > 0) {
        const { tables } = await api.tableQueryStatsBatch({ project_id: projectId, digests }, { signal });
        for (const t of tables) counts.set(t.digest, t.count);
      }
      return summaries.map((s) => ({ ...s, rowCount: counts.get(datasetTableDigest(s.latest.val) ?? '') ?? null }));
    },
  });
}

/** One version of a dataset with its table and row count. */
export interface DatasetVersion {
  obj: ObjVersion;
  tableDigest: string | null;
  rowCount: number | null;
}

/** A dataset's versions with their values and row counts, newest first. */
export function datasetVersionsQueryOptions(projectId: string, objectId: string) {
  return queryOptions({
    queryKey: datasetKeys.versions(projectId, objectId),
    queryFn: async ({ signal }): Promise<DatasetVersion[]> => {
      const { objs } = await api.objsQuery({ project_id: projectId, filter: { object_ids: [objectId] } }, { signal });
      objs.sort((a, b) => b.version_index - a.version_index);
      const digests = [...new Set(objs.flatMap((o) => datasetTableDigest(o.val) ?? []))];
      const counts = new Map<string, number>();
      if (digests.length > 0) {
        const { tables } = await api.tableQueryStatsBatch({ project_id: projectId, digests }, { signal });
        for (const t of tables) counts.set(t.digest, t.count);
      }
      return objs.map((obj) => {
        const tableDigest = datasetTableDigest(obj.val);
        return { obj, tableDigest, rowCount: tableDigest === null ? null : (counts.get(tableDigest) ?? null) };
      });
    },
  });
}

/** Every row of a table, in order (tables are immutable: never stale). */
export function allRowsQueryOptions(projectId: string, tableDigest: string) {
  return queryOptions({
    queryKey: datasetKeys.rows(projectId, tableDigest),
    queryFn: async ({ signal }): Promise<StoredRow[]> => {
      const rows: StoredRow[] = [];
      for await (const r of api.tableQueryStream({ project_id: projectId, digest: tableDigest }, { signal }))
        rows.push({ digest: r.digest, val: r.val });
      return rows;
    },
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
