/**
 * Refs a request names (an evaluation's dataset, a run's model, a score's scorer) checked
 * before anything is written: a malformed ref, or one into another project, is a 400 (its
 * project's access was never checked); a version that is missing or deleted is a 404.
 */
import { BadRequestError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { requireLiveVersion } from '../objects/objects.js';
import { isRefString, parseRef } from '../objects/refs.js';

export interface LiveRef {
  kind: 'object' | 'op';
  name: string;
  digest: string;
}

/** The parsed ref of a live object or op version of `projectId`. */
export async function requireLiveRef(
  store: Store,
  req: { projectId: string; ref: string; field: string; kinds?: LiveRef['kind'][] },
): Promise<LiveRef> {
  const kinds = req.kinds ?? ['object', 'op'];
  const parsed = parseRef(req.ref);
  if ((parsed.kind !== 'object' && parsed.kind !== 'op') || !kinds.includes(parsed.kind) || parsed.extra.length) {
    throw new BadRequestError(`${req.field} must be ${kinds.map((k) => `an ${k}`).join(' or ')} ref, not ${req.ref}`);
  }
  if (parsed.projectId !== req.projectId) {
    throw new BadRequestError(`${req.field} ${req.ref} is not in project ${req.projectId}`);
  }
  await requireLiveVersion(store, { projectId: req.projectId, objectId: parsed.name, version: parsed.digest });
  return { kind: parsed.kind, name: parsed.name, digest: parsed.digest };
}

/**
 * A `weave:///` ref checked as `requireLiveRef` checks it; any other string is an opaque label,
 * kept as given (null). The reference stores a run's evaluation and a prediction's model
 * verbatim, whatever they hold, and its own tests name them `eval://a`, `model://a`
 * (docs/reference/shapes.md).
 */
export async function liveRefOrLabel(
  store: Store,
  req: { projectId: string; ref: string; field: string; kinds?: LiveRef['kind'][] },
): Promise<LiveRef | null> {
  return isRefString(req.ref) ? requireLiveRef(store, req) : null;
}
