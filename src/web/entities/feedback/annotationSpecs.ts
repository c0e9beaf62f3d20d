/**
 * Annotation fields of a project: its AnnotationSpec objects (what the Weave SDKs create with
 * `weave.AnnotationSpec(...)`), read through `/objs/query`, each with the input its
 * `field_schema` asks for (parsed by lib/annotationSpec.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import type { ObjSchema } from '../../../contract/objects.js';
import { objectRef, parseFieldSchema, type AnnotationField } from '../../lib/annotationSpec.js';
import { api } from '../../lib/api.js';
import { feedbackKeys } from './feedbackQueries.js';

/** One annotation spec, ready for an input. */
export interface AnnotationSpec {
  /** The object id, which the feedback type `wandb.annotation.<name>` repeats. */
  name: string;
  description: string | null;
  /** `weave:///<project>/object/<name>:<digest>`: what annotation feedback points at. */
  ref: string;
  field: AnnotationField;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A spec object version as an AnnotationSpec; null when its value has no field schema. */
export function specOf(obj: Pick<ObjSchema, 'project_id' | 'object_id' | 'digest' | 'val'>): AnnotationSpec | null {
  if (!isObj(obj.val) || !('field_schema' in obj.val)) return null;
  const description = obj.val.description;
  return {
    name: obj.object_id,
    description: typeof description === 'string' && description ? description : null,
    ref: objectRef({ projectId: obj.project_id, name: obj.object_id, digest: obj.digest }),
    field: parseFieldSchema(obj.val.field_schema),
  };
}

/** The project's annotation specs (latest versions), by name. */
export function annotationSpecsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: feedbackKeys.specs(projectId),
    queryFn: async ({ signal }) => {
      const { objs } = await api.objsQuery(
        {
          project_id: projectId,
          filter: { base_object_classes: ['AnnotationSpec'], latest_only: true },
          sort_by: [{ field: 'object_id', direction: 'asc' }],
        },
        { signal },
      );
      return objs.flatMap((o) => specOf(o) ?? []);
    },
    staleTime: 60_000,
  });
}
