/**
 * Objects: versioned, content-addressed values (ops, datasets, models, anything), with tags
 * and aliases per version (docs/api/core.md §2 "ObjSchema", §3.3; evaluation-and-more.md §5).
 */
import { z } from 'zod';
import { Limit, Offset, ProjectId, SortBy } from './common.js';

/** 1–128 Unicode word characters, `.` or `-` (the reference's object_id_validator), on create. */
export const ObjectId = z
  .string()
  .regex(/^[\p{L}\p{N}_.-]{1,128}$/u, 'must be 1-128 letters, digits, ".", "_" or "-"')
  .describe('Object name');

/** A digest, `latest`, `v<N>` (version index) or an alias name. */
export const VersionSpec = z.string().min(1).describe('A digest, "latest", "v<N>" or an alias');

export const ObjSchema = z.object({
  project_id: z.string(),
  object_id: z.string(),
  created_at: z.string(),
  deleted_at: z.string().nullable(),
  digest: z.string(),
  version_index: z.number().int().describe('0-based, in order of creation'),
  is_latest: z.number().int().describe('1 for the newest live version, else 0'),
  kind: z.enum(['op', 'object']),
  base_object_class: z.string().nullable(),
  leaf_object_class: z.string().nullable(),
  val: z.unknown(),
  wb_user_id: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  tags: z.array(z.string()),
  aliases: z.array(z.string()).describe('Includes the virtual "latest" on the latest version'),
});
export type ObjSchema = z.infer<typeof ObjSchema>;

export const ObjSchemaForInsert = z.object({
  project_id: ProjectId,
  object_id: ObjectId,
  val: z.unknown(),
  builtin_object_class: z.string().nullish(),
  set_base_object_class: z.string().nullish().describe('Deprecated alias of builtin_object_class'),
  wb_user_id: z.string().nullish().describe('Ignored: the server sets it from the credentials'),
  expected_digest: z.string().nullish().describe('409 when the computed digest differs'),
});

// POST /obj/create
export const ObjCreateReq = z.object({ obj: ObjSchemaForInsert });
export const ObjCreateRes = z.object({ digest: z.string(), object_id: z.string() });

// POST /obj/read
export const ObjReadReq = z.object({
  project_id: ProjectId,
  object_id: z.string(),
  digest: VersionSpec,
  metadata_only: z.boolean().nullish().describe('Answer `val: {}`'),
});
export const ObjReadRes = z.object({ obj: ObjSchema });

// POST /objs/query
export const ObjectVersionFilter = z.object({
  base_object_classes: z.array(z.string()).nullish(),
  exclude_base_object_classes: z.array(z.string()).nullish(),
  leaf_object_classes: z.array(z.string()).nullish(),
  object_ids: z.array(z.string()).nullish(),
  is_op: z.boolean().nullish().describe('true: ops only; false: no ops; null: both'),
  latest_only: z.boolean().nullish(),
  tags: z.array(z.string()).nullish().describe('Versions carrying any of these tags'),
  aliases: z.array(z.string()).nullish().describe('Versions named by any of these aliases ("latest" included)'),
});
export type ObjectVersionFilter = z.infer<typeof ObjectVersionFilter>;
/** The `sort_by` fields objs/query honours; the others are dropped, as the reference does. */
export const OBJECT_SORT_FIELDS = ['object_id', 'created_at'] as const;
export type ObjectSortField = (typeof OBJECT_SORT_FIELDS)[number];

export const ObjQueryReq = z.object({
  project_id: ProjectId,
  filter: ObjectVersionFilter.nullish(),
  limit: Limit,
  offset: Offset,
  sort_by: z
    .array(SortBy)
    .nullish()
    .describe(`Only ${OBJECT_SORT_FIELDS.join(' and ')} are honoured`),
  metadata_only: z.boolean().nullish(),
  include_storage_size: z.boolean().nullish(),
});
export type ObjQueryReq = z.infer<typeof ObjQueryReq>;
export const ObjQueryRes = z.object({ objs: z.array(ObjSchema) });

// POST /obj/delete
export const ObjDeleteReq = z.object({
  project_id: ProjectId,
  object_id: z.string(),
  digests: z.array(VersionSpec).nullish().describe('Versions to delete; absent or empty: all'),
});
export const DeletedObjVersion = z.object({
  digest: z.string().describe('Content digest (an alias or v<N> in the request is resolved)'),
  base_object_class: z.string().nullable(),
  leaf_object_class: z.string().nullable(),
});
export const ObjDeleteRes = z.object({
  num_deleted: z.number().int(),
  deleted_versions: z.array(DeletedObjVersion).describe('The versions deleted, oldest version first'),
});
export type ObjDeleteRes = z.infer<typeof ObjDeleteRes>;

// PUT /objs/:object_id/versions/:digest/tags and POST .../tags/remove
export const ObjTagsReq = z.object({
  object_id: z.string(),
  digest: VersionSpec,
  project_id: ProjectId,
  tags: z.array(z.string()),
});
// PUT /objs/:object_id/aliases
export const ObjSetAliasesReq = z.object({
  object_id: z.string(),
  project_id: ProjectId,
  digest: VersionSpec,
  aliases: z.array(z.string()),
});
// POST /objs/:object_id/aliases/remove
export const ObjRemoveAliasesReq = z.object({
  object_id: z.string(),
  project_id: ProjectId,
  aliases: z.array(z.string()),
});
export const EmptyRes = z.object({});

// GET /tags and GET /aliases
export const ProjectScopedReq = z.object({ project_id: ProjectId });
export const TagsListRes = z.object({ tags: z.array(z.string()) });
export const AliasesListRes = z.object({ aliases: z.array(z.string()) });
