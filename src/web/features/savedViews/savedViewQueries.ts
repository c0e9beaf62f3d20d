/**
 * Saved views through react-query (docs/saved-views.md): the project's `SavedView` objects
 * (latest versions) and its default views, under `['savedViews', projectId]`; saving, deleting
 * and choosing the default invalidate them.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import {
  DEFAULT_VIEWS_OBJECT,
  fromSavedViewValue,
  toSavedViewValue,
  type DefaultViews,
  type SavedViewItem,
  type ViewType,
} from './savedViewModel.js';

export const SAVED_VIEW_CLASS = 'SavedView';

export const savedViewKeys = {
  all: ['savedViews'] as const,
  project: (projectId: string) => [...savedViewKeys.all, projectId] as const,
  list: (projectId: string) => [...savedViewKeys.project(projectId), 'list'] as const,
  defaults: (projectId: string) => [...savedViewKeys.project(projectId), 'defaults'] as const,
};

/** Every saved view Weft can open, by label. */
export function savedViewsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: savedViewKeys.list(projectId),
    staleTime: 30_000,
    queryFn: async ({ signal }): Promise<SavedViewItem[]> => {
      const { objs } = await api.objsQuery(
        { project_id: projectId, filter: { latest_only: true, base_object_classes: [SAVED_VIEW_CLASS] } },
        { signal },
      );
      return objs
        .flatMap((o) => fromSavedViewValue(o.object_id, o.val) ?? [])
        .sort((a, b) => a.label.localeCompare(b.label) || a.objectId.localeCompare(b.objectId));
    },
  });
}

/** The project's default view per page (none until one is chosen). */
export function defaultViewsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: savedViewKeys.defaults(projectId),
    staleTime: 30_000,
    // A query, not /obj/read: until a default is chosen the object does not exist, and a read
    // would answer 404 on every visit to a page (an error line in the browser's console each time).
    queryFn: async ({ signal }): Promise<DefaultViews> => {
      const { objs } = await api.objsQuery(
        { project_id: projectId, filter: { object_ids: [DEFAULT_VIEWS_OBJECT], latest_only: true } },
        { signal },
      );
      const val = objs[0]?.val;
      return val && typeof val === 'object' ? (val as DefaultViews) : {};
    },
  });
}

/** A fresh object id for a view: its kind, a slug of its label and a time stamp. */
function newViewId(viewType: ViewType, label: string, now: number): string {
  const slug = label
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `view-${viewType.replace('weft.', '')}-${slug || 'untitled'}-${now.toString(36)}`;
}

async function setDefault(projectId: string, viewType: ViewType, objectId: string | null, current: DefaultViews) {
  await api.objCreate({ obj: { project_id: projectId, object_id: DEFAULT_VIEWS_OBJECT, val: { ...current, [viewType]: objectId } } });
}

/** Saves the current search as a new view, and as the page's default when asked. */
export function useSaveView(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (req: { label: string; viewType: ViewType; search: string; makeDefault: boolean }) => {
      const now = Date.now();
      const objectId = newViewId(req.viewType, req.label, now);
      await api.objCreate({
        obj: { project_id: projectId, object_id: objectId, val: toSavedViewValue({ ...req, now }) },
      });
      if (req.makeDefault)
        await setDefault(projectId, req.viewType, objectId, await queryClient.fetchQuery(defaultViewsQueryOptions(projectId)));
      return objectId;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedViewKeys.project(projectId) }),
  });
}

/** Makes a view the page's default for the project, or clears the default (null). */
export function useSetDefaultView(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ viewType, objectId }: { viewType: ViewType; objectId: string | null }) =>
      setDefault(projectId, viewType, objectId, await queryClient.fetchQuery(defaultViewsQueryOptions(projectId))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedViewKeys.project(projectId) }),
  });
}

/** Deletes a view (every version). */
export function useDeleteView(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (objectId: string) => api.objDelete({ project_id: projectId, object_id: objectId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedViewKeys.project(projectId) }),
  });
}
