/**
 * The client's address, for the login throttle and session records. By default it is the
 * socket's peer: `X-Forwarded-For` is a header anyone can send, so believing it would let a
 * client pick a fresh address per guess. Behind a reverse proxy every request comes from the
 * proxy, though, so the throttle would count all clients as one. WEFT_TRUSTED_PROXIES names the
 * proxies (addresses or CIDR ranges, comma-separated): when the peer is one of them, the
 * address is read from `X-Forwarded-For`, right to left, skipping trusted hops: the first
 * untrusted one is the client (each proxy appends the address it saw, so everything left of it
 * was written by the client and is not believed). This is the rule of Express's `trust proxy`
 * and nginx's `real_ip_recursive on`.
 *
 * The middleware resolves the address once per request into the context; `clientAddressOf`
 * reads it (handlers get it as `remoteIp`). In threaded mode the main thread resolves it and the
 * request thread receives the result.
 */
import type { Context, Next } from 'hono';
import { BlockList, isIP } from 'node:net';
import { requestHeader } from './requestHeader.js';
import { requestEnv } from './requestEnv.js';

const KEY = 'weftClientAddress';

/** A parsed WEFT_TRUSTED_PROXIES: which peers may say who the client is. */
export class TrustedProxies {
  readonly #list = new BlockList();
  /** The entries as given (for logs and tests). */
  readonly entries: readonly string[];

  constructor(entries: readonly string[]) {
    this.entries = entries;
    for (const entry of entries) {
      const [address, bits, extra] = entry.split('/');
      const family = isIP(address ?? '');
      if (!address || family === 0 || extra !== undefined) throw new Error(`not an address or CIDR range: "${entry}"`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) {
        this.#list.addAddress(address, type);
        continue;
      }
      const prefix = Number(bits);
      if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`not a CIDR range: "${entry}"`);
      this.#list.addSubnet(address, prefix, type);
    }
  }

  /** `WEFT_TRUSTED_PROXIES`: comma- or space-separated; empty trusts none. */
  static parse(value: string | undefined): TrustedProxies {
    return new TrustedProxies((value ?? '').split(/[\s,]+/).filter(Boolean));
  }

  get none(): boolean {
    return this.entries.length === 0;
  }

  trusts(address: string): boolean {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.#list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }

  /** The client address for a request from `peer` carrying `forwardedFor` (X-Forwarded-For values). */
  clientAddress(peer: string, forwardedFor: string | undefined): string {
    if (this.none || !forwardedFor || !this.trusts(peer)) return peer;
    const hops = forwardedFor
      .split(',')
      .map((h) => unmapped(h.trim()))
      .filter(Boolean);
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      // A hop that is not an address is not believed: the last trusted hop stands for the client.
      if (isIP(hop) === 0) break;
      client = hop;
      if (!this.trusts(hop)) break;
    }
    return client;
  }
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) as `10.0.0.1`. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function peerOf(c: Context): string {
  const env = requestEnv(c);
  return env.peerAddress ?? env.incoming?.socket.remoteAddress ?? '';
}

/** Middleware resolving the client address once per request. */
export function resolveClientAddress(trusted: TrustedProxies) {
  return async function clientAddress(c: Context, next: Next) {
    c.set(KEY as never, trusted.clientAddress(peerOf(c), requestHeader(c, 'x-forwarded-for')) as never);
    return next();
  };
}

/** The client address the middleware resolved, or the socket's peer when it did not run. */
export function clientAddressOf(c: Context): string {
  const resolved = c.get(KEY as never) as string | undefined;
  return resolved ?? peerOf(c);
}
