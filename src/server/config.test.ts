/** Settings that decide how requests are served: request threads on by default, their counts, trusted proxies. */
import { describe, expect, it } from 'vitest';
import { defaultReadThreads, defaultWriteThreads, loadConfig } from './config.js';

describe('request thread settings', () => {
  it('runs requests in threads by default, with the read budget on', () => {
    const { threads } = loadConfig({});
    expect(threads).toEqual({
      read: defaultReadThreads(),
      write: defaultWriteThreads(),
      readBudgetMs: 30_000,
      sendTimeoutMs: 30_000,
      readsPerUser: defaultReadThreads() - 1,
    });
  });

  it('turns threads off with WEFT_THREADS=0 or --threads 0, and refuses what it cannot read', () => {
    expect(loadConfig({ WEFT_THREADS: '0' }).threads).toBeNull();
    expect(loadConfig({}, { threads: '0' }).threads).toBeNull();
    expect(loadConfig({ WEFT_THREADS: '0' }, { threads: '1' }).threads).not.toBeNull();
    expect(() => loadConfig({ WEFT_THREADS: 'many' })).toThrow(/WEFT_THREADS/);
  });

  it('takes thread counts and the budget from the environment or flags', () => {
    expect(loadConfig({ WEFT_READ_THREADS: '3', WEFT_WRITE_THREADS: '2', WEFT_READ_BUDGET_MS: '0' }).threads).toEqual({
      read: 3,
      write: 2,
      readBudgetMs: 0,
      sendTimeoutMs: 30_000,
      readsPerUser: 2,
    });
    expect(loadConfig({ WEFT_READ_SEND_TIMEOUT_MS: '500', WEFT_READS_PER_USER: '3' }).threads).toMatchObject({
      sendTimeoutMs: 500,
      readsPerUser: 3,
    });
    expect(() => loadConfig({ WEFT_READS_PER_USER: '0' })).toThrow(/WEFT_READS_PER_USER/);
    expect(loadConfig({}, { 'read-threads': '1' }).threads?.read).toBe(1);
    expect(() => loadConfig({ WEFT_READ_THREADS: '0' })).toThrow(/WEFT_READ_THREADS/);
  });

  it('sizes the pools for small machines: at least two readers, one writer', () => {
    expect([1, 2, 4, 16].map((cores) => defaultReadThreads(cores))).toEqual([2, 2, 4, 4]);
    expect([1, 2, 4, 16].map((cores) => defaultWriteThreads(cores))).toEqual([1, 1, 2, 2]);
  });
});

describe('trusted proxies', () => {
  it('trusts none by default and reads a list of addresses and ranges', () => {
    expect(loadConfig({}).trustedProxies.none).toBe(true);
    const trusted = loadConfig({ WEFT_TRUSTED_PROXIES: '10.0.0.0/8,::1' }).trustedProxies;
    expect(trusted.trusts('10.2.3.4')).toBe(true);
    expect(trusted.trusts('::1')).toBe(true);
    expect(trusted.trusts('11.0.0.1')).toBe(false);
    expect(() => loadConfig({ WEFT_TRUSTED_PROXIES: 'my-proxy' })).toThrow(/WEFT_TRUSTED_PROXIES/);
  });
});

describe('password hash cost', () => {
  it("hashes at OWASP's scrypt parameters by default, and takes another power-of-two N", () => {
    expect(loadConfig({}).scrypt).toEqual({ N: 131072, r: 8, p: 1 });
    expect(loadConfig({ WEFT_PASSWORD_SCRYPT_N: '' }).scrypt).toEqual({ N: 131072, r: 8, p: 1 });
    expect(loadConfig({ WEFT_PASSWORD_SCRYPT_N: '1024' }).scrypt).toEqual({ N: 1024, r: 8, p: 1 });
    for (const bad of ['1000', '512', String(2 ** 21), 'high']) {
      expect(() => loadConfig({ WEFT_PASSWORD_SCRYPT_N: bad })).toThrow(
        /WEFT_PASSWORD_SCRYPT_N must be a power of two from 1024 to 1048576/,
      );
    }
  });
});
