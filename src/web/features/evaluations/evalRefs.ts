/**
 * Names for the refs evaluation runs carry (`weave:///<entity>/<project>/object/<name>:<digest>`,
 * or `/op/` for a model that is an op, as TS-SDK models are): `quiz-eval:v2` where the version
 * index is known, else `quiz-eval:1a2b3c4d`. Parsing is lib/refs.ts's.
 */
import { objectRef, parseRef, refHref, shortDigest } from '../../lib/refs.js';

/** The object or op a ref names; null for anything else. */
function target(ref: string | null | undefined): { name: string; digest: string; href: string } | null {
  const parsed = ref ? parseRef(ref) : null;
  return parsed && (parsed.kind === 'object' || parsed.kind === 'op')
    ? { name: parsed.name, digest: parsed.digest, href: refHref(parsed) }
    : null;
}

/** The name inside a ref (`quiz-eval`), or the ref itself when it is not an object or op ref. */
export function refName(ref: string | null | undefined): string {
  return target(ref)?.name ?? (ref || '—');
}

/** `name:v3` when the version index is known, else `name:<short digest>`. */
export function refLabel(ref: string | null | undefined, versionIndex?: number): string {
  const t = target(ref);
  if (!t) return ref || '—';
  return `${t.name}:${versionIndex !== undefined ? `v${versionIndex}` : shortDigest(t.digest)}`;
}

/** Where a ref opens (the object page at that version); null when it is not an object or op ref. */
export function refPage(ref: string | null | undefined): string | null {
  return target(ref)?.href ?? null;
}

/** Version indexes by ref, from v2 list lines (every version of every object of a kind). */
export function versionIndexByRef(
  projectId: string,
  versions: readonly { object_id: string; digest: string; version_index: number }[],
): Map<string, number> {
  return new Map(versions.map((v) => [objectRef({ projectId, kind: 'object', name: v.object_id, digest: v.digest }), v.version_index]));
}
