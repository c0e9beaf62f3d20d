import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { LIGHT_SERVER } from '../testing/testServer.js';
import { dashboardBuildNeed } from './dashboardBuild.js';
import { startServer, type RunningServer } from './main.js';

const BOOT = 'document.documentElement.dataset.theme = "dark";';
const INDEX = `<!doctype html><title>Weft</title><script>${BOOT}</script><div id="root"></div>`;
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** A server on a temp SQLite file whose dashboard comes from `distDir`. */
async function serveDist(distDir: string): Promise<{ server: RunningServer; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'weft-dash-data-'));
  const config = loadConfig({ ...LIGHT_SERVER, WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'pw', PORT: '0', WEFT_LOG_LEVEL: 'silent' });
  const server = await startServer(config, { dashboardDir: distDir });
  return {
    server,
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Raw HTTP, so the path reaches the server exactly as written (fetch would normalise it). */
function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = request({ hostname, port, path, headers }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (body += d))
        .on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject).end();
  });
}

describe('GET / (dashboard)', () => {
  let tmp: string;
  let s: Awaited<ReturnType<typeof serveDist>>;
  let url: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'weft-dash-'));
    const dist = join(tmp, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-AbC123.js'), 'console.log("app")');
    // The copies the build writes beside each file (scripts/precompressPlugin.ts).
    writeFileSync(join(dist, 'assets', 'index-AbC123.js.br'), brotliCompressSync('console.log("app")'));
    writeFileSync(join(dist, 'assets', 'index-AbC123.js.gz'), gzipSync('console.log("app")'));
    symlinkSync(join(tmp, 'secret.txt'), join(dist, 'assets', 'index-AbC123.css.br'));
    writeFileSync(join(dist, 'assets', 'index-AbC123.css'), 'body{margin:0}');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(tmp, 'secret.txt'), 'TOP SECRET');
    symlinkSync(join(tmp, 'secret.txt'), join(dist, 'assets', 'link.txt'));
    s = await serveDist(dist);
    url = s.server.url;
  });
  afterAll(async () => {
    await s.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('serves index.html, revalidated, for / and client-side routes', async () => {
    for (const path of ['/', '/calls', '/alice-co/bot/calls?x=1', '/p/acme/bot/traces/abc']) {
      const res = await fetch(`${url}${path}`, { headers: HTML });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it("allows index.html's inline script by its hash, and no other inline script anywhere", async () => {
    const scriptSrc = (res: Response) =>
      (res.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src'));
    const hash = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;
    for (const path of ['/', '/p/acme/bot/traces/abc', '/index.html']) {
      expect(scriptSrc(await fetch(`${url}${path}`, { headers: HTML })), path).toBe(`script-src 'self' ${hash}`);
    }
    expect(scriptSrc(await fetch(`${url}/weft/whoami`))).toBe("script-src 'self'");
    expect(scriptSrc(await fetch(`${url}/assets/index-AbC123.js`))).toBe("script-src 'self'");
  });

  it('serves assets with their content type and a long cache', async () => {
    const js = await fetch(`${url}/assets/index-AbC123.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log("app")');
    const css = await fetch(`${url}/assets/index-AbC123.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const icon = await fetch(`${url}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it("sends the build's brotli or gzip copy to a client that accepts it, and the file to others", async () => {
    const get = (encoding: string) => fetch(`${url}/assets/index-AbC123.js`, { headers: { 'accept-encoding': encoding } });
    for (const [accepts, sent] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await get(accepts);
      expect(res.headers.get('content-encoding'), accepts).toBe(sent);
      expect(res.headers.get('vary')).toBe('accept-encoding');
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await res.text()).toBe('console.log("app")');
    }
    // A copy that links outside dist/ is never sent.
    const css = await fetch(`${url}/assets/index-AbC123.css`, { headers: { 'accept-encoding': 'br' } });
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(await css.text()).toBe('body{margin:0}');
  });

  it('answers 304 when the ETag still matches', async () => {
    const first = await fetch(`${url}/assets/index-AbC123.js`);
    const again = await fetch(`${url}/assets/index-AbC123.js`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('serves a rebuilt index.html at once, though it keeps files in memory', async () => {
    const index = join(tmp, 'dist', 'index.html');
    expect(await (await fetch(`${url}/calls`, { headers: HTML })).text()).toBe(INDEX);
    const rebuilt = INDEX.replace('Weft', 'Weft, rebuilt');
    writeFileSync(index, rebuilt);
    try {
      expect(await (await fetch(`${url}/calls`, { headers: HTML })).text()).toBe(rebuilt);
    } finally {
      writeFileSync(index, INDEX);
    }
    expect(await (await fetch(`${url}/calls`, { headers: HTML })).text()).toBe(INDEX);
  });

  it('keeps API paths JSON, also for browsers', async () => {
    const health = await fetch(`${url}/health`, { headers: HTML });
    expect(await health.json()).toEqual({ status: 'ok' });
    const wrongMethod = await fetch(`${url}/calls/stream_query`, { headers: HTML });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.headers.get('content-type')).toMatch(/^application\/json/);
    const unauthenticated = await fetch(`${url}/weft/whoami`, { headers: HTML });
    expect(unauthenticated.status).toBe(401);
  });

  it('keeps /traces/<trace route> and /graphql for the API, while an entity named "traces" keeps its pages', async () => {
    const info = await fetch(`${url}/traces/server_info`, { headers: HTML });
    expect(info.headers.get('content-type')).toMatch(/^application\/json/);
    const streamGet = await fetch(`${url}/traces/calls/stream_query`, { headers: HTML });
    expect(streamGet.status).toBe(404);
    expect(streamGet.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await fetch(`${url}/graphql`, { headers: HTML })).headers.get('content-type')).toMatch(/^application\/json/);
    const page = await fetch(`${url}/traces/support-bot/calls`, { headers: HTML });
    expect(await page.text()).toBe(INDEX);
  });

  it('gives non-HTML clients a JSON 404 for unknown paths, and missing assets a 404', async () => {
    const res = await fetch(`${url}/no/such/thing`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await fetch(`${url}/assets/missing.js`, { headers: HTML })).status).toBe(404);
  });

  it('refuses path traversal', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/..\\secret.txt',
      '/assets/link.txt',
      '/index.html%00.js',
    ]) {
      for (const headers of [{}, HTML]) {
        const res = await rawGet(url, path, headers);
        expect(res.body, path).not.toContain('TOP SECRET');
        expect([200, 400, 404], path).toContain(res.status);
        if (res.status === 200) expect(res.body, path).toBe(INDEX);
      }
    }
    expect((await rawGet(url, '/assets/..%2f..%2fsecret.txt')).status).toBe(400);
  });
});

describe('GET / without a build', () => {
  it('explains how to build the dashboard', async () => {
    const s = await serveDist(join(tmpdir(), 'weft-no-such-dist'));
    try {
      const res = await fetch(`${s.server.url}/calls`, { headers: HTML });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
      expect((await fetch(`${s.server.url}/health`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('dashboardBuildNeed', () => {
  it('says fresh, stale or no-sources from file times', () => {
    const root = mkdtempSync(join(tmpdir(), 'weft-build-'));
    try {
      expect(dashboardBuildNeed(root)).toBe('no-sources');
      mkdirSync(join(root, 'src/web/features'), { recursive: true });
      writeFileSync(join(root, 'index.html'), INDEX);
      writeFileSync(join(root, 'src/web/features/Page.tsx'), 'export {}');
      expect(dashboardBuildNeed(root)).toBe('stale');
      mkdirSync(join(root, 'dist'));
      writeFileSync(join(root, 'dist/index.html'), INDEX);
      const old = new Date(Date.now() - 60_000);
      for (const p of ['index.html', 'src/web/features/Page.tsx', 'src/web/features', 'src/web', 'src'])
        utimesSync(join(root, p), old, old);
      expect(dashboardBuildNeed(root)).toBe('fresh');
      writeFileSync(join(root, 'src/web/features/Page.tsx'), 'export const x = 1');
      expect(dashboardBuildNeed(root)).toBe('stale');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('says fresh for an install that carries dist/ without its sources (a packed build)', () => {
    const root = mkdtempSync(join(tmpdir(), 'weft-build-'));
    try {
      mkdirSync(join(root, 'dist'));
      writeFileSync(join(root, 'dist/index.html'), INDEX);
      expect(dashboardBuildNeed(root)).toBe('fresh');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
