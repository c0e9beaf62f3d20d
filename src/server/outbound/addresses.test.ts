/** The address classes the outbound policy refuses, and WEFT_OUTBOUND_ALLOW's entries. */
import { describe, expect, it } from 'vitest';
import { classifyAddress, OutboundAllowList } from './addresses.js';

describe('classifyAddress', () => {
  it('names every non-public class, in each IPv6 form that reaches an IPv4 host', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['127.8.9.10', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['2002:7f00:1::', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['::ffff:192.168.1.1', 'private'],
      ['169.254.1.1', 'link-local'],
      ['fe80::1', 'link-local'],
      ['100.64.0.1', 'shared (CGNAT)'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['fc00::1', 'unique-local'],
      ['fd12:3456::1', 'unique-local'],
      ['169.254.169.254', 'cloud metadata'],
      ['fd00:ec2::254', 'cloud metadata'],
      ['100.100.100.200', 'cloud metadata'],
      ['255.255.255.255', 'reserved'],
      ['8.8.8.8', null],
      ['172.32.0.1', null],
      ['2606:4700::1111', null],
      ['::ffff:8.8.8.8', null],
    ];
    for (const [address, cls] of cases) expect([address, classifyAddress(address)]).toEqual([address, cls]);
  });
});

describe('OutboundAllowList', () => {
  it('opens addresses, ranges and names, on one port or all', () => {
    const allow = OutboundAllowList.parse('127.0.0.1:11434, 10.0.0.0/8 ollama.internal:8000 [::1]:9000');
    expect(allow.allowsAddress('127.0.0.1', 11434)).toBe(true);
    expect(allow.allowsAddress('127.0.0.1', 8123)).toBe(false);
    expect(allow.allowsAddress('::ffff:127.0.0.1', 11434)).toBe(true);
    expect(allow.allowsAddress('10.9.8.7', 1)).toBe(true);
    expect(allow.allowsAddress('::1', 9000)).toBe(true);
    expect(allow.allows('ollama.internal', '192.168.5.5', 8000)).toBe(true);
    expect(allow.allows('ollama.internal', '192.168.5.5', 8001)).toBe(false);
    expect(allow.namesHost('localhost', 11434)).toBe(false);
    expect(allow.namesHost('127.0.0.1', 11434)).toBe(true);
  });

  it('refuses what is not an entry, naming the setting', () => {
    for (const bad of ['10.0.0.0/33', 'http://x', 'host:99999', 'a_b', '::ffff:10.0.0.0/8'])
      expect(() => OutboundAllowList.parse(bad)).toThrow(/WEFT_OUTBOUND_ALLOW/);
  });
});
