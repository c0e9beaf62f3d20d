/**
 * `weave:///` ref URIs in the dashboard (docs/api/core.md §2 "Ref URI grammar"): parsing them,
 * saying what they name in a few characters, and where in the dashboard each one opens.
 *
 *   weave:///<entity>/<project>/object/<name>:<digest>[/<edge>/<value>]*   (also `op`)
 *   weave:///<entity>/<project>/table/<digest>[/id/<row digest>]
 *   weave:///<entity>/<project>/call/<call id>
 *
 * Edge values are percent-encoded; `+` also reads as a space, as the server's parser does.
 */

/** The kinds of extra path step a ref may carry after its target. */
export type RefEdgeName = 'key' | 'attr' | 'index' | 'id';

/** One extra path step: `attr/rows`, `key/model`, `index/3`, `id/<row digest>`. */
export interface RefEdge {
  edge: RefEdgeName;
  value: string;
}

interface RefBase {
  entity: string;
  project: string;
  extra: RefEdge[];
}

/** A parsed ref. */
export type WeaveRef =
  | (RefBase & { kind: 'object' | 'op'; name: string; digest: string })
  | (RefBase & { kind: 'table'; digest: string })
  | (RefBase & { kind: 'call'; id: string });

const PREFIX = 'weave:///';
const EDGES: readonly string[] = ['key', 'attr', 'index', 'id'];

/** True for strings that look like refs (cheap: a prefix test, for every JSON leaf). */
export function isRefString(value: unknown): value is `weave:///${string}` {
  return typeof value === 'string' && value.startsWith(PREFIX) && value.length < 2048;
}

function unquote(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Extra path segments as edge/value pairs, or null when they are not well formed. */
export function parseEdges(segments: readonly string[]): RefEdge[] | null {
  if (segments.length % 2 !== 0) return null;
  const edges: RefEdge[] = [];
  for (let i = 0; i < segments.length; i += 2) {
    const edge = segments[i]!;
    const value = unquote(segments[i + 1]!);
    if (!EDGES.includes(edge) || value === null) return null;
    if (edge === 'index' && !/^-?\d+$/.test(value)) return null;
    edges.push({ edge: edge as RefEdgeName, value });
  }
  return edges;
}

/** Parses a ref; null when the string is not a well-formed `weave:///` ref. */
export function parseRef(uri: string): WeaveRef | null {
  if (!isRefString(uri)) return null;
  const parts = uri.slice(PREFIX.length).split('/');
  if (parts.length < 4) return null;
  const [entity, project, kind, head, ...rest] = parts as [string, string, string, string, ...string[]];
  if (!entity || !project || !head) return null;
  // A trailing slash leaves one empty segment, which the server ignores too.
  const extra = parseEdges(rest.length === 1 && rest[0] === '' ? [] : rest);
  if (!extra) return null;
  if (kind === 'table') return { kind, entity, project, digest: head, extra };
  if (kind === 'call') return { kind, entity, project, id: head, extra };
  if (kind !== 'object' && kind !== 'op') return null;
  const [rawName, digest, ...more] = head.split(':');
  const name = rawName ? unquote(rawName) : null;
  if (!name || !digest || more.length) return null;
  return { kind, entity, project, name, digest, extra };
}

/** `attr/rows/index/3`: edges in the ref's own form (values percent-encoded). */
export function formatEdges(edges: readonly RefEdge[]): string {
  return edges.map((e) => `${e.edge}/${encodeURIComponent(e.value)}`).join('/');
}

/** Edges as a readable path: `rows[3].name`, with `#<row>` for table rows. */
export function describeEdges(edges: readonly RefEdge[]): string {
  let out = '';
  for (const e of edges) {
    if (e.edge === 'index') out += `[${e.value}]`;
    else if (e.edge === 'id') out += `#${e.value.slice(0, 8)}`;
    else out += `${out ? '.' : ''}${e.value}`;
  }
  return out;
}

/** The first characters of a digest, enough to tell versions apart at a glance. */
export function shortDigest(digest: string): string {
  return digest.length > 8 ? digest.slice(0, 8) : digest;
}

const seg = encodeURIComponent;

/**
 * Where a ref opens in the dashboard: objects and ops on their page at that version (extra
 * edges as `path=`), tables on their rows page (a row edge as `row=`), calls in their trace
 * (through `/calls/:id`, which finds the trace).
 */
export function refHref(ref: WeaveRef): string {
  const base = `/${seg(ref.entity)}/${seg(ref.project)}`;
  if (ref.kind === 'call') return `${base}/calls/${seg(ref.id)}`;
  if (ref.kind === 'table') {
    const row = ref.extra[0]?.edge === 'id' ? ref.extra[0].value : null;
    return `${base}/tables/${seg(ref.digest)}${row ? `?row=${seg(row)}` : ''}`;
  }
  const params = new URLSearchParams({ version: ref.digest });
  if (ref.extra.length) params.set('path', formatEdges(ref.extra));
  return `${base}/objects/${seg(ref.name)}?${params}`;
}

/** The ref of an object or op version, as the server writes it. */
export function objectRef({
  projectId,
  kind,
  name,
  digest,
}: {
  projectId: string;
  kind: 'object' | 'op';
  name: string;
  digest: string;
}): string {
  return `${PREFIX}${projectId}/${kind}/${seg(name)}:${digest}`;
}

/** The ref of a table. */
export function tableRef({ projectId, digest }: { projectId: string; digest: string }): string {
  return `${PREFIX}${projectId}/table/${digest}`;
}
