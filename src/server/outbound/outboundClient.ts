/**
 * The one way the server fetches an address that a user or a provider chose
 * (docs/security/outbound.md): provider APIs, the image URLs they answer, and whatever comes
 * later. Each request
 * - connects only to public addresses, plus what WEFT_OUTBOUND_ALLOW opens for trusted callers;
 *   the check runs in the connection's own DNS lookup, on the addresses it then connects to, so a
 *   name that resolves differently the second time (DNS rebinding) gains nothing;
 * - never follows a redirect (a 3xx is an error), so no hop escapes the check and no key is
 *   replayed to another host;
 * - has a deadline for the whole exchange and a byte cap on the (decoded) answer, counted while it
 *   streams, so neither a slow nor a huge answer holds memory or the event loop;
 * - fails with an OutboundError whose message never quotes the upstream body.
 * A lint test (outbound/onlyOutbound.test.ts) keeps every other fetch out of src/server.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { canonicalAddress, classifyAddress, isMetadataAddress, type OutboundAllowList } from './addresses.js';

export type OutboundErrorKind = 'refused' | 'redirect' | 'too_large' | 'timeout' | 'cancelled' | 'network';

export class OutboundError extends Error {
  readonly kind: OutboundErrorKind;
  /** The system error code of a network failure (ECONNREFUSED, ENOTFOUND...), when there was one. */
  readonly code: string | null;
  constructor(kind: OutboundErrorKind, message: string, code: string | null = null) {
    super(message);
    this.name = 'OutboundError';
    this.kind = kind;
    this.code = code;
  }
}

/** A host's addresses, as `dns.lookup(host, {all: true})` answers them. */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Whether the destination was named by the operator (an instance provider) or an admin: only
   * then do WEFT_OUTBOUND_ALLOW's entries open non-public addresses.
   */
  trusted: boolean;
  /** The whole exchange, answer body included. */
  timeoutMs: number;
  /** Bytes of the decoded answer body; past it the request is cut. */
  maxBytes: number;
  /** The setting behind `maxBytes`, named in the error. */
  maxBytesSetting: string;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  ok: boolean;
  header(name: string): string | null;
  /** The body as it arrives, counted against the cap. Stopping early closes the connection. */
  chunks(): AsyncIterable<Uint8Array>;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** Closes the connection without reading the body. */
  discard(): void;
}

export class OutboundClient {
  readonly allow: OutboundAllowList;
  readonly #resolve: ResolveHost;
  // Pooled connections are kept apart by trust: a socket opened to an allowed address for a
  // trusted caller must never be reused by an untrusted one (reuse skips the lookup).
  readonly #agents = {
    trusted: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
    untrusted: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
  };

  constructor(options: { allow: OutboundAllowList; resolve?: ResolveHost }) {
    this.allow = options.allow;
    this.#resolve = options.resolve ?? systemResolve;
  }

  /**
   * Checks a URL before it is saved (a provider's base URL): its scheme, and that its host
   * resolves only to addresses this caller may reach. The check that protects is the one at
   * connect time; this one tells the user at once. A name that does not resolve now passes.
   */
  async checkUrl(url: string, trusted: boolean): Promise<void> {
    const target = parseTarget(url);
    if (isIP(target.host)) return this.#checkAddress(target.host, target.host, target.port, trusted);
    let addresses: { address: string }[];
    try {
      addresses = await this.#resolve(target.host);
    } catch {
      return;
    }
    if (addresses.length) this.#passing(target.host, addresses, target.port, trusted);
  }

  async request(url: string, req: OutboundRequest): Promise<OutboundResponse> {
    const target = parseTarget(url);
    // A literal address is connected to without any lookup, so it is checked here.
    if (isIP(target.host)) this.#checkAddress(target.host, target.host, target.port, req.trusted);
    const lookup: LookupFunction = (hostname, options, callback) => {
      this.#resolveChecked(hostname, target.port, req.trusted).then(
        (addresses) => {
          if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, addresses);
          else callback(null, addresses[0]!.address, addresses[0]!.family);
        },
        (err: Error) => callback(err as NodeJS.ErrnoException, '', 0),
      );
    };

    let failure: OutboundError | null = null;
    let request: ClientRequest | null = null;
    let stream: Readable | null = null;
    const fail = (err: OutboundError) => {
      if (failure) return;
      failure = err;
      request?.destroy(err);
      stream?.destroy(err);
    };
    const timer = setTimeout(
      () => fail(new OutboundError('timeout', `no complete answer within ${Math.round(req.timeoutMs / 1000)} s`)),
      req.timeoutMs,
    );
    const onAbort = () => fail(new OutboundError('cancelled', 'the request was cancelled'));
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    };
    if (req.signal?.aborted) onAbort();

    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const agents = req.trusted ? this.#agents.trusted : this.#agents.untrusted;
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));

    let res: IncomingMessage;
    try {
      if (failure) throw failure;
      res = await new Promise<IncomingMessage>((resolve, reject) => {
        request = send(
          url,
          { method: req.method ?? 'GET', headers, agent: target.protocol === 'https:' ? agents.https : agents.http, lookup },
          resolve,
        );
        request.on('error', reject);
        request.end(req.body);
      });
    } catch (err) {
      finish();
      throw failure ?? asOutboundError(err);
    }

    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      finish();
      res.destroy();
      throw new OutboundError(
        'redirect',
        `answered a redirect (HTTP ${status}), which Weft does not follow; use the final address (the URL it redirects to) instead`,
      );
    }
    const tooLarge = () =>
      new OutboundError(
        'too_large',
        `answered more than ${req.maxBytes} bytes, the limit (${req.maxBytesSetting}); the answer was cut off`,
      );
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > req.maxBytes && !res.headers['content-encoding']) {
      finish();
      res.destroy();
      throw tooLarge();
    }
    stream = decoded(res);
    if (stream !== res) res.on('error', (err) => stream!.destroy(err));
    const body = stream;
    let consumed = false;
    let complete = false;
    async function* chunks(): AsyncIterable<Uint8Array> {
      if (consumed) throw new Error('the answer body was already read');
      consumed = true;
      let count = 0;
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          count += chunk.byteLength;
          if (count > req.maxBytes) {
            fail(tooLarge());
            throw failure!;
          }
          yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        }
        complete = true;
      } catch (err) {
        throw failure ?? asOutboundError(err);
      } finally {
        finish();
        if (!complete) {
          res.destroy();
          body.destroy();
        }
      }
    }
    const bytes = async () => {
      const parts: Uint8Array[] = [];
      for await (const part of chunks()) parts.push(part);
      return new Uint8Array(Buffer.concat(parts));
    };
    return {
      status,
      ok: status >= 200 && status < 300,
      header: (name) => {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      chunks,
      bytes,
      text: async () => Buffer.from(await bytes()).toString('utf8'),
      discard: () => {
        finish();
        if (complete) return;
        res.destroy();
        body.destroy();
      },
    };
  }

  /** Closes pooled connections (server shutdown). */
  close(): void {
    for (const pair of Object.values(this.#agents)) {
      pair.http.destroy();
      pair.https.destroy();
    }
  }

  async #resolveChecked(hostname: string, port: number, trusted: boolean): Promise<{ address: string; family: number }[]> {
    let addresses: { address: string; family: number }[];
    try {
      addresses = await this.#resolve(hostname);
    } catch (err) {
      const code = (err as { code?: string }).code ?? null;
      throw new OutboundError('network', `cannot resolve ${hostname}`, code);
    }
    if (!addresses.length) throw new OutboundError('network', `cannot resolve ${hostname}`, 'ENOTFOUND');
    // The socket is given only the addresses that pass (it may try any of them), so `localhost`
    // answering ::1 and 127.0.0.1 reaches 127.0.0.1 when only that is allowed.
    return this.#passing(hostname, addresses, port, trusted);
  }

  /** The addresses that pass; when none does, the refusal of the first. */
  #passing<T extends { address: string }>(hostname: string, addresses: T[], port: number, trusted: boolean): T[] {
    const passing: T[] = [];
    let refusal: unknown = null;
    for (const a of addresses) {
      try {
        this.#checkAddress(hostname, a.address, port, trusted);
        passing.push(a);
      } catch (err) {
        refusal ??= err;
      }
    }
    if (!passing.length) throw refusal;
    return passing;
  }

  #checkAddress(hostname: string, address: string, port: number, trusted: boolean): void {
    const cls = classifyAddress(address);
    if (cls === null) return;
    if (cls !== 'cloud metadata' && !isMetadataAddress(address) && trusted && this.allow.allows(hostname, address, port)) return;
    const what = isIP(hostname) ? `${hostname} is a ${cls} address` : `${hostname} resolves to a ${cls} address`;
    const allowed = this.allow.allows(hostname, canonicalAddress(address), port);
    const hint =
      cls === 'cloud metadata'
        ? 'cloud metadata services are never reached'
        : allowed
          ? 'WEFT_OUTBOUND_ALLOW opens it only to instance providers and to providers an admin configures'
          : 'an operator can allow local model servers with WEFT_OUTBOUND_ALLOW (hosts or CIDR ranges)';
    throw new OutboundError('refused', `${what}, which this server does not connect to: ${hint}`);
  }
}

function parseTarget(url: string): { protocol: 'http:' | 'https:'; host: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError('refused', 'not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new OutboundError('refused', 'only http and https URLs are fetched');
  if (parsed.username || parsed.password) throw new OutboundError('refused', 'URLs with a user name or password are not fetched');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  return { protocol: parsed.protocol, host, port };
}

function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(createGunzip());
  if (encoding === 'deflate') return res.pipe(createInflate());
  if (encoding === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

function asOutboundError(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as { code?: string }).code ?? null;
  return new OutboundError('network', code ? `the connection failed (${code})` : 'the connection failed', code);
}
