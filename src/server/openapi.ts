/**
 * The OpenAPI 3.1 document, generated from the endpoint table and its zod schemas (never
 * written by hand), and a self-contained `/docs` page that renders it without any CDN.
 */
import { z } from 'zod';
import { endpoints, type EndpointDef } from '../contract/endpoints.js';
import { ReasonErrorBody, ValidationErrorBody } from '../contract/errors.js';
import { WEFT_VERSION } from './version.js';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    cycles: 'ref',
    reused: 'inline',
  }) as JsonSchema;
  return rest;
};

let cached: JsonSchema | null = null;

export function buildOpenApi(): JsonSchema {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  const errors = {
    '401': {
      description: 'Missing or wrong credentials',
      content: { 'application/json': { schema: toSchema(ReasonErrorBody, 'output') } },
    },
    '403': {
      description: "The caller's role in a project the request touches is below the endpoint's (the reason names the role needed)",
      content: { 'application/json': { schema: toSchema(ReasonErrorBody, 'output') } },
    },
    '422': { description: 'Validation error', content: { 'application/json': { schema: toSchema(ValidationErrorBody, 'output') } } },
  };
  for (const [name, e] of Object.entries(endpoints) as [string, EndpointDef][]) {
    const path = e.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const pathParams = [...e.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
    const reqSchema = toSchema(e.req, 'input');
    const props = (reqSchema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((reqSchema.required as string[] | undefined) ?? []);
    const inQuery = e.method === 'GET' || e.method === 'DELETE';
    const parameters = Object.entries(props)
      .filter(([k]) => inQuery || pathParams.includes(k))
      .map(([k, schema]) => ({
        name: k,
        in: pathParams.includes(k) ? 'path' : 'query',
        required: pathParams.includes(k) || required.has(k),
        schema,
      }));
    const operation: Record<string, unknown> = {
      operationId: name,
      summary: e.summary,
      tags: [e.group],
      ...(parameters.length ? { parameters } : {}),
      responses: {
        '200': {
          description: e.stream ? 'Newline-delimited JSON, one object per line' : 'Success',
          content: { [e.stream ? 'application/jsonl' : 'application/json']: { schema: toSchema(e.res, 'output') } },
        },
        // GraphQL answers a bad key in its own format (a GraphQL `errors` body), not `{reason}`.
        ...(e.public
          ? {}
          : e.auth === 'handler'
            ? {
                '401': {
                  description: 'Missing or wrong credentials',
                  content: { 'application/json': { schema: toSchema(e.res, 'output') } },
                },
              }
            : errors),
      },
      ...(e.public ? { security: [] } : {}),
    };
    if (e.body === 'binary') {
      // OTLP exports: protobuf or OTLP/JSON bytes, optionally gzip/deflate encoded.
      const bytes = { schema: { type: 'string', format: 'binary' } };
      operation.requestBody = { required: true, content: { 'application/x-protobuf': bytes, 'application/json': bytes } };
    } else if (e.body === 'multipart') {
      // File uploads: form fields, the file part as bytes.
      const schema = { ...reqSchema, properties: { ...props, file: { type: 'string', format: 'binary' } } };
      operation.requestBody = { required: true, content: { 'multipart/form-data': { schema } } };
    } else if (!inQuery) operation.requestBody = { required: true, content: { 'application/json': { schema: reqSchema } } };
    (paths[path] ??= {})[e.method.toLowerCase()] = operation;
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Weft',
      version: WEFT_VERSION,
      description:
        'Tracing and evaluation service for LLM applications, wire-compatible with the W&B Weave trace server. ' +
        'Every trace-server path is also served under /traces (the trace URL the Weave SDKs derive from WANDB_BASE_URL); ' +
        'the Weft and W&B groups are not.',
    },
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: '`user:password`, or `api:<api key>` (what the Weave SDKs send)' },
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key' },
        session: { type: 'apiKey', in: 'cookie', name: 'weft_session', description: "The dashboard's session, from POST /weft/session" },
      },
    },
    security: [{ basic: [] }, { bearer: [] }, { session: [] }],
    paths,
  };
  return cached;
}

/** A readable, dependency-free rendering of the OpenAPI document. */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Weft API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
 body{font:14px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
 header{padding:16px 32px;border-bottom:1px solid #d0d7de} main{padding:16px 32px;max-width:1100px}
 h2{margin-top:32px;font-size:18px} details{border:1px solid #d0d7de;border-radius:6px;margin:8px 0;padding:6px 12px}
 summary{cursor:pointer} code,pre{font:12px ui-monospace,monospace} pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:400px}
 .m{display:inline-block;min-width:56px;font-weight:600} .GET{color:#0969da}.POST{color:#1a7f37}.PUT{color:#9a6700}.DELETE{color:#cf222e}
 @media (prefers-color-scheme: dark){body{background:#0d1117;color:#e6edf3}pre{background:#161b22}details,header{border-color:#30363d}}
</style></head>
<body><header><strong>Weft API</strong> — <a href="/openapi.json">openapi.json</a>. Authenticate with HTTP Basic: <code>user:password</code> or <code>api:&lt;api key&gt;</code>, or <code>Authorization: Bearer &lt;api key&gt;</code>.</header>
<main id="root">Loading…</main>
<script>
fetch('/openapi.json').then(r=>r.json()).then(doc=>{
  const groups={};
  for(const [path,ops] of Object.entries(doc.paths))for(const [m,op] of Object.entries(ops))(groups[op.tags[0]]??=[]).push({path,m:m.toUpperCase(),op});
  const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const root=document.getElementById('root');root.innerHTML='<p>'+esc(doc.info.description)+' Version '+esc(doc.info.version)+'.</p>';
  for(const [g,list] of Object.entries(groups)){
    root.insertAdjacentHTML('beforeend','<h2>'+esc(g)+'</h2>');
    for(const {path,m,op} of list){
      const body=op.requestBody?'<h4>Request body</h4><pre>'+esc(JSON.stringify((op.requestBody.content['application/json']||Object.values(op.requestBody.content)[0]).schema,null,2))+'</pre>':'';
      const params=op.parameters?'<h4>Parameters</h4><pre>'+esc(JSON.stringify(op.parameters,null,2))+'</pre>':'';
      const res=Object.entries(op.responses['200'].content)[0];
      root.insertAdjacentHTML('beforeend','<details><summary><span class="m '+m+'">'+m+'</span><code>'+esc(path)+'</code> — '+esc(op.summary)+(op.security?' <em>(public)</em>':'')+'</summary>'+params+body+'<h4>Response ('+esc(res[0])+')</h4><pre>'+esc(JSON.stringify(res[1].schema,null,2))+'</pre></details>');
    }
  }
});
</script></body></html>`;
}
