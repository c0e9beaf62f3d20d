/**
 * Serves the dashboard, the single-page app Vite builds into dist/, at `/`. Mounted after every
 * API route, so it only sees requests no endpoint took:
 *
 * - a file under dist/ is served as itself, with its content type, from memory once read (up to
 *   1 MB). `/assets/*` names carry a content hash, so they are cached for a year; anything else
 *   is revalidated (ETag). When the build wrote a brotli or gzip copy beside it
 *   (scripts/precompressPlugin.ts) and the client accepts that encoding, the copy is sent;
 * - any other GET that asks for HTML and is not an API path gets index.html, so a reload on a
 *   client-side route (`/calls`, `/p/acme/bot/calls?x=1`) lands in the app; a trace page's
 *   HTML carries the first screen of its outline for the signed-in user (traceFirstScreen.ts);
 * - everything else falls through to the JSON 404, so API clients never receive HTML.
 *
 * An HTML file's inline scripts (index.html's boot script, inlined by the build:
 * scripts/inlineBootPlugin.ts) are allowed by their hash in its Content-Security-Policy, and no
 * other inline script is.
 *
 * The URL path is decoded one segment at a time; `..`, encoded slashes, backslashes and NUL are
 * refused with 400, and the file found must resolve (symlinks included) inside dist/. Without a
 * build, HTML requests get a short page saying how to make one.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, extname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { Context, Hono, Next } from 'hono';
import { endpoints } from '../../contract/endpoints.js';
import { PROJECT_ROOT } from './dashboardBuild.js';
import { isTraceServerEndpoint, TRACE_PREFIX } from '../http/defineRoutes.js';
import { BadRequestError } from '../errors.js';
import { contentSecurityPolicy, inlineScriptHashes } from '../http/securityHeaders.js';
import { NOT_STARTED, type RequestThreads } from '../threads/requestThreads.js';
import { mayCarryFirstScreen, traceFirstScreen } from './traceFirstScreen.js';

/** How long a trace page waits for a read thread to read its first screen (traceFirstScreen.ts). */
const FIRST_SCREEN_START_MS = 100;

/** Where `vite build` writes the app (vite.config.ts `build.outDir`). */
export const DEFAULT_DIST_DIR = join(PROJECT_ROOT, 'dist');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

const HASHED_CACHE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const pathPattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);

/**
 * Paths the API owns: every endpoint of the table, the trace-server ones also under `/traces`
 * (only those exact paths: `/traces/<project>/calls` stays a dashboard page of an entity named
 * "traces"), plus the OpenAPI document and docs page.
 */
const API_PATHS = [
  ...Object.values(endpoints).map((e) => pathPattern(e.path)),
  ...Object.values(endpoints)
    .filter(isTraceServerEndpoint)
    .map((e) => pathPattern(TRACE_PREFIX + e.path)),
  /^\/openapi\.json$/,
  /^\/docs\/?$/,
];

/**
 * Mounts the dashboard on `app`. With request threads, a trace page that may carry its outline
 * (traceFirstScreen.ts) is handed to a read thread, whose app reads it; the rest is served here.
 */
export function mountDashboard(app: Hono, distDir: string, threads: RequestThreads | null = null): void {
  app.get('*', async function serveDashboard(c: Context, next: Next) {
    const pathname = new URL(c.req.url).pathname;
    if (API_PATHS.some((re) => re.test(pathname))) return next();
    const segments = decodeSegments(pathname);
    const file = segments.length > 0 ? findFile(distDir, segments) : null;
    if (file) return sendFile(c, file, segments[0] === 'assets' ? HASHED_CACHE : REVALIDATE);
    if (segments[0] === 'assets' || !acceptsHtml(c)) return next();
    const index = findFile(distDir, ['index.html']);
    if (!index) return c.html(NOT_BUILT_PAGE, 503, { 'cache-control': REVALIDATE });
    const url = new URL(c.req.url);
    if (c.req.method !== 'GET' || !mayCarryFirstScreen(c, url)) return sendFile(c, index, REVALIDATE);
    if (threads) {
      // Not behind other reads: unless a read thread takes it at once, the page as built (its rows then stream).
      const res = await threads.handle(c, 'read', { startWithinMs: FIRST_SCREEN_START_MS });
      return res.status === NOT_STARTED ? sendFile(c, index, REVALIDATE) : res;
    }
    const firstScreen = await traceFirstScreen(app, c, url);
    return firstScreen ? sendPageWith(c, distDir, index, firstScreen) : sendFile(c, index, REVALIDATE);
  });
}

/**
 * index.html with `block` first in its head (boot.js, inline after it, reads it): the signed-in
 * user's data, so never stored by a cache (a shared computer's next user) and made for each
 * request, from a template made once per build (pageTemplate).
 */
function sendPageWith(c: Context, distDir: string, index: { path: string; stat: Stats }, block: string): Response {
  const { before, after, policy } = pageTemplate(distDir, index);
  const page = Buffer.from(before + block + after);
  const gzip = acceptedEncodings(c.req.header('accept-encoding')).has('gzip');
  const body = gzip ? gzipSync(page) : page;
  const headers: Record<string, string> = {
    'content-type': CONTENT_TYPES['.html']!,
    'cache-control': 'no-store',
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
    'content-security-policy': policy,
    'content-length': String(body.byteLength),
  };
  if (gzip) headers['content-encoding'] = 'gzip';
  return new Response(new Uint8Array(body), { headers });
}

/** index.html's name for the early paint's script (scripts/earlyScriptPlugin.ts). */
const EARLY_META = /<meta name="weft-early-trace" content="([^"]+)"\s*\/?>/;
const templates = new Map<string, { version: string; template: { before: string; after: string; policy: string } }>();

/**
 * index.html split where a first screen goes (after `<head>`), with the early paint's script
 * inline at the end of the body (its rows then paint without another request) instead of named
 * by the meta boot.js loads it by, and the CSP naming it by hash; made again when index.html changes.
 */
function pageTemplate(distDir: string, index: { path: string; stat: Stats }): { before: string; after: string; policy: string } {
  const version = `${index.stat.size}-${index.stat.mtimeMs}`;
  const known = templates.get(index.path);
  if (known?.version === version) return known.template;
  let html = readFileSync(index.path, 'utf8');
  const hashes = inlineScriptHashes(html);
  const name = EARLY_META.exec(html)?.[1];
  const file = name ? findFile(distDir, decodeSegments(name)) : null;
  const code = file ? readFileSync(file.path, 'utf8') : null;
  if (code !== null && !code.includes('</script')) {
    // `async`: an inline module would otherwise wait for the app's entry.
    html = html.replace(EARLY_META, '');
    const end = html.lastIndexOf('</body>');
    const script = `<script type="module" async>${code}</script>`;
    html = end < 0 ? html + script : html.slice(0, end) + script + html.slice(end);
    hashes.push(`sha256-${createHash('sha256').update(code).digest('base64')}`);
  }
  const head = /<head(\s[^>]*)?>/.exec(html);
  const at = head ? head.index + head[0].length : 0;
  const template = { before: html.slice(0, at), after: html.slice(at), policy: contentSecurityPolicy(hashes) };
  templates.set(index.path, { version, template });
  return template;
}

/** The path's segments, decoded; throws 400 for anything that could step outside a directory. */
function decodeSegments(pathname: string): string[] {
  const segments: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new BadRequestError('Malformed URL path');
    }
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) throw new BadRequestError('Malformed URL path');
    segments.push(segment);
  }
  return segments;
}

/** The regular file at `segments` below `root`, if it exists and really lies inside `root`. */
function findFile(root: string, segments: string[]): { path: string; stat: Stats } | null {
  try {
    const realRoot = realpathSync(root);
    const path = realpathSync(join(realRoot, ...segments));
    if (!path.startsWith(realRoot + sep)) return null;
    const stat = statSync(path);
    return stat.isFile() ? { path, stat } : null;
  } catch {
    return null;
  }
}

function sendFile(c: Context, original: { path: string; stat: Stats }, cacheControl: string): Response {
  const encoded = encodedCopy(c, original.path);
  const file = encoded ?? original;
  const etag = `W/"${file.stat.size.toString(16)}-${Math.floor(file.stat.mtimeMs).toString(16)}${encoded ? `-${encoded.encoding}` : ''}"`;
  const headers: Record<string, string> = {
    'content-type': CONTENT_TYPES[extname(original.path).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': cacheControl,
    etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  };
  if (encoded) headers['content-encoding'] = encoded.encoding;
  if (extname(original.path).toLowerCase() === '.html') headers['content-security-policy'] = htmlPolicy(original);
  if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers });
  // Hono answers HEAD with the GET handler; opening the file would only leak a descriptor.
  if (c.req.method === 'HEAD') return new Response(null, { headers: { ...headers, 'content-length': String(file.stat.size) } });
  const cached = cachedBytes(file, etag);
  if (cached) return new Response(cached, { headers: { ...headers, 'content-length': String(file.stat.size) } });
  const body = Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: { ...headers, 'content-length': String(file.stat.size) } });
}

/** The encodings the build writes copies in (scripts/precompressPlugin.ts), best first. */
const ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * The precompressed copy of `path` the client accepts, if the build wrote one: the dashboard's
 * code is ~3.5× smaller so, and nothing is compressed per request.
 */
function encodedCopy(c: Context, path: string): { path: string; stat: Stats; encoding: string } | null {
  const accepted = acceptedEncodings(c.req.header('accept-encoding'));
  for (const { encoding, suffix } of ENCODINGS) {
    if (!accepted.has(encoding)) continue;
    try {
      // Beside the file itself, as findFile keeps every file inside dist/: never a link elsewhere.
      if (dirname(realpathSync(path + suffix)) !== dirname(path)) continue;
      const stat = statSync(path + suffix);
      if (stat.isFile()) return { path: path + suffix, stat, encoding };
    } catch {
      // No copy in this encoding.
    }
  }
  return null;
}

/** The codings an Accept-Encoding header allows (`q=0` refuses one), lower-cased. */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (name && !params.some((p) => /^q=0(\.0*)?$/.test(p))) accepted.add(name);
  }
  return accepted;
}

const policies = new Map<string, { version: string; policy: string }>();

/** The CSP of an HTML file of the build, naming its inline scripts by hash; made again when the file changes. */
function htmlPolicy(file: { path: string; stat: Stats }): string {
  const version = `${file.stat.size}-${file.stat.mtimeMs}`;
  const known = policies.get(file.path);
  if (known?.version === version) return known.policy;
  const policy = contentSecurityPolicy(inlineScriptHashes(readFileSync(file.path, 'utf8')));
  policies.set(file.path, { version, policy });
  return policy;
}

/** Files up to this size are kept in memory once read: the whole app is about 2 MB. */
const MEMORY_MAX_BYTES = 1024 * 1024;
const memory = new Map<string, { etag: string; bytes: Uint8Array<ArrayBuffer> }>();

/**
 * A small file's bytes from memory, read on first use and again when it changes (its ETag, size
 * and mtime, moves). Every page load asks for index.html, whose stream through the file
 * thread pool cost 10-100 ms to first byte under load; a buffer answers at once.
 */
function cachedBytes(file: { path: string; stat: Stats }, etag: string): Uint8Array<ArrayBuffer> | null {
  if (file.stat.size > MEMORY_MAX_BYTES) return null;
  const hit = memory.get(file.path);
  if (hit?.etag === etag) return hit.bytes;
  try {
    const bytes = new Uint8Array(readFileSync(file.path));
    // A file rewritten between stat and read: serve it, but do not keep it under the old ETag.
    if (bytes.byteLength === file.stat.size) memory.set(file.path, { etag, bytes });
    return bytes.byteLength === file.stat.size ? bytes : null;
  } catch {
    return null;
  }
}

function acceptsHtml(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Weft — dashboard not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25em}</style>
</head>
<body>
<h1>Weft is running</h1>
<p>The service works, but the dashboard has not been built.</p>
<ul>
<li>If this checkout has no dashboard sources yet (<code>index.html</code>, <code>src/web/</code>), there is nothing to build: use the API, documented at <a href="/docs">/docs</a>.</li>
<li>Otherwise run <code>npm run build</code> and reload this page. <code>npm start</code> builds it by itself and prints any build error in its output.</li>
</ul>
</body>
</html>
`;
