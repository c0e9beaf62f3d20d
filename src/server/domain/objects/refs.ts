/**
 * `weave:///` ref URIs (docs/api/core.md §2 "Ref URI grammar"), parsed and formatted the way
 * weave's refs_internal does:
 *
 *   weave:///<entity>/<project>/object/<name>:<digest>[/<edge>/<value>]*   (also `op`)
 *   weave:///<entity>/<project>/table/<digest>[/id/<row digest>...]
 *   weave:///<entity>/<project>/call/<call id>
 *
 * Edges are `key`, `attr`, `index` (an integer) and `id` (a table row digest). Names and edge
 * values are percent-encoded (`+` also reads as a space, as Python's unquote_plus does).
 */
import { BadRequestError } from '../../errors.js';

export const EDGE_NAMES = ['key', 'attr', 'index', 'id'] as const;
export type Edge = (typeof EDGE_NAMES)[number];

export type WeaveRef =
  | { kind: 'object' | 'op'; projectId: string; name: string; digest: string; extra: string[] }
  | { kind: 'table'; projectId: string; digest: string; extra: string[] }
  | { kind: 'call'; projectId: string; id: string; extra: string[] };

const PREFIX = 'weave:///';

export const isRefString = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

/** Parses a ref URI; 400 with the reason when it is not one. */
export function parseRef(uri: string): WeaveRef {
  if (!uri.startsWith(PREFIX)) throw invalid(uri, `must start with ${PREFIX}`);
  const parts = uri.slice(PREFIX.length).split('/');
  if (parts.length < 4) throw invalid(uri, 'expected <entity>/<project>/<kind>/<name>');
  const [entity, project, kind, head, ...rest] = parts as [string, string, string, string, ...string[]];
  if (!entity || !project) throw invalid(uri, 'entity and project must not be empty');
  const projectId = `${entity}/${project}`;
  // A trailing slash leaves one empty segment, which the reference ignores.
  const extra = (rest.length === 1 && rest[0] === '' ? [] : rest).map((p) => unquote(uri, p));
  validateExtra(uri, extra);
  if (kind === 'table') return { kind, projectId, digest: head, extra };
  if (kind === 'call') return { kind, projectId, id: head, extra };
  if (kind !== 'object' && kind !== 'op') throw invalid(uri, `unknown ref kind "${kind}"`);
  const nameAndDigest = head.split(':');
  if (nameAndDigest.length !== 2 || !nameAndDigest[0] || !nameAndDigest[1]) throw invalid(uri, 'expected <name>:<digest>');
  return { kind, projectId, name: unquote(uri, nameAndDigest[0]), digest: nameAndDigest[1], extra };
}

/** Formats an object or op ref, percent-encoding the name and edge values. */
export function formatObjectRef(ref: { kind: 'object' | 'op'; projectId: string; name: string; digest: string; extra?: string[] }): string {
  const extra = (ref.extra ?? []).map((e) => `/${quote(e)}`).join('');
  return `${PREFIX}${ref.projectId}/${ref.kind}/${quote(ref.name)}:${ref.digest}${extra}`;
}

/** Pairs of a known edge name and its value; `index` values must be integers. */
function validateExtra(uri: string, extra: string[]): void {
  if (extra.length % 2 !== 0) throw invalid(uri, 'extra path must be edge/value pairs');
  for (let i = 0; i < extra.length; i += 2) {
    if (!(EDGE_NAMES as readonly string[]).includes(extra[i]!)) throw invalid(uri, `unknown edge "${extra[i]}"`);
    if (extra[i] === 'index' && !/^-?\d+$/.test(extra[i + 1]!)) throw invalid(uri, `index "${extra[i + 1]}" is not an integer`);
  }
}

/** Every character but letters, digits and `_.-~` escaped (Python's `quote(s, safe="")`). */
function quote(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function unquote(uri: string, s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw invalid(uri, `bad percent-encoding in "${s}"`);
  }
}

const invalid = (uri: string, why: string) => new BadRequestError(`Invalid ref ${JSON.stringify(uri)}: ${why}`);
