/**
 * The W&B GraphQL requests of the Weave SDKs, written out as each client puts them on the wire,
 * for tests that replay the start-up request by request (docs/api/wandb-graphql.md).
 *
 * How the texts were made (a server must parse, not match strings, but it gets the real bytes):
 * - Python, current (`weave/compat/wandb/wandb_thin/internal_api.py`, gql + HTTPXTransport): gql
 *   re-prints the parsed document with graphql-core before sending. The `GQL3_*` texts are the
 *   output of graphql-core 3.2.8's `print_ast` on the literals of internal_api.py (run on the
 *   development machine); `GQL4_UPSERT_MODEL` applies graphql-core 3.3's printer rules (ported from
 *   graphql-js 17: an object value longer than 80 columns goes one field per line, and then the
 *   argument list wraps) — the other two documents are short and print the same in both.
 * - `wandb` (`wandb/sdk/internal/internal_api.py`, wandb_gql over requests): its vendored
 *   graphql-core 1.x printer keeps argument lists and object values on one line and ends the
 *   document with a newline; the body always carries `variables`, JSON with ", " and ": ".
 * - npm `weave` 0.11.1 (`dist/wandb/wandbServerApi.js`): the template literal verbatim, with
 *   `"variables": {}`, through Node's fetch.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export const GQL3_DEFAULT_ENTITY = 'query DefaultEntity {\n  viewer {\n    username\n    defaultEntity {\n      name\n    }\n  }\n}';

export const GQL3_PROJECT =
  'query Project($name: String!, $entityName: String!) {\n  project(name: $name, entityName: $entityName) {\n    name\n  }\n}';

export const GQL3_UPSERT_MODEL =
  'mutation UpsertModel($name: String!, $id: String, $entity: String!, $description: String, $repo: String) {\n' +
  '  upsertModel(\n' +
  '    input: {id: $id, name: $name, entityName: $entity, description: $description, repo: $repo}\n' +
  '  ) {\n    model {\n      name\n      description\n    }\n  }\n}';

export const GQL4_UPSERT_MODEL =
  'mutation UpsertModel($name: String!, $id: String, $entity: String!, $description: String, $repo: String) {\n' +
  '  upsertModel(\n' +
  '    input: {\n      id: $id\n      name: $name\n      entityName: $entity\n      description: $description\n      repo: $repo\n    }\n' +
  '  ) {\n    model {\n      name\n      description\n    }\n  }\n}';

export const WANDB_PROJECT_DETAILS =
  'query ProjectDetails($entity: String, $project: String) {\n' +
  '  model(name: $project, entityName: $entity) {\n    id\n    name\n    repo\n    dockerImage\n    description\n  }\n}\n';

export const WANDB_UPSERT_MODEL =
  'mutation UpsertModel($name: String!, $id: String, $entity: String!, $description: String, $repo: String) {\n' +
  '  upsertModel(input: {id: $id, name: $name, entityName: $entity, description: $description, repo: $repo}) {\n' +
  '    model {\n      name\n      description\n    }\n  }\n}\n';

/** `wandb login` checking a key (`validate_api_key`). */
export const WANDB_VIEWER_ID = '{\n  viewer {\n    id\n  }\n}\n';

export const WANDB_VIEWER =
  'query Viewer {\n  viewer {\n    id\n    entity\n    username\n    flags\n    teams {\n      edges {\n        node {\n          name\n        }\n      }\n    }\n  }\n}\n';

export const WANDB_PROBE_SERVER_CAPABILITIES =
  'query ProbeServerCapabilities {\n  QueryType: __type(name: "Query") {\n    ...fieldData\n  }\n' +
  '  MutationType: __type(name: "Mutation") {\n    ...fieldData\n  }\n' +
  '  ServerInfoType: __type(name: "ServerInfo") {\n    ...fieldData\n  }\n}\n\nfragment fieldData on __Type {\n  fields {\n    name\n  }\n}\n';

export const NPM_DEFAULT_ENTITY = `
query DefaultEntity {
    viewer {
        username
        defaultEntity {
            name
        }
    }
}
`;

/** Python's `json.dumps`: `compact` as httpx sends it (",", ":"), else the default (", ", ": ") as requests sends it. */
export function pythonJson(value: unknown, compact: boolean): string {
  const [item, key] = compact ? [',', ':'] : [', ', ': '];
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => pythonJson(v, compact)).join(item)}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}${key}${pythonJson(v, compact)}`)
    .join(item)}}`;
}

export const basicApiKey = (key: string) => `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;

/** The headers of the current Python client: httpx defaults plus gql's, no cookies. */
export const pythonHttpxHeaders = (authorization: string): [string, string][] => [
  ['Accept', '*/*'],
  ['Accept-Encoding', 'gzip, deflate, br, zstd'],
  ['Connection', 'keep-alive'],
  ['User-Agent', 'python-httpx/0.28.1'],
  ['Content-Type', 'application/json'],
  ['Authorization', authorization],
];

/** The headers of `wandb`'s InternalApi: requests defaults plus its user agent. */
export const wandbRequestsHeaders = (authorization: string): [string, string][] => [
  ['User-Agent', 'W&B Internal Client 0.19.11'],
  ['Accept-Encoding', 'gzip, deflate'],
  ['Accept', '*/*'],
  ['Connection', 'keep-alive'],
  ['Content-Type', 'application/json'],
  ['Authorization', authorization],
];

/**
 * One request with exactly these headers and body bytes, plus Host first and Content-Length last
 * (as httpx and requests send them), answered with status, content type and parsed JSON.
 */
export function sendExactly(
  url: string,
  o: { method?: 'GET' | 'POST'; headers: [string, string][]; body?: string; ca?: string },
): Promise<{ status: number; contentType: string; text: string; json: any }> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = o.body === undefined ? null : Buffer.from(o.body, 'utf8');
  // Given as a raw list, node:http sends the headers exactly as listed and adds none, Host included.
  const headers = [['Host', target.host], ...o.headers, ...(body ? [['Content-Length', String(body.length)]] : [])];
  return new Promise((resolve, reject) => {
    const req = request(target, { method: o.method ?? 'POST', headers: headers.flat(), ...(o.ca ? { ca: o.ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text, json: parseOrNull(text) });
      });
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
