/**
 * What can be known about an IP address without calling out: its kind of network. Weft ships
 * no geo-IP database and never asks a third party, so `/geolocate` reports the address and
 * its network class, with `location: null`.
 */
import { isIP } from 'node:net';

export type NetworkClass = 'loopback' | 'private' | 'link-local' | 'public' | 'invalid';

export function classifyIp(raw: string): { ip: string; network: NetworkClass } {
  const ip = raw.startsWith('::ffff:') && isIP(raw.slice(7)) === 4 ? raw.slice(7) : raw;
  const version = isIP(ip);
  if (version === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    if (a === 127) return { ip, network: 'loopback' };
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return { ip, network: 'private' };
    if (a === 169 && b === 254) return { ip, network: 'link-local' };
    return { ip, network: 'public' };
  }
  if (version === 6) {
    const lower = ip.toLowerCase();
    if (lower === '::1') return { ip, network: 'loopback' };
    if (lower.startsWith('fe80:')) return { ip, network: 'link-local' };
    if (/^f[cd]/.test(lower)) return { ip, network: 'private' };
    return { ip, network: 'public' };
  }
  return { ip, network: 'invalid' };
}
