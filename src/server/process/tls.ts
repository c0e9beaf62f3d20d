/**
 * HTTPS for `weft serve --tls`. The npm Weave SDK reaches W&B's GraphQL only as
 * `https://<host of WANDB_BASE_URL>/graphql` (it drops the scheme: `dist/urls.js` `getUrls`), so
 * `weave.init("project")` without an entity needs Weft itself, or a proxy, to speak TLS.
 *
 * With `--tls-cert`/`--tls-key` those files are served. Without them Weft makes a self-signed
 * certificate for this machine's names and addresses, keeps it in `<data dir>/tls/` and reuses it
 * on every start, so clients trust it once; it is made again only when the names it must cover
 * change or it is within a month of expiring. It is a self-signed leaf (CA:false, serverAuth):
 * OpenSSL, Node and Python (3.13's strict X.509 checks included) accept such a certificate as its
 * own trust anchor, which is what NODE_EXTRA_CA_CERTS / SSL_CERT_FILE / REQUESTS_CA_BUNDLE give it.
 */
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

export interface TlsSettings {
  /** PEM files given by the user; both null means "generate one". */
  certFile: string | null;
  keyFile: string | null;
}

export interface TlsMaterial {
  cert: string;
  key: string;
  /** The certificate file clients must trust. */
  certFile: string;
  /** True when Weft made the certificate (then `names` are what it covers). */
  generated: boolean;
  names: string[];
}

const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;
const VALID_DAYS = 825;

/** The certificate and key to serve: the user's files, or the generated one (made or renewed when needed). */
export async function loadTlsMaterial(settings: TlsSettings, o: { dataDir: string; host: string }): Promise<TlsMaterial> {
  if (settings.certFile || settings.keyFile) {
    if (!settings.certFile || !settings.keyFile)
      throw new Error('give both --tls-cert and --tls-key (WEFT_TLS_CERT, WEFT_TLS_KEY), or neither to generate one');
    const cert = readPem(settings.certFile, 'certificate');
    const key = readPem(settings.keyFile, 'private key');
    let names: string[];
    try {
      names = certificateNames(cert);
    } catch (err) {
      throw new Error(`${settings.certFile} is not a PEM certificate: ${(err as Error).message}`, { cause: err });
    }
    return { cert, key, certFile: settings.certFile, generated: false, names };
  }
  const dir = join(o.dataDir, 'tls');
  const certFile = join(dir, 'weft-cert.pem');
  const keyFile = join(dir, 'weft-key.pem');
  const names = serverNames(o.host);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8');
    if (covers(cert, names)) return { cert, key: readFileSync(keyFile, 'utf8'), certFile, generated: true, names: certificateNames(cert) };
  }
  const made = await makeCertificate(names);
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyFile, made.key, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  writeFileSync(certFile, made.cert);
  return { ...made, certFile, generated: true, names };
}

/** What the generated certificate must name: loopback, this host's name, and the address Weft listens on (every interface for 0.0.0.0 / ::). */
export function serverNames(host: string): string[] {
  const names = new Set(['localhost', '127.0.0.1', '::1', hostname()]);
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  if (!wildcard) names.add(host.replace(/^\[|\]$/g, ''));
  else {
    for (const addresses of Object.values(networkInterfaces()))
      for (const a of addresses ?? []) if (!a.internal && (a.family === 'IPv4' || !a.address.startsWith('fe80'))) names.add(a.address);
  }
  return [...names].filter(Boolean).sort();
}

async function makeCertificate(names: string[]): Promise<{ cert: string; key: string }> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + VALID_DAYS * 24 * 3600 * 1000);
  const pems = await generate(
    [
      { name: 'commonName', value: `Weft on ${hostname()}` },
      { name: 'organizationName', value: 'Weft (self-signed)' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })) },
      ],
    },
  );
  return { cert: pems.cert, key: pems.private };
}

/** True when `cert` names every one of `names` and stays valid for another month. */
function covers(cert: string, names: string[]): boolean {
  try {
    const x = new X509Certificate(cert);
    if (new Date(x.validTo).getTime() - Date.now() < RENEW_BEFORE_MS) return false;
    const have = new Set(certificateNames(cert));
    return names.every((n) => have.has(n));
  } catch {
    return false;
  }
}

/** The DNS names and IP addresses in a certificate's subjectAltName. */
function certificateNames(cert: string): string[] {
  const alt = new X509Certificate(cert).subjectAltName ?? '';
  return alt
    .split(', ')
    .map((entry) => entry.replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean)
    .map((n) => (isIP(n) === 6 ? normaliseIpv6(n) : n));
}

/** `0:0:0:0:0:0:0:1` (how OpenSSL prints it) → `::1`, so the comparison with `serverNames` holds. */
function normaliseIpv6(ip: string): string {
  return new URL(`http://[${ip}]/`).hostname.replace(/^\[|\]$/g, '');
}

function readPem(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the TLS ${what} ${file}: ${(err as Error).message}`, { cause: err });
  }
}
