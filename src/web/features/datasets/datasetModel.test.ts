import { describe, expect, it } from 'vitest';
import { diffCounts, diffRows, parseCell, parseCsv, parseJsonl, toCsv, toJsonl, type StoredRow } from './datasetModel.js';

const row = (digest: string, val: Record<string, unknown> = { d: digest }): StoredRow => ({ digest, val });

describe('diffRows', () => {
  it('matches rows by digest, then pairs the rest by position between matches', () => {
    // Row b deleted, row e edited (e → E), row g added at the end.
    const before = [row('a'), row('b'), row('c'), row('d'), row('e', { q: 1, a: 'x' }), row('f')];
    const after = [row('a'), row('c'), row('d'), row('E', { q: 1, a: 'y' }), row('f'), row('g')];
    const diff = diffRows(before, after);
    expect(diff.map((d) => d.kind)).toEqual(['same', 'removed', 'same', 'same', 'changed', 'same', 'added']);
    expect(diff[4]).toMatchObject({ beforeIndex: 4, afterIndex: 3, keys: ['a'] });
    expect(diffCounts(diff)).toEqual({ same: 4, added: 1, removed: 1, changed: 1 });
  });

  it('reads everything as added or removed against an empty table', () => {
    expect(diffRows([], [row('a'), row('b')]).map((d) => d.kind)).toEqual(['added', 'added']);
    expect(diffRows([row('a')], []).map((d) => d.kind)).toEqual(['removed']);
    expect(diffRows([], [])).toEqual([]);
  });

  it('aligns scattered edits of a long table around the rows that stayed, and repeated rows by order', () => {
    const before = Array.from({ length: 5000 }, (_, k) => row(`r${k}`));
    const after = before.map((r, k) => (k % 1000 === 500 ? row(`x${k}`) : r)).filter((_, k) => k !== 4999);
    after.splice(10, 0, row('new'));
    const counts = diffCounts(diffRows(before, after));
    expect(counts).toEqual({ same: 4994, added: 1, removed: 1, changed: 5 });
    const dup = [row('d'), row('d'), row('e')];
    expect(diffRows(dup, [row('d'), row('e')]).map((d) => d.kind)).toEqual(['same', 'removed', 'same']);
    expect(diffRows(dup, [row('e')]).map((d) => d.kind)).toEqual(['removed', 'removed', 'same']);
  });
});

describe('import and export', () => {
  it('reads CSV with quoted commas, quotes and newlines, and writes it back the same', () => {
    const text = 'q,a\r\n"Hi, you","say ""yes""\nplease"\r\nplain,2\r\n';
    const { rows, errors } = parseCsv(text);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { q: 'Hi, you', a: 'say "yes"\nplease' },
      { q: 'plain', a: '2' },
    ]);
    expect(toCsv(rows)).toBe(text);
  });

  it('says which line of a bad file is wrong', () => {
    expect(parseCsv('a,b\n1,2\n3\n').errors).toEqual([{ line: 3, message: '1 fields where the header has 2' }]);
    expect(parseCsv('a,a\n1,2\n').errors[0]!.message).toBe('column "a" is named twice');
    expect(parseCsv('a\n"open\n').errors[0]!.message).toBe('a quoted field is never closed');
    const jsonl = parseJsonl('{"a":1}\n\n[1]\n{oops\n');
    expect(jsonl.rows).toEqual([{ a: 1 }]);
    expect(jsonl.errors.map((e) => e.line)).toEqual([3, 4]);
  });

  it('writes JSON lines and CSV with non-string values as JSON', () => {
    const rows = [
      { a: 1, b: { c: [1] } },
      { a: 'x', d: null },
    ];
    expect(parseJsonl(toJsonl(rows)).rows).toEqual(rows);
    expect(toCsv(rows)).toBe('a,b,d\r\n1,"{""c"":[1]}",\r\nx,,\r\n');
    // Text a spreadsheet would run is written inert; numbers stay numbers (docs/security/inputs.md).
    expect(toCsv([{ f: '=HYPERLINK("x")', n: -5, s: '-5' }])).toBe('f,n,s\r\n"\'=HYPERLINK(""x"")",-5,"\'-5"\r\n');
  });

  it('reads an edited cell as JSON when it looks like JSON, else as text', () => {
    expect([parseCell('42'), parseCell('true'), parseCell('{"a":1}'), parseCell('Paris'), parseCell('{bad')]).toEqual([
      42,
      true,
      { a: 1 },
      'Paris',
      '{bad',
    ]);
  });
});
