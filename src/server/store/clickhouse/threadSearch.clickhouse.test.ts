/**
 * ClickHouse's thread search finds what SQLite's FTS5 index finds: the same turns written to
 * both stores, the same search words, the same threads. The texts are the awkward cases of the
 * unicode61 tokenizer (case, Latin diacritics precomposed or combining, the Latin letters it
 * keeps, other scripts, punctuation inside words, JSON escapes (\u ones too) and keys).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempClickHouseDatabase, openTempSqliteStore, testBackends } from '../../testing/tempStore.js';
import { endWrite, startWrite } from '../conformance/callWrites.js';
import type { Store } from '../Store.js';
import { ClickHouseStore } from './ClickHouseStore.js';

const P = 'acme/search';

/** One thread per text, its one turn's inputs holding it (the last ones in the output; `json`: the inputs as written). */
const TEXTS: { inputs: unknown; output?: unknown; json?: string }[] = [
  { inputs: { q: 'Café au lait' } },
  { inputs: { q: 'naïve ÉLAN' } },
  { inputs: { q: 'Straße Ångström' } },
  { inputs: { q: 'e-mail foo_bar x.y' } },
  { inputs: { q: 'İstanbul ı' } },
  { inputs: { q: 'άλφα Ελληνικά' } },
  { inputs: { q: 'Привет мир' } },
  { inputs: { q: 'क्षत्रिय' } },
  { inputs: { q: '中文测试' } },
  { inputs: { q: '😀abc' } },
  { inputs: { q: 'a\u0301bc 1\u0301a α\u0301β x\u0334y' } },
  { inputs: { q: 'ﬁne １２３ x² Ⅻ' } },
  { inputs: { q: 'ø ł ǡ ǽ ǖ ṩ' } },
  { inputs: { q: "don't tab\there\nline" } },
  { inputs: { q: 'Σίσυφος ς µs ſun' } },
  { inputs: { messages: [{ role: 'user', content: 'quoted "inner" words' }], n: 42, ok: true } },
  { inputs: { keyonly: 'value' }, output: { nested: ['deep', { deeper: 'deepest' }] } },
  { inputs: {}, output: 'plain output string' },
  // Letters written as \u escapes (Python's json.dumps writes every non-ASCII character so).
  { inputs: null, json: '{"q":"cr\\u00e8me br\\u00fbl\\u00e9e \\u0063ustard"}' },
];

const WORDS = [
  'cafe',
  'CAFÉ',
  'café',
  'au',
  'naive',
  'elan',
  'strasse',
  'straße',
  'stra',
  'angstrom',
  'e-mail',
  'email',
  'mail',
  'foo',
  'bar',
  'x.y',
  'y',
  'istanbul',
  'i',
  'ı',
  'αλφα',
  'άλφα',
  'ελλην',
  'привет',
  'мир',
  'क',
  'कष',
  'क्ष',
  'ष',
  '中文',
  'abc',
  'ab',
  '1a',
  'α',
  'αβ',
  'x',
  'fi',
  'fine',
  '123',
  '１２３',
  'x2',
  'ⅻ',
  'o',
  'ø',
  'l',
  'ł',
  'a',
  'ǡ',
  'ae',
  'u',
  'ǖ',
  's',
  'don',
  't',
  'tab',
  'here',
  'nline',
  'line',
  'σισυφος',
  'σίσυφος',
  'σ',
  'ς',
  'μs',
  'sun',
  'inner',
  'quoted',
  'messages',
  'role',
  'user',
  '42',
  'true',
  'keyonly',
  'value',
  'nested',
  'deep',
  'deeper',
  'deepest',
  'plain',
  'output',
  'creme',
  'crème',
  'brulee',
  'custard',
];

// Runs when the ClickHouse backend is tested (WEFT_TEST_STORES; CI tests it).
describe.runIf(testBackends().some((b) => b.name === 'clickhouse'))('on a ClickHouse engine', () => {
  describe('ClickHouse thread search', () => {
    const stores: Store[] = [];
    const closers: (() => Promise<void>)[] = [];
    beforeAll(async () => {
      const sqlite = await openTempSqliteStore();
      const db = await createTempClickHouseDatabase();
      const clickhouse = await ClickHouseStore.open(db);
      stores.push(sqlite.store, clickhouse);
      closers.push(sqlite.close, async () => {
        await clickhouse.close();
        await db.drop();
      });
      const writes = TEXTS.flatMap((t, i) => {
        const id = `t${String(i).padStart(2, '0')}`;
        return [
          startWrite(P, id, { threadId: id, turnId: id, inputsJson: t.json ?? JSON.stringify(t.inputs) }),
          endWrite(P, id, { outputJson: JSON.stringify(t.output ?? null) }),
        ];
      });
      for (const store of stores) await store.calls.writeCalls(writes);
    });
    afterAll(async () => {
      for (const close of closers) await close();
    });

    const found = async (store: Store, search: string) => {
      const out: string[] = [];
      for await (const t of store.threads.queryThreads({ projectId: P, sortBy: [], search })) out.push(t.threadId);
      return out;
    };

    it('finds the threads SQLite FTS5 finds for each word and for several words at once', async () => {
      const searches = [...WORDS, 'cafe naive', 'e-mail x.y', 'deep plain', 'inner quoted user'];
      const [sqlite, clickhouse] = stores as [Store, Store];
      const differences: string[] = [];
      for (const search of searches) {
        const [want, got] = [await found(sqlite, search), await found(clickhouse, search)];
        if (JSON.stringify(want) !== JSON.stringify(got))
          differences.push(`${search}: SQLite ${want.join(',')} ClickHouse ${got.join(',')}`);
      }
      expect(differences).toEqual([]);
      // The comparison has teeth: words that match and words that do not.
      expect(await found(clickhouse, 'cafe')).toEqual(['t00']);
      // A JSON key is no word, but the substring rule reads the stored JSON text (docs/search.md).
      expect(await found(clickhouse, 'messages')).toEqual(['t15']);
      // The longest search the API takes, in the letter with the most variants, is one pattern
      // within ClickHouse's limit on a parameter's size.
      expect(await found(clickhouse, 'o'.repeat(500))).toEqual([]);
    }, 180_000);
  });
});
