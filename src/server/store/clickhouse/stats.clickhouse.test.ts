/**
 * The per-hour stats cells (migration 24, stats.ts) answer exactly what the plain scan of
 * `calls FINAL` answers, and are used for every whole hour that no write made inexact: each case
 * writes ten hours of calls (start and end in one row, as `upsert_batch` sends them) into a
 * project of its own, changes one hour's calls in one way, and reads the same spans both ways.
 * The stats conformance suite checks the cells against the facts on both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, testBackends } from '../../testing/tempStore.js';
import { endWrite, startWrite, T0, usageSummary } from '../conformance/callWrites.js';
import type { CallWrite } from '../Store.js';
import { ClickHouseDatabase } from './ClickHouseDatabase.js';
import { ClickHouseStore } from './ClickHouseStore.js';
import { v24StatsRollup } from './migrations/v24StatsRollup.js';
import { ClickHouseStatsStore, STATS_HOUR as H } from './stats.js';

const MIN = 60_000_000;
const OPS = ['op-a', 'weave:///acme/rollup/op/llm:v1', 'weave:///acme/rollup/op/llm:v2'];
/** Call i of hour h: 20 an hour, three ops, some failing, two models. */
const id = (h: number, i: number) => `h${h}-c${i}`;
const startOf = (h: number, i: number) => T0 + h * H + i * 3 * MIN;
const callOf = (p: string, h: number, i: number, ms = 100 + ((h * 37 + i * 53) % 900)): CallWrite[] => [
  startWrite(p, id(h, i), { startedAt: startOf(h, i), opName: OPS[i % 3]! }),
  endWrite(p, id(h, i), {
    endedAt: startOf(h, i) + ms * 1000,
    exception: i % 7 === 0 ? 'boom' : null,
    summaryJson: usageSummary(i % 2 ? 'gpt-4o' : 'claude', 10 + i, h),
  }),
];

/** A call of its own in hour 3, written as one of `callOf`'s. */
const fresh = (p: string, name: string): CallWrite[] => callOf(p, 3, 1).map((w) => ({ ...w, id: name }));

describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse stats cells kept per hour', () => {
    let store: ClickHouseStore;
    let db: ClickHouseDatabase;
    let drop: () => Promise<void>;
    let plain: ClickHouseStatsStore;
    let stored: ClickHouseStatsStore;
    beforeAll(async () => {
      const temp = await createTempClickHouseDatabase();
      drop = temp.drop;
      store = await ClickHouseStore.open(temp);
      db = new ClickHouseDatabase(temp);
      plain = new ClickHouseStatsStore(db, { stored: false });
      // Checks kept at once (no quiet time), so every change below has to undo a kept check.
      stored = new ClickHouseStatsStore(db, { settleSeconds: 0 });
    });
    afterAll(async () => {
      await store.close();
      await db.close();
      await drop();
    });

    let projects = 0;
    const seed = async () => {
      const p = `acme/rollup-${++projects}`;
      const writes: CallWrite[] = [];
      for (let h = 0; h < 10; h++) for (let i = 0; i < 20; i++) writes.push(...callOf(p, h, i));
      await store.calls.writeCalls(writes);
      return p;
    };
    /** Hourly spans over hours 0–9 cut at both ends, and one span over all of it. */
    const HOURLY = [T0 + 20 * MIN, ...Array.from({ length: 9 }, (_, h) => T0 + (h + 1) * H), T0 + 9 * H + 10 * MIN];
    const expectSame = async (p: string, bounds = HOURLY) => {
      for (const b of [[bounds[0]!, bounds.at(-1)!], bounds]) {
        for (const opNames of [null, ['weave:///acme/rollup/op/llm:*'], [OPS[0]!]]) {
          const q = { projectId: p, opNames, bounds: b, withUsage: true };
          const want = await plain.spanCells(q);
          expect(want.calls.length).toBeGreaterThan(0);
          expect(await stored.spanCells(q)).toEqual(want);
        }
      }
      const { storedHours, rowHours, scanned } = stored.lastRead!;
      return { storedHours, rowHours, scanned };
    };
    /** Hours 1–8 from the cells, the cut edge hours 0 and 9 from the start-ordered rows. */
    const CELLS = { storedHours: 8, rowHours: 2, scanned: [] };
    /** Hour h (and more) read from calls instead, its calls merged. */
    const without = (...hs: number[]) => ({
      storedHours: 8 - hs.length,
      rowHours: 2,
      scanned: hs.map((h): [number, number] => [T0 + h * H, T0 + (h + 1) * H]),
    });

    it('answers whole hours from the cells and scans only the edges', async () => {
      const p = await seed();
      expect(await expectSame(p)).toEqual(CELLS);
      // A rename changes no statistic and no cell.
      await store.calls.updateCallDisplayName({ projectId: p, id: id(3, 4), displayName: 'renamed' });
      expect(await expectSame(p)).toEqual(CELLS);
      // Bounds at half past every hour: each hour is cut, so all of them come from the rows.
      const half = Array.from({ length: 11 }, (_, h) => T0 + h * H + 30 * MIN);
      expect(await expectSame(p, half)).toEqual({ storedHours: 0, rowHours: 10, scanned: [] });
    });

    const changes: [string, (p: string) => Promise<unknown>][] = [
      ['a whole call sent again', (p) => store.calls.writeCalls(callOf(p, 3, 5))],
      ['an end sent again alone, slower', (p) => store.calls.writeCalls([callOf(p, 3, 5, 5_000)[1]!])],
      [
        'a start sent again a second later',
        (p) => store.calls.writeCalls([{ ...callOf(p, 3, 5)[0]!, startedAt: startOf(3, 5) + 1e6 } as CallWrite]),
      ],
      ['a delete', (p) => store.calls.deleteCalls({ projectId: p, ids: [id(3, 5), id(3, 6)], deletedAt: T0 })],
      [
        'a start alone, then its end alone',
        async (p) => {
          const [s, e] = fresh(p, 'running');
          await store.calls.writeCalls([s!]);
          expect(await expectSame(p)).toEqual(without(3));
          await store.calls.writeCalls([e!]);
        },
      ],
      [
        'an end that came before its start',
        async (p) => {
          const [s, e] = fresh(p, 'overtaken');
          await store.calls.writeCalls([e!]);
          await store.calls.writeCalls([s!]);
        },
      ],
    ];
    for (const [name, change] of changes) {
      it(`reads the hour of ${name} from calls`, async () => {
        const p = await seed();
        // Read once first, so the hours' ids are checked and remembered before the change.
        expect(await expectSame(p)).toEqual(CELLS);
        await change(p);
        expect(await expectSame(p)).toEqual(without(3));
      });
    }

    // A start sent again with a start time in another hour moves its call there: the old hour's
    // cells still count it, and nothing was written in that hour. Its id's second start tells.
    const moves: [string, (p: string) => CallWrite[]][] = [
      ['alone', (p) => [{ ...callOf(p, 3, 5)[0]!, startedAt: startOf(5, 5) } as CallWrite]],
      ['with its end', (p) => callOf(p, 3, 5).map((w) => (w.kind === 'start' ? { ...w, startedAt: startOf(5, 5) } : w))],
    ];
    for (const [name, moved] of moves) {
      it(`reads both hours of a start sent again ${name} in another hour from calls`, async () => {
        const p = await seed();
        expect(await expectSame(p)).toEqual(CELLS);
        await store.calls.writeCalls(moved(p));
        expect(await expectSame(p)).toEqual(without(3, 5));
        // For good: the hours stay read from calls once their counts are checked again,
        // and the check is kept, so later reads do not look the hours' ids up again.
        expect(await expectSame(p)).toEqual(without(3, 5));
        expect(stored.lastRead!.checkedHours).toBe(0);
      });
    }

    it('reads the hours of expired calls from calls once their rows are gone', async () => {
      const p = await seed();
      const all = [T0, ...Array.from({ length: 10 }, (_, h) => T0 + (h + 1) * H)];
      await store.retention.expireCalls({ projectId: p, before: T0 + 10 * MIN, limit: 100, now: T0 + 11 * H });
      // What the TTL does at a merge once expire_at has passed, done now.
      const expired = [0, 1, 2, 3].map((i) => id(0, i));
      await db.command('ALTER TABLE calls DELETE WHERE project_id = {p:String} AND id IN {ids:Array(String)}', { p, ids: expired });
      expect(await expectSame(p, all)).toEqual({ storedHours: 9, rowHours: 0, scanned: [[T0, T0 + H]] });
    });

    it('fills the cells of calls stored before the migration', async () => {
      const p = await seed();
      const tables = ['hours', 'usage_hours', 'loose', 'starts', 'rows', 'checked', 'dirty'].map((t) => `call_stats_${t}`);
      for (const t of tables) await db.command(`ALTER TABLE ${t} DELETE WHERE project_id = {p:String}`, { p });
      await store.calls.writeCalls([callOf(p, 3, 5, 5_000)[1]!]);
      for (const t of tables) await db.command(`ALTER TABLE ${t} DELETE WHERE project_id = {p:String}`, { p });
      // Merged, the end and its call are one complete row, which the backfill counts as it stands.
      await db.command('OPTIMIZE TABLE calls FINAL');
      // The backfill (it counts every other project's calls twice: their hours are then read from calls).
      for (const sql of v24StatsRollup.statements.filter((s) => s.startsWith('INSERT'))) await db.command(sql);
      expect(await expectSame(p)).toEqual(CELLS);
    });
  });
});
