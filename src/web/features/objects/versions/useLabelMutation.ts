/**
 * Tag and alias changes on object versions. One mutation key per object, so the versions panel
 * can show the latest failure in words (useMutationState) wherever the change was made; every
 * change, failed or not, refreshes the object and the objects list by key prefix.
 */
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.js';
import { objectKeys } from '../objectQueries.js';

/** One label change: add or remove a tag on a version, set (move) or remove an alias. */
export interface LabelChange {
  action: 'addTag' | 'removeTag' | 'setAlias' | 'removeAlias';
  label: string;
  digest: string;
  versionIndex: number;
}

/** The mutation key of an object's label changes. */
export const labelMutationKey = (projectId: string, objectId: string) => [...objectKeys.object(projectId, objectId), 'labels'] as const;

function send(projectId: string, objectId: string, c: LabelChange): Promise<unknown> {
  const ids = { project_id: projectId, object_id: objectId };
  switch (c.action) {
    case 'addTag':
      return api.objAddTags({ ...ids, digest: c.digest, tags: [c.label] });
    case 'removeTag':
      return api.objRemoveTags({ ...ids, digest: c.digest, tags: [c.label] });
    case 'setAlias':
      return api.objSetAliases({ ...ids, digest: c.digest, aliases: [c.label] });
    case 'removeAlias':
      return api.objRemoveAliases({ ...ids, aliases: [c.label] });
  }
}

/** The mutation that applies a label change to one object. */
export function useLabelMutation({ projectId, objectId }: { projectId: string; objectId: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: labelMutationKey(projectId, objectId),
    mutationFn: (change: LabelChange) => send(projectId, objectId, change),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: objectKeys.object(projectId, objectId) }),
        queryClient.invalidateQueries({ queryKey: objectKeys.list(projectId) }),
        queryClient.invalidateQueries({ queryKey: objectKeys.tags(projectId) }),
      ]),
  });
}

const VERBS: Record<LabelChange['action'], (c: LabelChange) => string> = {
  addTag: (c) => `add tag “${c.label}” to v${c.versionIndex}`,
  removeTag: (c) => `remove tag “${c.label}” from v${c.versionIndex}`,
  setAlias: (c) => `point alias “${c.label}” at v${c.versionIndex}`,
  removeAlias: (c) => `remove alias “${c.label}”`,
};

/** The newest label change of an object, when it failed: what was tried and why it failed. */
export function useLastLabelError({ projectId, objectId }: { projectId: string; objectId: string }): { id: number; text: string } | null {
  const states = useMutationState({
    filters: { mutationKey: labelMutationKey(projectId, objectId) },
    select: (m) => ({
      status: m.state.status,
      at: m.state.submittedAt,
      change: m.state.variables as LabelChange | undefined,
      error: m.state.error,
    }),
  });
  const last = states.reduce<(typeof states)[number] | null>((a, b) => (a && a.at >= b.at ? a : b), null);
  if (!last || last.status !== 'error' || !last.change) return null;
  const reason = last.error instanceof Error ? last.error.message : String(last.error);
  return { id: last.at, text: `Could not ${VERBS[last.change.action](last.change)}: ${reason}` };
}
