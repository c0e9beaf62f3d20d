/**
 * Object logic above the store (docs/api/core.md §3.3): hashing and storing versions, resolving
 * `latest` / `v<N>` / alias names to one version, the 404s (with `deleted_at` for deleted
 * versions), and the wire form of a version.
 */
import {
  OBJECT_SORT_FIELDS,
  type ObjDeleteRes,
  type ObjectSortField,
  type ObjQueryReq,
  type ObjSchema,
} from '../../../contract/objects.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { ObjectRecord, ObjectWrite, Store, VersionSelector, VersionState } from '../../store/Store.js';
import { formatMicros, formatMicrosOrNull } from '../../core/datetime.js';
import { bytesDigest, isContentDigest } from './digests.js';
import { toCompactJson, toPythonJson, type LosslessValue } from './losslessJson.js';
import { processObjectVal } from './objectClasses.js';

const MAX_DELETE_DIGESTS = 100;

/** Reads how a request names a version: `latest`, `v<N>`, a digest, or else an alias. */
export function parseVersion(spec: string): VersionSelector {
  if (spec === 'latest') return { latest: true };
  const index = /^v(\d+)$/.exec(spec);
  if (index) return { index: Number(index[1]) };
  return isContentDigest(spec) ? { digest: spec } : { alias: spec };
}

/** An object version as the store takes it: kind and classes derived, value hashed. */
export function toObjectWrite(req: {
  projectId: string;
  objectId: string;
  val: LosslessValue;
  builtinObjectClass: string | null;
  wbUserId: string;
  now: number;
}): ObjectWrite {
  const processed = processObjectVal(req.val, req.builtinObjectClass);
  const hashed = toPythonJson(processed.val);
  return {
    projectId: req.projectId,
    objectId: req.objectId,
    digest: bytesDigest(hashed),
    kind: processed.kind,
    baseObjectClass: processed.baseObjectClass,
    leafObjectClass: processed.leafObjectClass,
    valJson: toCompactJson(processed.val),
    sizeBytes: Buffer.byteLength(hashed),
    wbUserId: req.wbUserId,
    createdAt: req.now,
  };
}

/** obj/create: derives kind and classes, hashes, checks `expected_digest`, stores. */
export async function createObject(
  store: Store,
  req: {
    projectId: string;
    objectId: string;
    val: LosslessValue;
    builtinObjectClass: string | null;
    expectedDigest: string | null;
    wbUserId: string;
    now: number;
  },
): Promise<{ digest: string; object_id: string }> {
  const write = toObjectWrite(req);
  if (req.expectedDigest && req.expectedDigest !== write.digest) {
    throw new ConflictError(
      `Digest mismatch for obj ${JSON.stringify(req.objectId)}: expected ${req.expectedDigest}, computed ${write.digest}`,
    );
  }
  await store.objects.createObject(write);
  return { digest: write.digest, object_id: req.objectId };
}

/** One live version; 404 when missing, 404 with `deleted_at` when deleted. */
export async function readLiveObject(
  store: Store,
  req: { projectId: string; objectId: string; version: string; metadataOnly?: boolean },
): Promise<ObjectRecord> {
  const record = await store.objects.readObject({ ...req, version: parseVersion(req.version) });
  throwUnlessLive(req, record);
  return record;
}

/** readLiveObject's check alone, without reading the version's metadata (a ref a write names). */
export async function requireLiveVersion(store: Store, req: { projectId: string; objectId: string; version: string }): Promise<void> {
  throwUnlessLive(req, await store.objects.readVersionState({ ...req, version: parseVersion(req.version) }));
}

function throwUnlessLive<S extends VersionState>(req: { objectId: string; version: string }, state: S | null): asserts state is S {
  if (!state) throw new NotFoundError(`Obj ${req.objectId}:${req.version} not found`);
  if (state.deletedAt !== null) {
    const deletedAt = formatMicros(state.deletedAt);
    throw new NotFoundError(`${req.objectId}:v${state.versionIndex} was deleted at ${deletedAt}`, { deleted_at: deletedAt });
  }
}

const isObjectSortField = (field: string): field is ObjectSortField => (OBJECT_SORT_FIELDS as readonly string[]).includes(field);

/** objs/query: only OBJECT_SORT_FIELDS sort keys are honoured (others are dropped). */
export async function queryObjects(store: Store, req: ObjQueryReq): Promise<ObjSchema[]> {
  const sortBy = (req.sort_by ?? []).flatMap(({ field, direction }) => (isObjectSortField(field) ? [{ field, direction }] : []));
  const records = await store.objects.queryObjects({
    projectId: req.project_id,
    filter: req.filter,
    sortBy,
    limit: req.limit,
    offset: req.offset,
    metadataOnly: req.metadata_only ?? false,
  });
  return records.map((r) => toWireObject(r, req.include_storage_size ?? false));
}

/**
 * obj/delete: every named version must be live (else 404, as the reference); no names means
 * all versions, and an object with none live is a 404 too. Answers the `/obj/delete` body: the
 * count and the versions deleted, aliases (`latest`, `v<N>`, named) resolved to their digests.
 */
export async function deleteObjects(
  store: Store,
  req: { projectId: string; objectId: string; versions: string[] | null; now: number },
): Promise<ObjDeleteRes> {
  const versions = req.versions?.length ? req.versions : null;
  if (versions && versions.length > MAX_DELETE_DIGESTS) {
    throw new BadRequestError(
      `Object delete request contains ${versions.length} objects. Please delete ${MAX_DELETE_DIGESTS} or fewer objects at a time.`,
    );
  }
  let digests: string[] | null = null;
  if (versions) {
    digests = [];
    for (const version of versions) {
      const record = await store.objects.readObject({
        projectId: req.projectId,
        objectId: req.objectId,
        version: parseVersion(version),
        metadataOnly: true,
      });
      if (!record || record.deletedAt !== null) throw new NotFoundError(`Object ${req.objectId} (${version}) not found when deleting.`);
      digests.push(record.digest);
    }
  }
  const deleted = await store.objects.deleteObjects({
    projectId: req.projectId,
    objectId: req.objectId,
    digests,
    deletedAt: req.now,
  });
  if (deleted.length === 0) throw new NotFoundError(`Object ${req.objectId} not found when deleting.`);
  return {
    num_deleted: deleted.length,
    deleted_versions: deleted.map((v) => ({
      digest: v.digest,
      base_object_class: v.baseObjectClass,
      leaf_object_class: v.leafObjectClass,
    })),
  };
}

/** The wire form; the latest version also carries the virtual alias `latest`. */
export function toWireObject(r: ObjectRecord, includeStorageSize = false): ObjSchema {
  return {
    project_id: r.projectId,
    object_id: r.objectId,
    created_at: formatMicros(r.createdAt),
    deleted_at: formatMicrosOrNull(r.deletedAt),
    digest: r.digest,
    version_index: r.versionIndex,
    is_latest: r.isLatest ? 1 : 0,
    kind: r.kind,
    base_object_class: r.baseObjectClass,
    leaf_object_class: r.leafObjectClass,
    val: r.valJson === null ? {} : JSON.parse(r.valJson),
    wb_user_id: r.wbUserId,
    size_bytes: includeStorageSize ? r.sizeBytes : null,
    tags: r.tags,
    aliases: r.isLatest ? ['latest', ...r.aliases] : r.aliases,
  };
}
