/**
 * v2 object APIs: ops, datasets, scorers, models and evaluations under
 * `/v2/{entity}/{project}/<kind>`. Each is an ordinary versioned object, stored the way the
 * SDKs store it, so these routes and `/obj/*` see the same data; see
 * docs/api/evaluations.md §2.1. The project comes from the two path segments.
 *
 * Bodies are plain objects (unknown keys are dropped, not refused), as the reference's v2
 * "Body" models are.
 */
import { z } from 'zod';
import { JsonObject, Limit, NAME_PART_PATTERN, NamePart, Offset } from './common.js';

/** An entity or project name in a `/v2/:entity/:project` path (the server's fast parses check it too). */
export const V2_SEGMENT_PATTERN = NAME_PART_PATTERN;

/** `/v2/:entity/:project`: the project is `<entity>/<project>`. */
export const V2Path = {
  entity: NamePart.describe('Entity (first half of the project id)'),
  project: NamePart.describe('Project name (second half of the project id)'),
};

export const V2ListReq = z.object({ ...V2Path, limit: Limit, offset: Offset });
export const V2VersionReq = z.object({ ...V2Path, object_id: z.string().min(1), digest: z.string().min(1) });
export const V2DeleteReq = z.object({
  ...V2Path,
  object_id: z.string().min(1),
  digests: z.array(z.string()).nullish().describe('Versions to delete (repeated query key); absent: all'),
});
export const V2DeleteRes = z.object({ num_deleted: z.number().int() });

/** What every read and list line carries. */
const VersionInfo = {
  object_id: z.string(),
  digest: z.string(),
  version_index: z.number().int(),
  created_at: z.string(),
};
const CreatedVersion = { digest: z.string(), object_id: z.string(), version_index: z.number().int() };

// Ops: POST/GET /ops, GET /ops/:object_id/versions/:digest, DELETE /ops/:object_id
export const OpCreateReq = z.object({
  ...V2Path,
  name: z.string().nullish().describe('Default "Op"; spaces and "/" become "_", lower-cased'),
  source_code: z.string().nullish().describe('Stored as the file obj.py; a placeholder stub when absent'),
});
export const OpCreateRes = z.object(CreatedVersion);
export const OpReadReq = V2VersionReq.extend({ eager: z.boolean().nullish().describe('Accepted for compatibility; code is always read') });
export const OpReadRes = z.object({ ...VersionInfo, code: z.string().describe('Source of obj.py; "" when unavailable') });

// Datasets
export const DatasetCreateReq = z.object({
  ...V2Path,
  name: z.string().nullish().describe('Default "Dataset"'),
  description: z.string().nullish(),
  rows: z.array(JsonObject).describe('Stored as a table; the dataset holds its ref'),
});
export const DatasetCreateRes = z.object(CreatedVersion);
export const DatasetReadRes = z.object({
  ...VersionInfo,
  name: z.string(),
  description: z.string().nullable(),
  rows: z.string().describe('Table ref weave:///<entity>/<project>/table/<digest>'),
});

// Scorers
export const ScorerCreateReq = z.object({
  ...V2Path,
  name: z.string().min(1),
  description: z.string().nullish(),
  op_source_code: z.string().describe('Source of the score op (<id>_score)'),
});
export const ScorerCreateRes = z.object({ ...CreatedVersion, scorer: z.string().describe('Ref of the scorer object') });
export const ScorerReadRes = z.object({
  ...VersionInfo,
  name: z.string(),
  description: z.string().nullable(),
  score_op: z.string().nullable().describe('Ref of the score op'),
});

// Models
export const ModelCreateReq = z.object({
  ...V2Path,
  name: z.string().min(1),
  description: z.string().nullish(),
  source_code: z.string().describe('Stored as the file obj.py'),
  attributes: JsonObject.nullish().describe('Merged into the top level of the stored value'),
});
export const ModelCreateRes = z.object({ ...CreatedVersion, model_ref: z.string() });
export const ModelReadRes = z.object({
  ...VersionInfo,
  name: z.string(),
  description: z.string().nullable(),
  source_code: z.string(),
  attributes: JsonObject.nullable().describe('Every key but _type, _class_name, _bases, name, description, files'),
});

// Evaluations
export const EvaluationCreateReq = z.object({
  ...V2Path,
  name: z.string().min(1),
  description: z.string().nullish(),
  dataset: z.string().min(1).describe('Dataset object ref'),
  scorers: z.array(z.string()).nullish().describe('Scorer object or op refs'),
  trials: z.number().int().min(1).nullish().describe('Default 1'),
  evaluation_name: z.string().nullish(),
  eval_attributes: JsonObject.nullish().describe('Merged into the top level of the stored value'),
});
export const EvaluationCreateRes = z.object({ ...CreatedVersion, evaluation_ref: z.string() });
export const EvaluationReadRes = z.object({
  ...VersionInfo,
  name: z.string(),
  description: z.string().nullable(),
  dataset: z.string(),
  scorers: z.array(z.string()),
  trials: z.number().int(),
  evaluation_name: z.string().nullable(),
  evaluate_op: z.string().nullable(),
  predict_and_score_op: z.string().nullable(),
  summarize_op: z.string().nullable(),
});

export type OpReadRes = z.infer<typeof OpReadRes>;
export type DatasetReadRes = z.infer<typeof DatasetReadRes>;
export type ScorerReadRes = z.infer<typeof ScorerReadRes>;
export type ModelReadRes = z.infer<typeof ModelReadRes>;
export type EvaluationReadRes = z.infer<typeof EvaluationReadRes>;
