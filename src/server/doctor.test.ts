/** `weft doctor`, run as a user would: a ClickHouse user without a password is a warning and exit status 1. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FROM_SOURCE } from './testing/serveProcess.js';

function doctor(env: Record<string, string>) {
  const res = spawnSync(process.execPath, [BIN, 'doctor'], {
    env: { PATH: process.env.PATH ?? '', ...FROM_SOURCE, WEFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'weft-doctor-')), ...env },
    encoding: 'utf8',
  });
  return { status: res.status, out: res.stdout + res.stderr };
}

describe('weft doctor', () => {
  it('warns, exiting 1, when the ClickHouse user has no password, and passes once it has one', () => {
    const clickhouse = { WEFT_STORE: 'clickhouse', WEFT_CLICKHOUSE_URL: 'http://127.0.0.1:8123' };
    const bare = doctor(clickhouse);
    expect(bare.status).toBe(1);
    expect(bare.out).toMatch(/WARN clickhouse-password: the ClickHouse user "default" has no password .* WEFT_CLICKHOUSE_PASSWORD/);
    const withPassword = doctor({ ...clickhouse, WEFT_CLICKHOUSE_USER: 'weft', WEFT_CLICKHOUSE_PASSWORD: 's3cret' });
    expect(withPassword.status).toBe(0);
    expect(withPassword.out).toMatch(/ok {3}clickhouse-password: the ClickHouse user "weft" is given a password/);
    expect(doctor({}).status).toBe(0);
  });
});
