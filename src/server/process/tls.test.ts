/**
 * `weft serve --tls`: a generated self-signed certificate kept in the data directory and reused,
 * a user's certificate and key served as given, the settings that must come in pairs, and
 * `--workers` sharing one certificate.
 */
import type { ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { LIGHT_SERVER } from '../testing/testServer.js';
import { startServer } from './main.js';
import { spawnWeftServe, weftEnv } from '../testing/serveProcess.js';
import { loadTlsMaterial } from './tls.js';

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** GET over https trusting only `ca`: status, body and the certificate the server presented. */
function httpsGet(url: string, ca: string): Promise<{ status: number; body: string; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca }, (res) => {
      const fingerprint = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().fingerprint256;
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, fingerprint }));
    });
    req.on('error', reject).end();
  });
}

const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256;

describe('the generated certificate', () => {
  it('is made once for loopback and this host, kept private, and reused', async () => {
    const dataDir = tempDir('weft-tls-');
    const first = await loadTlsMaterial({ certFile: null, keyFile: null }, { dataDir, host: '127.0.0.1' });
    expect(first.generated).toBe(true);
    expect(first.names).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '::1']));
    expect(statSync(join(dataDir, 'tls', 'weft-key.pem')).mode & 0o777).toBe(0o600);
    const again = await loadTlsMaterial({ certFile: null, keyFile: null }, { dataDir, host: '127.0.0.1' });
    expect(again.cert).toBe(first.cert);
    const x = new X509Certificate(first.cert);
    expect(x.ca).toBe(false);
    // Self-signed: it is its own trust anchor for NODE_EXTRA_CA_CERTS / SSL_CERT_FILE.
    expect(x.issuer).toBe(x.subject);
    expect(x.verify(x.publicKey)).toBe(true);
  });

  it('is made again when Weft listens on a name it does not cover', async () => {
    const dataDir = tempDir('weft-tls-');
    const first = await loadTlsMaterial({ certFile: null, keyFile: null }, { dataDir, host: '127.0.0.1' });
    const moved = await loadTlsMaterial({ certFile: null, keyFile: null }, { dataDir, host: 'weft.internal.example' });
    expect(moved.cert).not.toBe(first.cert);
    expect(moved.names).toContain('weft.internal.example');
  });
});

describe('startServer with TLS', () => {
  it('serves the API (here under /traces) over https with the generated certificate, and only to clients trusting it', async () => {
    const dataDir = tempDir('weft-tls-');
    const config = loadConfig({
      ...LIGHT_SERVER,
      WEFT_DATA_DIR: dataDir,
      WEFT_ADMIN_PASSWORD: 'tls-admin',
      PORT: '0',
      WEFT_LOG_LEVEL: 'silent',
      WEFT_TLS: '1',
    });
    const server = await startServer(config);
    try {
      expect(server.url).toMatch(/^https:\/\//);
      const ca = readFileSync(server.tls!.certFile, 'utf8');
      const health = await httpsGet(`${server.url}/traces/health`, ca);
      expect(health.status).toBe(200);
      expect(health.fingerprint).toBe(fingerprintOf(ca));
      await expect(httpsGet(`${server.url}/health`, '')).rejects.toThrow(/self[- ]signed|SELF_SIGNED/i);
    } finally {
      await server.close();
    }
  });

  it('serves a given certificate and key as they are', async () => {
    const source = tempDir('weft-tls-src-');
    const made = await loadTlsMaterial({ certFile: null, keyFile: null }, { dataDir: source, host: '127.0.0.1' });
    const certFile = join(source, 'mine.crt');
    const keyFile = join(source, 'mine.key');
    copyFileSync(join(source, 'tls', 'weft-cert.pem'), certFile);
    copyFileSync(join(source, 'tls', 'weft-key.pem'), keyFile);
    const dataDir = tempDir('weft-tls-');
    const config = loadConfig(
      { ...LIGHT_SERVER, WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'tls-admin', PORT: '0', WEFT_LOG_LEVEL: 'silent' },
      { 'tls-cert': certFile, 'tls-key': keyFile },
    );
    const server = await startServer(config);
    try {
      expect(server.tls).toMatchObject({ generated: false, certFile });
      expect((await httpsGet(`${server.url}/health`, made.cert)).fingerprint).toBe(fingerprintOf(made.cert));
    } finally {
      await server.close();
    }
  });

  it('refuses a certificate without its key, and the other way round', () => {
    expect(() => loadConfig({ WEFT_TLS_CERT: '/x.pem' })).toThrow(/--tls-cert and --tls-key/);
    expect(() => loadConfig({}, { 'tls-key': '/x.key' })).toThrow(/--tls-cert and --tls-key/);
    expect(loadConfig({ WEFT_TLS: '0' }).tls).toBeNull();
  });
});

describe('weft serve --tls --workers 2', () => {
  let server: { child: ChildProcess; url: string } | undefined;
  afterAll(async () => {
    if (!server) return;
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    await exited;
  });

  it('answers over https from every worker with the one certificate the primary made', async () => {
    const dataDir = tempDir('weft-tls-workers-');
    server = await spawnWeftServe(weftEnv({ WEFT_DATA_DIR: dataDir, WEFT_ADMIN_PASSWORD: 'tls-admin' }), ['--tls', '--workers', '2']);
    expect(server.url).toMatch(/^https:\/\//);
    const ca = readFileSync(join(dataDir, 'tls', 'weft-cert.pem'), 'utf8');
    const answers = await Promise.all(Array.from({ length: 8 }, () => httpsGet(`${server!.url}/health`, ca)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.fingerprint))).toEqual(new Set([fingerprintOf(ca)]));
  }, 90_000); // three processes start, each compiling the TypeScript sources
});
