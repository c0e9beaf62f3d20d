/**
 * Judges, judge models and monitors through react-query: the latest version of every object of
 * a class (with its value, for the editors), and saving a value as a new version. Saving makes
 * every list of LLM objects stale, the evaluation launcher's included.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, collect } from '../../lib/api.js';
import { launchKeys } from '../evaluations/launchQueries.js';
import type { ResOf } from '../../../contract/endpoints.js';
import type { Json } from './judgeObjects.js';

export const judgeKeys = {
  all: ['llm-objects'] as const,
  project: (projectId: string) => [...judgeKeys.all, projectId] as const,
  ofClass: (projectId: string, leafClass: string) => [...judgeKeys.project(projectId), leafClass] as const,
  /** A "Score with…" job's progress: apart from the objects, so saving one leaves it be. */
  scoreJob: (projectId: string, jobId: string | null) => ['score-with', projectId, jobId] as const,
};

/** One object, at its latest version. */
export interface LlmObject {
  name: string;
  digest: string;
  ref: string;
  /** 1-based, as the objects pages show it. */
  version: number;
  createdAt: string;
  val: Json;
}

/** The latest version of every live object of `leafClass` in the project, by name. */
export function latestObjectsQueryOptions(projectId: string, leafClass: string) {
  return queryOptions({
    queryKey: judgeKeys.ofClass(projectId, leafClass),
    queryFn: async ({ signal }): Promise<LlmObject[]> => {
      const { objs } = await api.objsQuery(
        {
          project_id: projectId,
          filter: { latest_only: true, leaf_object_classes: [leafClass] },
          sort_by: [{ field: 'object_id', direction: 'asc' }],
        },
        { signal },
      );
      return objs.map((o) => ({
        name: o.object_id,
        digest: o.digest,
        ref: `weave:///${projectId}/object/${o.object_id}:${o.digest}`,
        version: o.version_index + 1,
        createdAt: o.created_at,
        val: o.val && typeof o.val === 'object' ? (o.val as Json) : {},
      }));
    },
  });
}

/** Saves `val` as the next version of `name` (the first when new); answers its ref. */
export function useSaveObject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, val }: { name: string; val: Json }) => {
      const { digest } = await api.objCreate({ obj: { project_id: projectId, object_id: name, val } });
      return `weave:///${projectId}/object/${name}:${digest}`;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: judgeKeys.project(projectId) }),
        queryClient.invalidateQueries({ queryKey: launchKeys.objects(projectId) }),
      ]),
  });
}

/** Recent ended top-level calls to try a judge on, newest first. */
export function sampleCallsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: [...judgeKeys.project(projectId), 'sample-calls'] as const,
    queryFn: async ({ signal }) => {
      const calls = await collect(
        api.callsStreamQuery(
          {
            project_id: projectId,
            filter: { trace_roots_only: true },
            columns: ['id', 'op_name', 'display_name', 'started_at', 'ended_at'],
            sort_by: [{ field: 'started_at', direction: 'desc' }],
            limit: 50,
          },
          { signal },
        ),
      );
      return calls.filter((c) => c.ended_at !== null && c.ended_at !== undefined).slice(0, 20);
    },
  });
}

/** Runs a judge (its value as edited, saved or not) on one call: the judge's answer, no feedback stored. */
export function useTryJudge(projectId: string) {
  return useMutation({
    mutationFn: ({ callId, val }: { callId: string; val: Json }) =>
      api.judgeTry({ project_id: projectId, call_id: callId, scorer: val as Record<string, unknown> }),
  });
}

export type AgreementRow = ResOf<'judgeAgreement'>['judges'][number];

/** Each scorer's agreement with the reviewers who answered the same question (docs/judge-agreement.md). */
export function agreementQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: [...judgeKeys.project(projectId), 'agreement'] as const,
    queryFn: ({ signal }) => api.judgeAgreement({ project_id: projectId }, { signal }),
  });
}
