/**
 * Content digests, computed exactly as the Weave SDKs and reference servers do
 * (docs/api/core.md §2 "Digest algorithm"), so a ref made by a client names the same bytes here.
 *
 * Key order: the newest shared helper (weave/shared/digest.py) hashes `json.dumps(val,
 * sort_keys=True)`; older servers hashed in insertion order. We sort, because newest clients
 * send an `expected_digest` computed that way and older clients accept whatever digest the
 * server answers.
 */
import { createHash, hash } from 'node:crypto';
import { toPythonJson, type LosslessValue } from './losslessJson.js';

/** SHA-256, URL-safe base64 with `-`→`X`, `_`→`Y` and no padding: 43 chars of [A-Za-z0-9]. */
export function bytesDigest(data: Uint8Array | string): string {
  // One-shot hashing: several times faster than createHash for the many small rows of a table.
  return encodeDigest(hash('sha256', data, 'buffer'));
}

/** Formats a finished SHA-256 hash the way `bytesDigest` does (for incremental hashing). */
export function encodeDigest(hash: Buffer): string {
  return hash.toString('base64url').replace(/-/g, 'X').replace(/_/g, 'Y');
}

/** The digest of an object's (processed) value, or of a table row. */
export function valueDigest(value: LosslessValue): string {
  return bytesDigest(toPythonJson(value));
}

/** Lowercase hex SHA-256 of the row digests concatenated in table order. */
export function tableDigest(rowDigests: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const d of rowDigests) hash.update(d);
  return hash.digest('hex');
}

/** A content digest (as opposed to `latest`, `v3` or an alias name). */
export const isContentDigest = (s: string): boolean => /^[A-Za-z0-9]{43}$/.test(s);
