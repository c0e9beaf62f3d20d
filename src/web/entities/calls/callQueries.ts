/**
 * Calls data through react-query: pages of a calls list, its total, one call in full.
 * Keys nest by project so one `invalidateQueries({queryKey: callKeys.project(id)})` refreshes all.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ReqOf } from '../../../contract/endpoints.js';
import { api, collect } from '../../lib/api.js';
import type { Call } from './callFields.js';

/** The `/calls/stream_query` request, as the contract types it. */
export type CallsQueryReq = ReqOf<'callsStreamQuery'>;

/** Rows per page of the calls list; one page is one stream_query request. */
export const PAGE_SIZE = 100;

/**
 * Columns the list needs for its built-in cells. Leaving out inputs and output keeps pages small
 * when payloads are large; path columns add their top-level field on demand.
 */
export const LIST_COLUMNS = ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'exception', 'summary'];

/** The list request without paging: what a calls view asks for. */
export type CallsListReq = Omit<CallsQueryReq, 'limit' | 'offset'>;

/** Query keys for calls. */
export const callKeys = {
  all: ['calls'] as const,
  project: (projectId: string) => [...callKeys.all, projectId] as const,
  /** `generation` lets a live refresh fetch a fresh snapshot beside the one on screen. */
  page: (req: CallsListReq, generation: number, page: number) =>
    [...callKeys.project(req.project_id), 'page', req, generation, page] as const,
  count: (req: CallsListReq, generation: number) =>
    [...callKeys.project(req.project_id), 'count', { filter: req.filter, query: req.query }, generation] as const,
  detail: (projectId: string, id: string) => [...callKeys.project(projectId), 'detail', id] as const,
  sample: (projectId: string) => [...callKeys.project(projectId), 'sample'] as const,
};

/** One page of a calls list. */
export function callsPageQueryOptions({ req, generation, page }: { req: CallsListReq; generation: number; page: number }) {
  return queryOptions({
    queryKey: callKeys.page(req, generation, page),
    queryFn: ({ signal }) => collect<Call>(api.callsStreamQuery({ ...req, limit: PAGE_SIZE, offset: page * PAGE_SIZE }, { signal })),
    staleTime: Infinity,
    gcTime: 60_000,
  });
}

/** How many calls match a list's filter and query. */
export function callsCountQueryOptions({ req, generation }: { req: CallsListReq; generation: number }) {
  return queryOptions({
    queryKey: callKeys.count(req, generation),
    queryFn: ({ signal }) => api.callsQueryStats({ project_id: req.project_id, filter: req.filter, query: req.query }, { signal }),
    staleTime: Infinity,
    gcTime: 60_000,
  });
}

/** One call with everything (inputs, output, costs): the detail panel's data. */
export function callQueryOptions({ projectId, id }: { projectId: string; id: string }) {
  return queryOptions({
    queryKey: callKeys.detail(projectId, id),
    queryFn: async ({ signal }) => (await api.callRead({ project_id: projectId, id, include_costs: true }, { signal })).call,
  });
}

/**
 * A few recent calls with payloads, to suggest field paths (inputs.x, output.y) for columns and
 * filters. Few, because payloads can be megabytes each.
 */
export function callsSampleQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: callKeys.sample(projectId),
    queryFn: ({ signal }) =>
      collect<Call>(
        api.callsStreamQuery(
          {
            project_id: projectId,
            limit: 5,
            sort_by: [{ field: 'started_at', direction: 'desc' }],
            columns: ['inputs', 'output', 'attributes'],
          },
          { signal },
        ),
      ),
    staleTime: 5 * 60_000,
  });
}

/** Dot paths found in sample calls' inputs, output and attributes (two levels deep). */
export function suggestPaths(calls: Call[]): string[] {
  const paths = new Set<string>();
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (depth > 2 || typeof value !== 'object' || value === null || Array.isArray(value)) {
      if (depth > 0) paths.add(prefix);
      return;
    }
    const entries = Object.entries(value);
    if (entries.length === 0 && depth > 0) paths.add(prefix);
    for (const [k, v] of entries.slice(0, 50)) walk(v, `${prefix}.${k}`, depth + 1);
  };
  for (const c of calls) {
    walk(c.inputs, 'inputs', 0);
    if (typeof c.output === 'object' && c.output !== null && !Array.isArray(c.output)) walk(c.output, 'output', 0);
    else if (c.output !== null && c.output !== undefined) paths.add('output');
    walk(c.attributes, 'attributes', 0);
  }
  return [...paths].filter((p) => !p.startsWith('attributes.weave.') || p.split('.').length <= 3).sort();
}
