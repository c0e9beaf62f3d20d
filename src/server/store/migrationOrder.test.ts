/**
 * Both backends apply the migrations above the recorded version in list order and record the
 * last one, so a list out of order would skip a migration on upgrade: versions must run 1, 2, 3, …
 */
import { describe, expect, it } from 'vitest';
import { clickhouseMigrations } from './clickhouse/migrations/index.js';
import { migrations } from './sqlite/migrations/index.js';

describe('migration lists', () => {
  for (const [name, list] of [
    ['SQLite', migrations],
    ['ClickHouse', clickhouseMigrations],
  ] as const) {
    it(`${name}: numbered 1..n without gaps, in order`, () => {
      expect(list.map((m) => m.version)).toEqual(list.map((_, i) => i + 1));
    });
  }
});
