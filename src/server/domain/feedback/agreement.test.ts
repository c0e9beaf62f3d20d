/** The agreement statistics against examples worked by hand and a published one (docs/judge-agreement.md). */
import { describe, expect, it } from 'vitest';
import { cohenKappa, confusionOf, krippendorffAlpha, labelOf, percentAgreement } from './agreement.js';

const repeat = <T>(n: number, pair: T): T[] => Array.from({ length: n }, () => pair);

describe('agreement', () => {
  it("Cohen's κ: 50 items, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → pₒ 0.7, pₑ 0.5, κ 0.4", () => {
    const pairs = [
      ...repeat(20, ['yes', 'yes'] as const),
      ...repeat(5, ['yes', 'no'] as const),
      ...repeat(10, ['no', 'yes'] as const),
      ...repeat(15, ['no', 'no'] as const),
    ];
    expect(percentAgreement(pairs)).toBeCloseTo(0.7, 12);
    expect(cohenKappa(pairs)).toBeCloseTo(0.4, 12);
    expect(confusionOf(pairs)).toEqual({
      labels: ['no', 'yes'],
      counts: [
        [15, 10],
        [5, 20],
      ],
    });
  });

  it('two raters, four units: κ 0.5 and α 1 − 7·2/30', () => {
    const pairs = [
      ['a', 'a'],
      ['a', 'b'],
      ['b', 'b'],
      ['b', 'b'],
    ] as const;
    expect(cohenKappa(pairs)).toBeCloseTo(0.5, 12);
    // Coincidences: o(a,a) 2, o(a,b) = o(b,a) 1, o(b,b) 4; n_a 3, n_b 5, n 8.
    expect(krippendorffAlpha(pairs)).toBeCloseTo(1 - (7 * 2) / 30, 12);
  });

  it("Krippendorff's α nominal: 4 observers, 12 units with gaps (Krippendorff 2011) → 0.743", () => {
    const units = [
      ['1', '1', '1'],
      ['2', '2', '3', '2'],
      ['3', '3', '3', '3'],
      ['3', '3', '3', '3'],
      ['2', '2', '2', '2'],
      ['1', '2', '3', '4'],
      ['4', '4', '4', '4'],
      ['1', '1', '2', '1'],
      ['2', '2', '2', '2'],
      ['5', '5', '5'],
      ['1', '1'],
      ['3'],
    ];
    expect(krippendorffAlpha(units)!.toFixed(3)).toBe('0.743');
  });

  it('undefined cases answer null; perfect agreement answers 1', () => {
    expect(cohenKappa([])).toBeNull();
    expect(
      cohenKappa([
        ['x', 'x'],
        ['x', 'x'],
      ]),
    ).toBeNull();
    expect(krippendorffAlpha([['x', 'x'], ['x']])).toBeNull();
    expect(krippendorffAlpha([['x'], ['y']])).toBeNull();
    expect(
      cohenKappa([
        ['x', 'x'],
        ['y', 'y'],
      ]),
    ).toBe(1);
    expect(
      krippendorffAlpha([
        ['x', 'x'],
        ['y', 'y', 'y'],
      ]),
    ).toBe(1);
  });

  it('labels: strings trimmed, other values as JSON, so true and "true" agree', () => {
    expect([labelOf(' yes '), labelOf(true), labelOf(4), labelOf({ a: 1 })]).toEqual(['yes', 'true', '4', '{"a":1}']);
    expect(labelOf('true')).toBe(labelOf(true));
  });
});
