/** The DDL rewriter and the cluster settings, as text (cluster.clickhouse.test.ts runs them on engines). */
import { describe, expect, it } from 'vitest';
import { ADDED_UP, clusterSettingsFrom, rewriteStatement, SHARD_KEYS, type ClusterSettings } from './clusterLayout.js';
import { LOCK_TABLE } from './migrationLock.js';
import { clickhouseMigrations, SCHEMA_TABLE } from './migrations/index.js';

const ALL = [LOCK_TABLE, SCHEMA_TABLE, ...clickhouseMigrations.flatMap((m) => m.statements)];
/** The materialized views among them. */
const VIEWS = ALL.filter((s) => s.trim().startsWith('CREATE MATERIALIZED VIEW'));
/** The tables' DDL among them (the rest are views and backfills, INSERT ... SELECT). */
const DDL = ALL.filter((s) => !s.trim().startsWith('INSERT') && !VIEWS.includes(s));
const tableOf = (sql: string) => /^(?:CREATE TABLE IF NOT EXISTS|ALTER TABLE) (\w+)/.exec(sql.trim())?.[1];
const layout = (l: ClusterSettings['layout'], onCluster = true): ClusterSettings => ({ layout: l, cluster: 'weft', onCluster });

describe('cluster layouts of the ClickHouse schema', () => {
  it('leaves a single server’s DDL as written', () => {
    for (const sql of ALL) expect(rewriteStatement(sql, 'weft', layout('single'))).toEqual([sql]);
  });

  it('replicates every table with a per-shard Keeper path, keeping the engine’s own arguments', () => {
    const out = DDL.flatMap((s) => rewriteStatement(s, 'weft', layout('replicated')));
    expect(out).toHaveLength(DDL.length);
    for (const sql of out) expect(sql).toMatch(/^(CREATE TABLE IF NOT EXISTS|ALTER TABLE) \w+ ON CLUSTER weft /);
    const feedback = out.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS feedback '))!;
    expect(feedback).toContain(
      "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/feedback', '{replica}', version, is_deleted)",
    );
    const calls = out.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS calls '))!;
    expect(calls).toContain("ENGINE = ReplicatedCoalescingMergeTree('/clickhouse/tables/{shard}/{database}/calls', '{replica}') ORDER BY");
    const slots = out.find((s) => s.startsWith('CREATE TABLE IF NOT EXISTS job_slots '))!;
    expect(slots).toContain('SETTINGS replicated_deduplication_window = 10000');
    expect(slots).not.toContain('non_replicated');
  });

  it('gives every table a local table and a Distributed one with its shard key; column changes reach both, indexes only the local', () => {
    const settings = layout('replicated-sharded', false);
    for (const sql of DDL) {
      const out = rewriteStatement(sql, 'weft', settings);
      const table = tableOf(sql)!;
      expect(out[0]).toMatch(new RegExp(`^(CREATE TABLE IF NOT EXISTS|ALTER TABLE) ${table}_local `));
      if (sql.trim().startsWith('CREATE')) {
        expect(out[0]).toContain(`ENGINE = Replicated`);
        expect(out[1]).toBe(
          `CREATE TABLE IF NOT EXISTS ${table} AS ${table}_local ENGINE = Distributed('weft', 'weft', '${table}_local', ${SHARD_KEYS[table]})`,
        );
      }
    }
    const alters = ALL.filter((s) => s.trim().startsWith('ALTER TABLE calls')).map((s) => rewriteStatement(s, 'weft', settings));
    // ADD COLUMN: local and Distributed; ADD INDEX, MATERIALIZE COLUMN (a mutation of the data)
    // and MODIFY TTL (retention's expiry): local
    // (calls_by_start too, as the prefix matches it); the search index's ADD and MATERIALIZE INDEX: local.
    expect(alters.map((o) => o.length)).toEqual([2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1]);
    expect(SHARD_KEYS.calls).toBe('sipHash64(project_id, id)');
    expect(SHARD_KEYS.job_slots).toBe('0');
    expect(SHARD_KEYS.monitor_sweeps).toBe('0');
  });

  it('keeps a backfill as written ON CLUSTER; node by node, each sharded node fills its own shard from its local tables', () => {
    const backfills = ALL.filter((s) => s.trim().startsWith('INSERT INTO'));
    expect(backfills.length).toBeGreaterThan(0);
    for (const sql of backfills) {
      for (const l of ['replicated', 'sharded', 'replicated-sharded'] as const)
        expect(rewriteStatement(sql, 'weft', layout(l))).toEqual([sql.trim()]);
      expect(rewriteStatement(sql, 'weft', layout('replicated', false))).toEqual([sql.trim()]);
      const [, target, , source] = /^INSERT INTO (\w+)(\s*\([\w\s,]+\))? SELECT [\s\S]* FROM (\w+)/.exec(sql.trim())!;
      // Local to local keeps every row on its shard only when both tables are sharded alike.
      if (!ADDED_UP.has(target!)) expect(SHARD_KEYS[target!]).toBe(SHARD_KEYS[source!]);
      for (const l of ['sharded', 'replicated-sharded'] as const) {
        const [local] = rewriteStatement(sql, 'weft', layout(l, false));
        expect(local).toMatch(new RegExp(`^INSERT INTO ${target}_local(\\s*\\([\\w\\s,]+\\))? SELECT [\\s\\S]* FROM ${source}_local\\b`));
      }
    }
  });

  it('puts a materialized view on the local tables of a sharded layout, from and to tables of one shard key', () => {
    expect(VIEWS.length).toBeGreaterThan(0);
    for (const sql of VIEWS) {
      const [, name, target, source] = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (\w+) AS\s+SELECT [\s\S]* FROM (\w+)\b/.exec(
        sql.trim(),
      )!;
      if (!ADDED_UP.has(target!)) expect(SHARD_KEYS[target!]).toBe(SHARD_KEYS[source!]);
      const [replicated, ...more] = rewriteStatement(sql, 'weft', layout('replicated'));
      expect(more).toEqual([]);
      expect(replicated).toMatch(
        new RegExp(`^CREATE MATERIALIZED VIEW IF NOT EXISTS ${name} ON CLUSTER weft TO ${target} AS SELECT [\\s\\S]* FROM ${source}\\b`),
      );
      for (const l of ['sharded', 'replicated-sharded'] as const) {
        for (const onCluster of [true, false]) {
          const out = rewriteStatement(sql, 'weft', layout(l, onCluster));
          expect(out).toHaveLength(1);
          expect(out[0]).toMatch(
            new RegExp(
              `^CREATE MATERIALIZED VIEW IF NOT EXISTS ${name}${onCluster ? ' ON CLUSTER weft' : ''} TO ${target}_local AS SELECT [\\s\\S]* FROM ${source}_local\\b`,
            ),
          );
        }
      }
    }
    expect(() =>
      rewriteStatement('CREATE MATERIALIZED VIEW IF NOT EXISTS v TO projects AS SELECT project_id FROM calls', 'w', layout('sharded')),
    ).toThrow(/same shard key/);
  });

  it('refuses what it cannot place: a table without a shard key, a mixed ALTER, other statements', () => {
    const settings = layout('sharded');
    expect(() => rewriteStatement('CREATE TABLE IF NOT EXISTS mystery (a String) ENGINE = MergeTree ORDER BY a', 'w', settings)).toThrow(
      /no shard key/,
    );
    expect(() => rewriteStatement('ALTER TABLE calls ADD COLUMN IF NOT EXISTS x String, ADD INDEX i x TYPE minmax', 'w', settings)).toThrow(
      /Split this ALTER/,
    );
    expect(() => rewriteStatement('DROP TABLE calls', 'w', settings)).toThrow(/cannot rewrite/);
  });

  it('reads the layout from WEFT_CLICKHOUSE_* or the flags, and refuses inconsistent settings', () => {
    expect(clusterSettingsFrom({})).toEqual({ layout: 'single', cluster: null, onCluster: false });
    expect(clusterSettingsFrom({ WEFT_CLICKHOUSE_LAYOUT: 'sharded', WEFT_CLICKHOUSE_CLUSTER: 'weft' })).toEqual(layout('sharded'));
    expect(
      clusterSettingsFrom(
        { WEFT_CLICKHOUSE_LAYOUT: 'sharded', WEFT_CLICKHOUSE_CLUSTER: 'x' },
        { 'clickhouse-cluster': 'weft', 'clickhouse-on-cluster': '0' },
      ),
    ).toEqual(layout('sharded', false));
    expect(() => clusterSettingsFrom({ WEFT_CLICKHOUSE_LAYOUT: 'replicated' })).toThrow(/needs WEFT_CLICKHOUSE_CLUSTER/);
    expect(() => clusterSettingsFrom({ WEFT_CLICKHOUSE_CLUSTER: 'weft' })).toThrow(/LAYOUT is "single"/);
    expect(() => clusterSettingsFrom({ WEFT_CLICKHOUSE_LAYOUT: 'mesh' })).toThrow(/must be one of/);
    expect(() => clusterSettingsFrom({ WEFT_CLICKHOUSE_LAYOUT: 'sharded', WEFT_CLICKHOUSE_CLUSTER: 'a-b' })).toThrow(/letters, digits/);
  });
});
