/**
 * Which network addresses the server may connect to on behalf of a user or a provider
 * (docs/security/outbound.md). Every address that is not plainly on the public internet is
 * refused: a URL that names the server's own loopback, a private network, the cloud metadata
 * service or a ClickHouse engine beside it must not be fetched and read back. Operators open
 * exceptions with WEFT_OUTBOUND_ALLOW (a local Ollama, a model server on the LAN).
 */
import { BlockList, isIP } from 'node:net';

/** Why an address is not public; null for a public one. */
export type AddressClass =
  'loopback' | 'private' | 'link-local' | 'shared (CGNAT)' | 'multicast' | 'unspecified' | 'reserved' | 'unique-local' | 'cloud metadata';

const ranges: [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['shared (CGNAT)', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '192.88.99.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  // IPv4-compatible (deprecated) addresses: refused whole rather than decoded.
  ['reserved', '::', 96, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
  ['reserved', '2001::', 23, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['unique-local', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const lists = new Map<AddressClass, BlockList>();
for (const [cls, network, prefix, family] of ranges) {
  if (!lists.has(cls)) lists.set(cls, new BlockList());
  lists.get(cls)!.addSubnet(network, prefix, family);
}

/** Metadata services answer credentials to whoever asks; refused even when a range covering them is allowed. */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach IPv4 hosts: IPv4-mapped
 * (`::ffff:127.0.0.1`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`); null otherwise.
 */
export function embeddedIpv4(address: string): string | null {
  if (isIP(address) !== 6) return null;
  const words = expandIpv6(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return null;
}

function expandIpv6(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) becomes two words.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (s: string | undefined | null) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === null ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The address as the connection will use it: an IPv6 form carrying an IPv4 address becomes that address. */
export function canonicalAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '');
  return embeddedIpv4(bare) ?? bare.toLowerCase();
}

/** What kind of non-public address this is; null when it is public (or not an address at all). */
export function classifyAddress(address: string): AddressClass | null {
  const plain = canonicalAddress(address);
  const family = isIP(plain);
  if (family === 0) return null;
  if (METADATA.has(plain)) return 'cloud metadata';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of lists) if (list.check(plain, type)) return cls;
  return null;
}

export const isMetadataAddress = (address: string): boolean => METADATA.has(canonicalAddress(address));

interface AllowEntry {
  /** A hostname (lower case), or null for an address range. */
  host: string | null;
  range: BlockList | null;
  /** Only this port, or any. */
  port: number | null;
  text: string;
}

/**
 * WEFT_OUTBOUND_ALLOW: the non-public destinations an operator opens, comma- or space-separated.
 * Each is an address (`127.0.0.1`, `::1`), a CIDR range (`10.0.0.0/8`) or a host name
 * (`ollama.internal`), optionally with a port (`127.0.0.1:11434`, `[::1]:11434`,
 * `ollama.internal:11434`); without a port every port of it is open.
 */
export class OutboundAllowList {
  readonly entries: readonly AllowEntry[];

  constructor(entries: readonly string[]) {
    this.entries = entries.map(parseEntry);
  }

  static parse(value: string | undefined): OutboundAllowList {
    return new OutboundAllowList((value ?? '').split(/[\s,]+/).filter(Boolean));
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  /** Whether the URL's host itself is an entry (a listed name, or an address inside a listed range). */
  namesHost(hostname: string, port: number): boolean {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return isIP(canonicalAddress(host)) ? this.allowsAddress(host, port) : this.entries.some((e) => e.host === host && portOk(e, port));
  }

  /** Whether a connection to `address`:`port`, reached through the name `hostname`, is opened by an entry. */
  allows(hostname: string, address: string, port: number): boolean {
    return this.namesHost(hostname, port) || this.allowsAddress(address, port);
  }

  allowsAddress(address: string, port: number): boolean {
    const plain = canonicalAddress(address);
    const family = isIP(plain);
    if (family === 0) return false;
    return this.entries.some((e) => e.range !== null && portOk(e, port) && e.range.check(plain, family === 4 ? 'ipv4' : 'ipv6'));
  }
}

const portOk = (e: AllowEntry, port: number) => e.port === null || e.port === port;

function parseEntry(text: string): AllowEntry {
  const fail = (): never => {
    throw new Error(`WEFT_OUTBOUND_ALLOW: "${text}" is not an address, CIDR range or host name (with an optional :port)`);
  };
  let target = text;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    target = bracketed[1]!;
    port = bracketed[2] === undefined ? null : Number(bracketed[2]);
  } else if ((text.match(/:/g) ?? []).length === 1) {
    const at = text.lastIndexOf(':');
    target = text.slice(0, at);
    if (!/^\d+$/.test(text.slice(at + 1))) fail();
    port = Number(text.slice(at + 1));
  }
  if (port !== null && (port < 1 || port > 65535)) fail();
  const [address, bits, extra] = target.split('/');
  const family = isIP(address ?? '');
  if (family !== 0) {
    if (extra !== undefined) fail();
    let prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
    if ((bits !== undefined && !/^\d+$/.test(bits)) || prefix > (family === 4 ? 32 : 128)) fail();
    // `::ffff:10.0.0.0/104` is the IPv4 range it maps, as connections are checked by that form.
    const plain = canonicalAddress(address!);
    const plainFamily = isIP(plain);
    if (plainFamily !== family) {
      if (!address!.toLowerCase().startsWith('::ffff:') || prefix < 96) fail();
      prefix -= 96;
    }
    const range = new BlockList();
    range.addSubnet(plain, prefix, plainFamily === 4 ? 'ipv4' : 'ipv6');
    return { host: null, range, port, text };
  }
  if (bits !== undefined || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(target)) fail();
  return { host: target.toLowerCase(), range: null, port, text };
}
