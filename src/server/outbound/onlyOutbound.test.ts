/**
 * The outbound client is the only way server code opens a connection (docs/security/outbound.md):
 * no global `fetch(`, no `request`/`get`/`Agent` from node:http(s), no sockets from node:net or
 * node:tls, no undici, anywhere in src/server but outbound/ itself, tests and testing/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** Files whose matches are not the server fetching anything, each with why. */
const EXCEPTIONS: Record<string, string> = {
  'openapi.ts': "the /docs page's own script, run by the browser against this server",
  'demo/demoScenarios.ts': 'Python source shown as demo trace data',
  'store/clickhouse/ClickHouseDatabase.ts':
    "the liveness ping of the operator's own ClickHouse (WEFT_CLICKHOUSE_URL), beside the client's pool; never a user-chosen address",
};

const FORBIDDEN_IMPORTS = new Set(['request', 'get', 'Agent', 'globalAgent', 'connect', 'createConnection', 'Socket']);

/** Where a source text opens connections other than through the outbound client. */
export function outboundViolations(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?<![.\w$#])fetch\s*\(/g)) found.push(`fetch( at offset ${m.index}`);
  for (const m of text.matchAll(/\b(?:http|https|net|tls)\.(?:request|get|connect|createConnection)\s*\(/g)) found.push(m[0]);
  for (const m of text.matchAll(/import\s+(type\s+)?([^'";]*?)\s+from\s+['"](?:node:)?(http|https|http2|net|tls|undici)['"]/g)) {
    const [, typeOnly, clause = '', module] = m;
    if (typeOnly) continue;
    if (module === 'undici' || module === 'http2') {
      found.push(`import from ${module}`);
      continue;
    }
    if (!clause.trim().startsWith('{')) {
      found.push(`import ${clause.trim()} from ${module}`);
      continue;
    }
    for (const spec of clause.replace(/[{}]/g, '').split(',')) {
      const name = spec
        .trim()
        .split(/\s+as\s+/)[0]!
        .trim();
      if (name && !name.startsWith('type ') && FORBIDDEN_IMPORTS.has(name)) found.push(`${name} from ${module}`);
    }
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' || e.name === 'outbound' ? [] : sources(path);
    return /\.(ts|mts|js|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : [];
  });
}

describe('outbound requests', () => {
  it('go only through src/server/outbound/', () => {
    const offenders = sources(ROOT)
      .map((file) => ({ file: relative(ROOT, file), found: outboundViolations(readFileSync(file, 'utf8')) }))
      .filter(({ file, found }) => found.length > 0 && !(file in EXCEPTIONS));
    expect(offenders).toEqual([]);
  });

  it('are found in every form the rule forbids', () => {
    expect(outboundViolations('const r = await fetch(url);')).toHaveLength(1);
    expect(outboundViolations('http.request(url, cb); https.get(url)')).toHaveLength(2);
    expect(outboundViolations("import { request as send } from 'node:https';")).toEqual(['request from https']);
    expect(outboundViolations("import { connect } from 'node:net';")).toEqual(['connect from net']);
    expect(outboundViolations("import * as http from 'http';")).toEqual(['import * as http from http']);
    expect(outboundViolations("import { Agent } from 'undici';")).toEqual(['import from undici']);
    // In-process dispatch and types are not connections.
    expect(outboundViolations("await app.fetch(request); import type { IncomingMessage } from 'node:http';")).toEqual([]);
    expect(outboundViolations("import { createServer, type Server } from 'node:http';")).toEqual([]);
  });
});
