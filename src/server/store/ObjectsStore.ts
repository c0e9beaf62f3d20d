/** Objects: versioned values (ops and objects) with tags and aliases (Store.ts). */
import type { SortDirection } from '../../contract/common.js';
import type { ObjectSortField, ObjectVersionFilter } from '../../contract/objects.js';

/** A new object version, hashed and serialized by the domain layer. */
export interface ObjectWrite {
  projectId: string;
  objectId: string;
  digest: string;
  kind: 'op' | 'object';
  baseObjectClass: string | null;
  leafObjectClass: string | null;
  /** The value as compact JSON text; floats keep their `1.0` form. */
  valJson: string;
  /** Length of the hashed JSON text, which the reference reports as the size. */
  sizeBytes: number;
  wbUserId: string | null;
  createdAt: number;
}

/** A version a delete soft-deleted: its digest and classes, as `/obj/delete` reports them. */
export interface DeletedObjectVersion {
  digest: string;
  baseObjectClass: string | null;
  leafObjectClass: string | null;
}

/** How a request names one version of an object: digest, `v<N>`, `latest` or an alias. */
export type VersionSelector = { digest: string } | { index: number } | { latest: true } | { alias: string };

/** A stored object version. */
export interface ObjectRecord extends Omit<ObjectWrite, 'valJson'> {
  /** Null when read with `metadataOnly`. */
  valJson: string | null;
  versionIndex: number;
  isLatest: boolean;
  deletedAt: number | null;
  /** Sorted. */
  tags: string[];
  /** The explicit aliases, sorted; the virtual `latest` is the domain's business. */
  aliases: string[];
}

export interface ObjectsQuery {
  projectId: string;
  filter?: ObjectVersionFilter | null;
  /** Default created_at ascending; ties go by version_index in created_at's direction (objectOrder). */
  sortBy?: { field: ObjectSortField; direction: SortDirection }[] | null;
  limit?: number | null;
  offset?: number | null;
  metadataOnly?: boolean;
}

/** Whether a version exists, and when it was deleted (null: live). */
export interface VersionState {
  versionIndex: number;
  deletedAt: number | null;
}

export interface ObjectsStore {
  /**
   * Adds a version, unless a live version with this digest exists (then nothing changes). The
   * new version gets the next version_index and becomes the latest; a deleted digest revives.
   */
  createObject(write: ObjectWrite): Promise<void>;
  /** One version, deleted or not (see `deletedAt`), or null. */
  readObject(req: { projectId: string; objectId: string; version: VersionSelector; metadataOnly?: boolean }): Promise<ObjectRecord | null>;
  /**
   * The version readObject would answer, as its index and deletion only, or null: the check a
   * write makes of each ref it names (a prediction's model, a score's scorer). On SQLite this is
   * one indexed lookup without readObject's tags and aliases (6.9 against 9.7 µs a statement in
   * the server under evaluation logging, four per prediction).
   */
  readVersionState(req: { projectId: string; objectId: string; version: VersionSelector }): Promise<VersionState | null>;
  /** Live versions matching the query, in order. */
  queryObjects(query: ObjectsQuery): Promise<ObjectRecord[]>;
  /**
   * Soft-deletes the given live versions (null: all of them), drops their tags and aliases and
   * makes the newest surviving version the latest. Returns the versions it deleted, oldest
   * version index first (already deleted or unknown digests are not among them).
   */
  deleteObjects(req: { projectId: string; objectId: string; digests: string[] | null; deletedAt: number }): Promise<DeletedObjectVersion[]>;
  /** Adds tags to a version (a set: adding twice is a no-op). */
  addTags(req: { projectId: string; objectId: string; digest: string; tags: string[]; createdAt: number }): Promise<void>;
  /** Removes tags from a version; absent tags are ignored. */
  removeTags(req: { projectId: string; objectId: string; digest: string; tags: string[] }): Promise<void>;
  /** Points each alias at this version, moving it off any other version of the object. */
  setAliases(req: { projectId: string; objectId: string; digest: string; aliases: string[]; createdAt: number }): Promise<void>;
  /** Removes aliases from the object; absent ones are ignored. */
  removeAliases(req: { projectId: string; objectId: string; aliases: string[] }): Promise<void>;
  /** Distinct tags in the project, sorted. */
  listTags(projectId: string): Promise<string[]>;
  /** Distinct aliases in the project, sorted. */
  listAliases(projectId: string): Promise<string[]>;
}

/**
 * ORDER BY terms for an objects query, with column prefix `p`. Versions created in one clock
 * tick tie on created_at, so version_index breaks the tie in the same direction.
 */
export function objectOrder(sortBy: ObjectsQuery['sortBy'], p = ''): string {
  const sorts = sortBy?.length ? sortBy : [{ field: 'created_at' as const, direction: 'asc' as const }];
  const created = sorts.find((s) => s.field === 'created_at');
  const dir = (d: SortDirection | undefined) => (d === 'desc' ? 'DESC' : 'ASC');
  return [...sorts.map((s) => `${p}${s.field} ${dir(s.direction)}`), `${p}version_index ${dir(created?.direction)}`].join(', ');
}
