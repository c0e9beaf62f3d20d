/**
 * Hostile requests for every operation of the server's own OpenAPI document, as fast-check
 * arbitraries: a plausible request built from the operation's schema, then one nasty twist
 * (a wrong type, a missing field, deep nesting, a huge list, NUL, invalid UTF-8, a path
 * trick, an odd Content-Type, a body that is not JSON). Used by hostileFuzz.test.ts.
 */
import fc from 'fast-check';

type Schema = Record<string, unknown>;

/** One operation of the OpenAPI document, reduced to what building a request needs. */
export interface FuzzOperation {
  id: string;
  method: string;
  /** `/calls/{id}` style. */
  path: string;
  pathParams: string[];
  queryParams: { name: string; schema: Schema }[];
  body: { kind: 'json'; schema: Schema } | { kind: 'multipart'; schema: Schema } | { kind: 'binary' } | null;
}

/** A request ready for fetch (path relative to the server). */
export interface FuzzRequest {
  operation: string;
  twist: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | FormData | null;
}

/** Every operation of an OpenAPI 3.1 document. */
export function operationsOf(doc: { paths: Record<string, Record<string, Schema>> }): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []) as { name: string; in: string; schema: Schema }[];
      const content = ((op.requestBody as Schema | undefined)?.content ?? null) as Record<string, { schema: Schema }> | null;
      const body: FuzzOperation['body'] = !content
        ? null
        : content['multipart/form-data']
          ? { kind: 'multipart', schema: content['multipart/form-data'].schema }
          : content['application/x-protobuf']
            ? { kind: 'binary' }
            : { kind: 'json', schema: content['application/json']!.schema };
      out.push({
        id: String(op.operationId),
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        body,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// A plausible value for a JSON schema: required fields filled, the first choice of a union.
// ---------------------------------------------------------------------------------------

export interface Plausible {
  projectId: string;
  entity: string;
  project: string;
}

function plausible(schema: Schema | undefined, root: Schema, ctx: Plausible, key: string, depth = 0): unknown {
  if (!schema || depth > 12) return null;
  if (typeof schema.$ref === 'string') return plausible(resolveRef(root, schema.$ref), root, ctx, key, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (choices) return plausible(choices.find((c) => c.type !== 'null') ?? choices[0], root, ctx, key, depth + 1);
  if (Array.isArray(schema.allOf)) return plausible(schema.allOf[0] as Schema, root, ctx, key, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries(props)) if (required.has(k)) out[k] = plausible(s, root, ctx, k, depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'string':
      if (key === 'project_id') return ctx.projectId;
      if (key === 'entity') return ctx.entity;
      if (key === 'project') return ctx.project;
      if (schema.format === 'date-time' || /_at$|datetime/.test(key)) return '2024-01-01T00:00:00Z';
      return 'x';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) at = (at as Record<string, unknown> | undefined)?.[part];
  return at as Schema | undefined;
}

// ---------------------------------------------------------------------------------------
// Twists.
// ---------------------------------------------------------------------------------------

const deepText = (depth: number, open: string, close: string, leaf: string) => open.repeat(depth) + leaf + close.repeat(depth);

/** Values of the wrong type, or nasty values of the right one. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, 0, -1, 1e308, -1e308, 2 ** 63, 0.5, '', 'x'.repeat(100_000), [], {}, [null], { $expr: {} }),
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '..',
    '../../etc/passwd',
    '%00',
    '\uD800',
    '\uFFFF',
    '💥'.repeat(100),
    ' ',
    '*',
    "'; DROP TABLE calls; --",
  ),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

const hugeList: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  Array.from({ length: 50_000 }, (_, i) => `id-${i}`),
  Array.from({ length: 20_000 }, () => ({ x: 1 })),
  Array.from({ length: 50_000 }, () => null),
);

const PATH_TRICKS = [
  '..',
  '%2e%2e',
  '%00',
  'a%00b',
  '%ff%fe',
  'x'.repeat(5_000),
  '%2F..%2F..',
  '.',
  '~',
  '%20',
  '%25',
  '%F0%9F%92%A5',
  'null',
  'a;b',
  "'",
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/x-protobuf',
  '',
  ';;;',
];

const NOT_JSON = ['', '{', '[]', 'null', '"str"', '1e999', '{"a":1,"a":2}', '\u0000', '{"__proto__":{"x":1}}', 'x'.repeat(10_000)];

type Twist =
  | { kind: 'plain' }
  | { kind: 'drop' }
  | { kind: 'wrongType'; value: unknown }
  | { kind: 'nul' }
  | { kind: 'deep'; depth: number; array: boolean }
  | { kind: 'hugeList'; value: unknown }
  | { kind: 'invalidUtf8' }
  | { kind: 'contentType'; value: string }
  | { kind: 'notJson'; text: string }
  | { kind: 'pathTrick'; value: string };

const twist: fc.Arbitrary<Twist> = fc.oneof(
  fc.constant<Twist>({ kind: 'plain' }),
  fc.constant<Twist>({ kind: 'drop' }),
  nastyValue.map((value): Twist => ({ kind: 'wrongType', value })),
  fc.constant<Twist>({ kind: 'nul' }),
  fc.record({ depth: fc.constantFrom(300, 600, 1_100, 5_000), array: fc.boolean() }).map((d): Twist => ({ kind: 'deep', ...d })),
  hugeList.map((value): Twist => ({ kind: 'hugeList', value })),
  fc.constant<Twist>({ kind: 'invalidUtf8' }),
  fc.constantFrom(...CONTENT_TYPES).map((value): Twist => ({ kind: 'contentType', value })),
  fc.constantFrom(...NOT_JSON).map((text): Twist => ({ kind: 'notJson', text })),
  fc.constantFrom(...PATH_TRICKS).map((value): Twist => ({ kind: 'pathTrick', value })),
);

/** A hostile request for one of `operations`: operation, twist, and which field it hits. */
export function hostileRequest(operations: FuzzOperation[], ctx: Plausible, authorization: string): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ op: fc.constantFrom(...operations), twist, pick: fc.nat() })
    .map(({ op, twist: t, pick }) => build(op, t, pick, ctx, authorization));
}

/**
 * The deterministic part of the sweep: for every operation, each top-level body field nested
 * 5,000 deep (past every depth any parser or backend handles), and each path parameter as `%00`.
 */
export function sweepRequests(operations: FuzzOperation[], ctx: Plausible, authorization: string): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (const op of operations) {
    if (op.body?.kind === 'json' || op.body?.kind === 'multipart') {
      const keys = Object.keys(plausible(op.body.schema, op.body.schema, ctx, '') as Record<string, unknown>);
      for (let i = 0; i < Math.max(1, keys.length); i++)
        out.push(build(op, { kind: 'deep', depth: 5_000, array: i % 2 === 1 }, i, ctx, authorization));
    }
    for (let i = 0; i < op.pathParams.length; i++) out.push(build(op, { kind: 'pathTrick', value: '%00' }, i, ctx, authorization));
  }
  return out;
}

function build(op: FuzzOperation, t: Twist, pick: number, ctx: Plausible, authorization: string): FuzzRequest {
  const headers: Record<string, string> = { authorization };
  // Path: plausible values, or one of them replaced by a trick (sent raw, not re-encoded).
  const pathValues: Record<string, string> = { entity: ctx.entity, project: ctx.project };
  const trickAt = t.kind === 'pathTrick' && op.pathParams.length ? op.pathParams[pick % op.pathParams.length] : null;
  const path = op.path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) =>
    name === trickAt ? (t as { value: string }).value : encodeURIComponent(pathValues[name] ?? `fuzz-${name}`),
  );
  // Query string: plausible values, the twist applied to one of them.
  const query = new URLSearchParams();
  op.queryParams.forEach((p, i) => {
    const value = plausible(p.schema, p.schema, ctx, p.name);
    let text = value === null || typeof value === 'object' ? '' : String(value);
    if (i === pick % Math.max(1, op.queryParams.length)) {
      if (t.kind === 'wrongType') text = typeof t.value === 'string' ? t.value : (JSON.stringify(t.value) ?? '');
      if (t.kind === 'nul') text += '\u0000';
      if (t.kind === 'pathTrick') text = t.value;
      if (t.kind === 'drop') return;
    }
    query.append(p.name, text);
  });
  const qs = query.toString();
  const fullPath = qs ? `${path}?${qs}` : path;
  const req: FuzzRequest = { operation: op.id, twist: t.kind, method: op.method, path: fullPath, headers, body: null };
  if (!op.body) return req;

  if (op.body.kind === 'binary') {
    headers['content-type'] = t.kind === 'contentType' ? t.value : pick % 2 ? 'application/json' : 'application/x-protobuf';
    if (t.kind === 'notJson') req.body = utf8(t.text);
    else if (t.kind === 'deep') req.body = utf8(`{"resourceSpans":${deepText(t.depth, '[', ']', '1')}}`);
    else req.body = new Uint8Array(Array.from({ length: (pick % 64) + 1 }, (_, i) => (i * 37 + pick) % 256));
    return req;
  }

  const value = plausible(op.body.schema, op.body.schema, ctx, '') as Record<string, unknown>;
  if (op.body.kind === 'multipart') {
    // Form fields are text: the twist becomes the text of one field.
    const form = new FormData();
    const keys = Object.keys(value).filter((k) => k !== 'file');
    const key = keys.length ? keys[pick % keys.length]! : 'x';
    for (const [k, v] of Object.entries(value)) if (k !== 'file') form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    if (t.kind === 'drop') form.delete(key);
    if (t.kind === 'wrongType' || t.kind === 'hugeList') form.set(key, typeof t.value === 'string' ? t.value : JSON.stringify(t.value));
    if (t.kind === 'nul') form.set(key, `${form.get(key) ?? ''}\u0000`);
    if (t.kind === 'deep') form.set(key, deepText(t.depth, '[', ']', '1'));
    if (t.kind !== 'drop')
      form.set('file', new Blob([t.kind === 'invalidUtf8' ? new Uint8Array([0xff, 0xfe, 0x00]) : utf8('hello')]), 'f.txt');
    req.body = t.kind === 'notJson' ? utf8(t.text) : form;
    if (t.kind === 'contentType' || t.kind === 'notJson')
      headers['content-type'] = t.kind === 'contentType' ? t.value : 'multipart/form-data';
    return req;
  }
  const text = applyTwist(value, t, pick);
  req.body = text.bytes ?? utf8(text.text);
  if (t.kind === 'contentType') {
    if (t.value) headers['content-type'] = t.value;
  } else if (pick % 3 !== 0) headers['content-type'] = 'application/json';
  return req;
}

/** The JSON body text (or bytes) with the twist applied to one field. */
function applyTwist(value: Record<string, unknown>, t: Twist, pick: number): { text: string; bytes?: Uint8Array } {
  const keys = Object.keys(value);
  const key = keys.length ? keys[pick % keys.length]! : 'x';
  switch (t.kind) {
    case 'drop':
      delete value[key];
      return { text: JSON.stringify(value) };
    case 'wrongType':
      return { text: JSON.stringify({ ...value, [key]: t.value }) };
    case 'nul':
      return { text: JSON.stringify(withNul(value)) };
    case 'hugeList':
      return { text: JSON.stringify({ ...value, [key]: t.value }) };
    case 'deep': {
      // Built as text: JSON.stringify of something 5,000 deep would overflow here too.
      const deep = t.array ? deepText(t.depth, '[', ']', '1') : deepText(t.depth, '{"a":', '}', '1');
      const rest = JSON.stringify({ ...value, [key]: 0 });
      return { text: rest.replace(`"${key}":0`, `"${key}":${deep}`) };
    }
    case 'invalidUtf8': {
      const text = JSON.stringify({ ...value, [key]: 'AB' });
      const bytes = utf8(text);
      const at = text.indexOf('"AB"') + 1;
      // 0xC3 0x28 and 0xFF are not UTF-8.
      return { text, bytes: new Uint8Array([...bytes.slice(0, at), 0xc3, 0x28, 0xff, ...bytes.slice(at)]) };
    }
    case 'notJson':
      return { text: JSON.stringify(value), bytes: utf8(t.text) };
    default:
      return { text: JSON.stringify(value) };
  }
}

/** Every string in the value with a NUL inside. */
function withNul(v: unknown): unknown {
  if (typeof v === 'string') return `${v}\u0000${v}`;
  if (Array.isArray(v)) return v.map(withNul);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withNul(x)]));
  return v;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
