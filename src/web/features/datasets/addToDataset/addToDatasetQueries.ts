/**
 * "Add to dataset" data through react-query: the project's datasets to choose from, and the
 * server's preview of the rows a mapping makes (docs/datasets.md "Add to dataset"). Both live
 * under the objects keys, so writing a version refreshes them with every object list.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { DatasetColumnMapping, DatasetRowSource } from '../../../../contract/datasetAdd.js';
import { api } from '../../../lib/api.js';
import { objectKeys } from '../../objects/objectQueries.js';

export type { DatasetColumnMapping, DatasetRowSource };

export const addToDatasetKeys = {
  datasets: (projectId: string) => [...objectKeys.project(projectId), 'datasets-latest'] as const,
  preview: (req: PreviewReq) => [...objectKeys.project(req.projectId), 'add-preview', req] as const,
};

/** The latest version of every dataset of the project, by name. */
export function datasetsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: addToDatasetKeys.datasets(projectId),
    queryFn: async ({ signal }) => {
      const { objs } = await api.objsQuery(
        { project_id: projectId, filter: { base_object_classes: ['Dataset'], latest_only: true }, metadata_only: true },
        { signal },
      );
      return objs.map((o) => o.object_id).sort((a, b) => a.localeCompare(b));
    },
  });
}

export interface PreviewReq {
  projectId: string;
  dataset: string;
  source: DatasetRowSource;
  /** null: the server's default mapping. */
  mapping: DatasetColumnMapping[] | null;
}

/** The rows the mapping makes, nothing written; the last answer stays while the next loads. */
export function previewQueryOptions(req: PreviewReq) {
  return queryOptions({
    queryKey: addToDatasetKeys.preview(req),
    queryFn: ({ signal }) =>
      api.datasetAddFromTraces(
        { project_id: req.projectId, dataset: req.dataset, source: req.source, mapping: req.mapping, preview: true },
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
