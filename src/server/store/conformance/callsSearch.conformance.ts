/**
 * Conformance suite for the calls' content search (the `search` filter, docs/search.md): any
 * substring of 3 or more characters of inputs, output, attributes or exception, in any script,
 * case-insensitive; whole-word matches first; exactly the matching calls, nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { CallRecord, CallsQuery, Store } from '../Store.js';
import { endWrite, SECOND, startWrite, T0 } from './callWrites.js';

const P = 'search/p';
const OTHER = 'search/other';

/** Past the indexed part of a document (INDEXED_CHARS on SQLite), so only a whole read finds the end. */
const LONG = 'lorem ipsum '.repeat(7000) + 'zebraquokka';

const CALLS: { id: string; inputs?: unknown; attributes?: unknown; output?: unknown; exception?: string }[] = [
  { id: 'zh', inputs: { prompt: '我们今天讨论退款政策' } },
  { id: 'ja', inputs: { text: '東京タワーに行きました' } },
  { id: 'ar', output: 'مرحبا بالعالم الجميل' },
  { id: 'hi', attributes: { note: 'नमस्ते दुनिया' } },
  { id: 'emoji', exception: 'Boom 🎉🚀🔥 failed' },
  { id: 'refunded', inputs: { msg: 'refunded yesterday' } },
  { id: 'latin', inputs: { msg: 'The Refund was APPROVED' } },
  { id: 'quoted', inputs: { q: 'say "hello" twice' } },
  { id: 'long', inputs: { doc: LONG } },
];

export function describeCallsSearchConformance(open: OpenStore): void {
  describe('calls search conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
      // Starts and ends in separate writes, as the SDKs send them, each call one second after the last.
      await store.calls.writeCalls(
        CALLS.map((c, i) =>
          startWrite(P, c.id, {
            startedAt: T0 + i * SECOND,
            inputsJson: JSON.stringify(c.inputs ?? {}),
            attributesJson: JSON.stringify(c.attributes ?? {}),
          }),
        ),
      );
      await store.calls.writeCalls(
        CALLS.map((c, i) =>
          endWrite(P, c.id, { endedAt: T0 + i * SECOND + 1, outputJson: JSON.stringify(c.output ?? null), exception: c.exception ?? null }),
        ),
      );
      // The same text in another project, which a search of P never finds.
      await store.calls.writeCalls([startWrite(OTHER, 'zh2', { inputsJson: JSON.stringify({ prompt: '我们今天讨论退款政策' }) })]);
    });
    afterAll(() => close());

    const ids = async (search: string, over: Partial<CallsQuery> = {}) => {
      const out: string[] = [];
      for await (const c of store.calls.queryCalls({ projectId: P, filter: { search }, ...over })) out.push(c.id);
      return out;
    };

    it.each([
      ['Chinese', '退款政', ['zh']],
      ['Chinese, a later substring', '款政策', ['zh']],
      ['Japanese', 'タワー', ['ja']],
      ['Japanese, across scripts', '東京タ', ['ja']],
      ['Arabic', 'بالعالم', ['ar']],
      ['Arabic, inside a word', 'عالم', ['ar']],
      ['Hindi', 'नमस्ते', ['hi']],
      ['Hindi, across a space', 'स्ते दु', ['hi']],
      ['emoji', '🎉🚀🔥', ['emoji']],
      ['emoji and Latin', '🔥 failed', ['emoji']],
      ['Latin, any case', 'aPpRoVeD', ['latin']],
      ['Latin, a substring', 'efund', ['latin', 'refunded']],
      ['a quote inside a JSON string', 'say "hello"', ['quoted']],
      ['past the indexed part of a long input', 'zebraquokka', ['long']],
    ])('finds %s text: %s', async (_, search, expected) => {
      expect((await ids(search as string)).sort()).toEqual([...(expected as string[])].sort());
    });

    it.each([
      ['a Chinese text that is not there', '退款 政'],
      ['a Japanese one', 'タワー東'],
      ['an Arabic one', 'مرحبا عالم'],
      ['a Hindi one', 'दुनिया नमस्ते'],
      ['an emoji one', '🚀🎉🔥'],
      ['a Latin one', 'refundz'],
    ])('finds nothing for %s', async (_, search) => {
      expect(await ids(search)).toEqual([]);
    });

    it('ranks whole-word matches first, then keeps the requested order', async () => {
      // Started earlier, `refunded` comes first by start time; `Refund` is the whole word.
      expect(await ids('refund')).toEqual(['latin', 'refunded']);
      expect(await ids('refund', { sortBy: [{ field: 'started_at', direction: 'desc' }] })).toEqual(['latin', 'refunded']);
      expect(await ids('efund')).toEqual(['refunded', 'latin']);
      expect(await ids('efund', { sortBy: [{ field: 'started_at', direction: 'desc' }] })).toEqual(['latin', 'refunded']);
    });

    it('ranks a whole word first in any script, beside emoji and digits, and where occurrences touch or overlap', async () => {
      const cases: [what: string, needle: string, inside: string, whole: string][] = [
        ['a mark after it continues the word (Hindi)', 'नमस', 'नमस्ते दुनिया', 'नमस दुनिया'],
        ['Arabic', 'عالم', 'بالعالم الجميل', 'عالم جميل'],
        ['Chinese characters are letters', '退款政', '我们退款政策', '「退款政」'],
        ['a digit before it', 'abc', '1abc', '(abc)'],
        ['an emoji beside it is no letter', 'quokka', 'aquokka🎉', '🎉quokka🎉'],
        ['a letter outside the first plane', 'abc', '𝐀abc', '𝐀 abc'],
        ['touching occurrences', 'ab-', 'xab-ab-x', 'ab-ab- '],
        ['touching occurrences, the first one last', 'abc', 'xabcabc ', ' abc '],
        ['touching occurrences, the first one first', 'abc', ' abcabcx', ' abc '],
        ['a needle that overlaps itself', 'a-a', 'xa-ax', 'xa-a-a '],
      ];
      // One project a case; inside a word first, so only the ranking puts the later call first.
      await store.calls.writeCalls(
        cases.flatMap(([, , inside, whole], i) => [
          startWrite(`search/rank-${i}`, 'inside', { startedAt: T0, inputsJson: JSON.stringify({ t: inside }) }),
          startWrite(`search/rank-${i}`, 'whole', { startedAt: T0 + SECOND, inputsJson: JSON.stringify({ t: whole }) }),
        ]),
      );
      for (const [i, [what, needle]] of cases.entries()) {
        const found: string[] = [];
        for await (const c of store.calls.queryCalls({ projectId: `search/rank-${i}`, filter: { search: needle } })) found.push(c.id);
        expect(found, what).toEqual(['whole', 'inside']);
      }
    });

    it('ranks whole words first over the whole project, past hundreds of newer calls holding the text inside words', async () => {
      // ClickHouse reads a page newest first from the newest starts and grows that window until
      // its last row holds the text as a whole word (clickhouse/calls.ts pageByStart).
      const W = 'search/window';
      const text = (i: number) => JSON.stringify({ msg: i < 10 ? `a quokka number ${i}` : `xquokkax number ${i}` });
      await store.calls.writeCalls(
        Array.from({ length: 260 }, (_, i) => startWrite(W, `w${i}`, { startedAt: T0 + i * SECOND, inputsJson: text(i) })),
      );
      const page: CallRecord[] = [];
      const newest = [{ field: 'started_at', direction: 'desc' } as const];
      for await (const c of store.calls.queryCalls({ projectId: W, filter: { search: 'quokka' }, sortBy: newest, limit: 5 })) page.push(c);
      expect(page.map((c) => c.id)).toEqual(['w9', 'w8', 'w7', 'w6', 'w5']);
      // The page carries the calls' columns as a read by id does.
      const byId: CallRecord[] = [];
      for await (const c of store.calls.queryCalls({ projectId: W, filter: { call_ids: ['w9', 'w8', 'w7', 'w6', 'w5'] }, sortBy: newest }))
        byId.push(c);
      expect(page).toEqual(byId);
      const inside: string[] = [];
      for await (const c of store.calls.queryCalls({ projectId: W, filter: { search: 'xquokkax' }, sortBy: newest, limit: 3 }))
        inside.push(c.id);
      expect(inside).toEqual(['w259', 'w258', 'w257']);
    });

    it('counts what it finds, and keeps to the project', async () => {
      expect(await store.calls.countCalls({ projectId: P, filter: { search: '退款政' } })).toBe(1);
      expect(await store.calls.countCalls({ projectId: OTHER, filter: { search: '退款政' } })).toBe(1);
      expect(await store.calls.countCalls({ projectId: P, filter: { search: 'nowhere-to-be-found' } })).toBe(0);
    });

    it('finds a part written later, and forgets what a rewrite removed', async () => {
      await store.calls.writeCalls([startWrite(P, 'late', { startedAt: T0 + 100 * SECOND, inputsJson: '{"x":"première étape"}' })]);
      expect(await ids('PREMIÈRE')).toEqual(['late']);
      expect(await ids('ελληνικά')).toEqual([]);
      await store.calls.writeCalls([endWrite(P, 'late', { outputJson: JSON.stringify('ελληνικά κείμενα') })]);
      expect(await ids('ΕΛΛΗΝΙΚΆ')).toEqual(['late']);
      await store.calls.writeCalls([endWrite(P, 'late', { outputJson: JSON.stringify('replaced') })]);
      expect(await ids('ελληνικά')).toEqual([]);
      expect(await ids('première')).toEqual(['late']);
    });

    it('leaves out deleted calls', async () => {
      await store.calls.writeCalls([startWrite(P, 'gone', { inputsJson: '{"x":"vanishing text"}' })]);
      expect(await ids('vanishing')).toEqual(['gone']);
      await store.calls.deleteCalls({ projectId: P, ids: ['gone'], deletedAt: T0 + 1 });
      expect(await ids('vanishing')).toEqual([]);
    });

    it('answers $contains exactly as before, narrowed by the substring index where it can be', async () => {
      const contains = (field: string, substr: string, caseInsensitive = false) => ({
        $contains: { input: { $getField: field }, substr: { $literal: substr }, case_insensitive: caseInsensitive },
      });
      const query = async ($expr: object) => {
        const out: string[] = [];
        for await (const c of store.calls.queryCalls({ projectId: P, query: { $expr } as never })) out.push(c.id);
        return out.sort();
      };
      expect(await query(contains('inputs.prompt', '退款政'))).toEqual(['zh']);
      expect(await query(contains('inputs.msg', 'APPROVED'))).toEqual(['latin']);
      // The index folds case; the test does not, and decides.
      expect(await query(contains('inputs.msg', 'approved'))).toEqual([]);
      expect(await query(contains('inputs.msg', 'approved', true))).toEqual(['latin']);
      expect(await query(contains('inputs.doc', 'zebraquokka'))).toEqual(['long']);
      expect(await query(contains('output', 'بالعالم'))).toEqual(['ar']);
      // Too short for the index, or with a quote: the test alone.
      expect(await query(contains('inputs.msg', 'he'))).toEqual(['latin']);
      expect(await query(contains('inputs.q', 'say "hello"'))).toEqual(['quoted']);
      // Under $not and $or, as before.
      expect((await query({ $not: [contains('inputs.msg', 'APPROVED')] })).includes('latin')).toBe(false);
      expect(await query({ $or: [contains('inputs.msg', 'APPROVED'), contains('attributes.note', 'नमस्ते')] })).toEqual(['hi', 'latin']);
      expect(await query({ $and: [contains('inputs.msg', 'Refund'), contains('inputs.msg', 'was')] })).toEqual(['latin']);
    });

    it('finds threads by a substring of a turn, in any script, beside the word search', async () => {
      const T = 'search/threads';
      const turn = (id: string, thread: string, text: string, i: number) =>
        startWrite(T, id, { threadId: thread, turnId: id, startedAt: T0 + i * SECOND, inputsJson: JSON.stringify({ m: text }) });
      await store.calls.writeCalls([
        turn('t1', 'zh-thread', '我们今天讨论退款政策', 0),
        turn('t2', 'ja-thread', '東京タワーに行きました', 1),
        turn('t3', 'hi-thread', 'नमस्ते दुनिया', 2),
        // Not a turn (its turn id is another call's): never searched as one.
        startWrite(T, 'inner', { threadId: 'ja-thread', turnId: 't2', startedAt: T0 + 3 * SECOND, inputsJson: '{"m":"退款政策"}' }),
      ]);
      await store.calls.writeCalls(['t1', 't2', 't3', 'inner'].map((id) => endWrite(T, id)));
      const threads = async (search: string) => {
        const out: string[] = [];
        for await (const t of store.threads.queryThreads({ projectId: T, search, sortBy: [] })) out.push(t.threadId);
        return out.sort();
      };
      expect(await threads('退款政')).toEqual(['zh-thread']);
      expect(await threads('タワー')).toEqual(['ja-thread']);
      expect(await threads('स्ते दु')).toEqual(['hi-thread']);
      expect(await threads('タワー東')).toEqual([]);
      // Shorter than 3 characters: the word search alone, which finds no part of an unspaced phrase.
      expect(await threads('退款')).toEqual([]);
      expect(await threads('hi-thread')).toEqual(['hi-thread']);
    });

    it('refuses a search shorter than 3 characters, and a blank one filters nothing', async () => {
      await expect(ids('ab')).rejects.toThrow(/at least 3 characters/);
      await expect(ids('退款')).rejects.toThrow(/at least 3 characters/);
      expect((await ids('   ')).length).toBeGreaterThanOrEqual(CALLS.length);
    });
  });
}
