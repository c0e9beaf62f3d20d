import { describe, expect, it } from 'vitest';
import { diffLines, foldUnchanged } from './lineDiff.js';

describe('diffLines', () => {
  it('finds changed, added and removed lines with their numbers', () => {
    const diff = diffLines('a\nb\nc\nd', 'a\nB\nc\nd\ne')!;
    expect(diff.map((l) => `${l.kind[0]}${l.before ?? '-'}:${l.after ?? '-'} ${l.text}`)).toEqual([
      's1:1 a',
      'r2:- b',
      'a-:2 B',
      's3:3 c',
      's4:4 d',
      'a-:5 e',
    ]);
  });

  it('is all "same" for equal texts, and null when the middle is too big', () => {
    expect(diffLines('x\ny', 'x\ny')!.every((l) => l.kind === 'same')).toBe(true);
    expect(diffLines('a\nb\nc', 'x\ny\nz', { maxCells: 4 })).toBeNull();
  });
});

describe('foldUnchanged', () => {
  it('keeps context around changes and folds the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const after = before.replace('l10', 'L10');
    const folded = foldUnchanged(diffLines(before, after)!, 2);
    expect(folded.map((l) => (l.kind === 'fold' ? `…${l.count}` : l.text))).toEqual(['…8', 'l8', 'l9', 'l10', 'L10', 'l11', 'l12', '…7']);
  });
});
