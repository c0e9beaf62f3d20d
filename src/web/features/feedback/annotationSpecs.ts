/**
 * Annotation fields of a project: its AnnotationSpec objects (what the Weave SDKs create with
 * `weave.AnnotationSpec(...)`), read through `/objs/query` and turned into the four kinds of
 * input the dashboard offers, from each spec's JSON Schema `field_schema`:
 * boolean, number (with its range), category (an enum) and free text (with its length limit).
 */
import { queryOptions } from '@tanstack/react-query';
import type { ObjSchema } from '../../../contract/objects.js';
import { api } from '../../lib/api.js';
import { feedbackKeys } from './feedbackQueries.js';

/** How an annotation is entered. `unsupported`: a schema the dashboard cannot edit (shown read-only). */
export type AnnotationField =
  | { kind: 'boolean' }
  | { kind: 'number'; integer: boolean; min: number | null; max: number | null }
  | { kind: 'category'; options: string[] }
  | { kind: 'text'; maxLength: number | null }
  | { kind: 'unsupported' };

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
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The input kind for a JSON Schema. */
export function fieldOf(schema: unknown): AnnotationField {
  if (!isObj(schema)) return { kind: 'unsupported' };
  if (Array.isArray(schema.enum) && schema.enum.every((o) => typeof o === 'string')) {
    return { kind: 'category', options: schema.enum as string[] };
  }
  switch (schema.type) {
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
    case 'integer':
      return {
        kind: 'number',
        integer: schema.type === 'integer',
        min: numOrNull(schema.minimum),
        max: numOrNull(schema.maximum),
      };
    case 'string':
      return { kind: 'text', maxLength: numOrNull(schema.maxLength) };
    default:
      return { kind: 'unsupported' };
  }
}

/** A spec object version as an AnnotationSpec; null when its value has no field schema. */
export function specOf(obj: Pick<ObjSchema, 'project_id' | 'object_id' | 'digest' | 'val'>): AnnotationSpec | null {
  if (!isObj(obj.val) || !('field_schema' in obj.val)) return null;
  const description = obj.val.description;
  return {
    name: obj.object_id,
    description: typeof description === 'string' && description ? description : null,
    ref: `weave:///${obj.project_id}/object/${obj.object_id}:${obj.digest}`,
    field: fieldOf(obj.val.field_schema),
  };
}

/** Why a typed value does not fit the field, or null when it does. */
export function checkValue(field: AnnotationField, value: unknown): string | null {
  if (field.kind === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number';
    if (field.integer && !Number.isInteger(value)) return 'Enter a whole number';
    if (field.min !== null && value < field.min) return `At least ${field.min}`;
    if (field.max !== null && value > field.max) return `At most ${field.max}`;
  }
  if (field.kind === 'text' && typeof value === 'string') {
    if (value.trim() === '') return 'Enter some text';
    if (field.maxLength !== null && value.length > field.maxLength) return `At most ${field.maxLength} characters`;
  }
  return null;
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
