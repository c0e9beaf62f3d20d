import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesDigest, tableDigest, valueDigest } from './digests.js';
import { compareCodePoints, fromPlain, parseLossless, PyFloat, pyFloatRepr, toCompactJson, toPythonJson } from './losslessJson.js';

// The official TypeScript SDK's digest helpers (its package exports hide the file, so load it by path).
const require = createRequire(import.meta.url);
const sdkDigest = require(join(dirname(require.resolve('weave')), 'digest.js')) as {
  valDigest(v: unknown): string;
  computeDigest(b: Uint8Array): string;
};

const digestOf = (json: string) => valueDigest(parseLossless(json));

describe('the worked example of docs/api/core.md', () => {
  const example = '{"b":1,"a":[1.0,"x",null,true],"c":{"z":"é","y":1e-7}}';

  it('prints sorted Python json.dumps text', () => {
    expect(toPythonJson(parseLossless(example))).toBe('{"a": [1.0, "x", null, true], "b": 1, "c": {"y": 1e-07, "z": "\\u00e9"}}');
  });

  it('gives the documented object, row, table, file and empty-object digests', () => {
    expect(digestOf(example)).toBe('5wi7jlXaAT6Jb0cqw9xKY27qDaY23hF89ErBEtyvOf0');
    const rows = [digestOf('{"x":1}'), digestOf('{"x":2}')];
    expect(rows).toEqual(['YTYlqmU0Pbsbmr5qusZ3P1yRvWDT8vX34urmnh24sic', 'JPVyYA4VDTIwE4OFqgAGyhuZO0a7Qn90bMaQyY2TJBM']);
    expect(tableDigest(rows)).toBe('ed8bd1f8cb829eeb6b3fef95a7cd8401f7e5af825c4c9aa144a1ceb9f32c3654');
    expect(tableDigest([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(bytesDigest(Buffer.from('hello world'))).toBe('uU0nuZNNPgilLlLX2n2rXsSE7XN6U4DukIj3rOLvzek');
    expect(digestOf('{}')).toBe('RBNvo1WzZ4oRRq0W9XhknpT7T8If536DEMBg9hyqY4o');
  });
});

describe('agreement with the weave npm package', () => {
  // Values as the TypeScript SDK sends them: JSON.stringify output, so no `1.0` floats.
  const values: unknown[] = [
    {},
    [],
    { a: {}, b: [], c: [[], [{}]] },
    { name: 'My Model', nested: { deep: { list: [1, 2, { x: 'y' }] } }, flag: true, none: null },
    { z: 1, a: 2, m: [3, 'three'] },
    { score: 0.5, temp: 0.7, neg: -3.75, small: 0.001, mixed: [1, 2.25, 123.456] },
    { quote: 'say "hi"\n\ttab\\slash', ctrl: '\u0001' },
  ];

  it.each(values.map((v) => [JSON.stringify(v), v]))('%s', (json, value) => {
    expect(digestOf(json)).toBe(sdkDigest.valDigest(value));
  });

  it('hashes file bytes as the SDK does', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    expect(bytesDigest(bytes)).toBe(sdkDigest.computeDigest(bytes));
  });

  it('follows Python, not the npm helper, for non-ASCII text and exponent floats', () => {
    // The npm helper keeps non-ASCII characters and prints 1e-7 the JavaScript way; the SDK
    // never sends it (it takes the server's digest), while Python clients send
    // `expected_digest` computed with ensure_ascii and repr floats. Values from Python 3.
    const unicode = { name: 'café ☕', emoji: '😀', cjk: '漢字', ctrl: 'a\u0001\u007f' };
    expect(digestOf(JSON.stringify(unicode))).toBe('7PL06XQtdfECrKEzrsBYcFKRnaGmR7zdcd89YqJm3Es');
    expect(sdkDigest.valDigest(unicode)).not.toBe('7PL06XQtdfECrKEzrsBYcFKRnaGmR7zdcd89YqJm3Es');
    const floats = '{"a": 1.0, "b": 1e-07, "c": 1e16, "d": 0.1, "e": -0.0, "f": 1E+22, "g": 123456789.125}';
    expect(digestOf(floats)).toBe('GwbLIa8GISqkkOedkVIOP4iHDYuuiVTk9BZKp6VVyqw');
    expect(digestOf('{"n": 12345678901234567890123}')).toBe('RYlBqCQsoq0qMY94YeTrcnnY62ags4cnQRJk5zstnRE');
  });
});

describe('pyFloatRepr', () => {
  it.each([
    [1, '1.0'],
    [0.1, '0.1'],
    [1e-7, '1e-07'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [9999999999999998, '9999999999999998.0'],
    [123456789012345680, '1.2345678901234568e+17'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-0, '-0.0'],
    [5e-324, '5e-324'],
    [1.5e300, '1.5e+300'],
    [-2.5, '-2.5'],
    [0.30000000000000004, '0.30000000000000004'],
    [Infinity, 'Infinity'],
    [NaN, 'NaN'],
  ])('%s → %s', (x, repr) => {
    expect(pyFloatRepr(x)).toBe(repr);
  });
});

describe('parseLossless', () => {
  it('keeps floats, ints, big ints and key order', () => {
    const v = parseLossless('{"b": 1.0, "a": 2, "10": 1e2, "big": 98765432109876543210, "s": "\\u00e9\\n"}');
    expect(v).toEqual(
      new Map<string, unknown>([
        ['b', new PyFloat(1)],
        ['a', 2],
        ['10', new PyFloat(100)],
        ['big', 98765432109876543210n],
        ['s', 'é\n'],
      ]),
    );
    expect(toCompactJson(v)).toBe('{"b":1.0,"a":2,"10":100.0,"big":98765432109876543210,"s":"é\\n"}');
  });

  it('keeps the last of duplicate keys at the first position, as Python does', () => {
    expect(toPythonJson(parseLossless('{"a": 1, "b": 2, "a": 3}'))).toBe('{"a": 3, "b": 2}');
  });

  it.each(['', '{', '[1,]', '{"a" 1}', '01', '1.', '"\\x"', '"a\nb"', 'nul', '{} x', '-'])('rejects %j as JSON.parse does', (text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(() => parseLossless(text)).toThrow(SyntaxError);
  });

  it('reads what JSON.parse reads', () => {
    const text = ' {"a" : [ -7 , 1.5e-3 , true , false , null , "\\ud83d\\ude00" ] } ';
    expect(JSON.parse(toCompactJson(parseLossless(text)))).toEqual(JSON.parse(text));
  });
});

describe('helpers', () => {
  it('sorts keys by code point, as Python does', () => {
    expect(['\uffff', '😀', 'b', 'a'].sort(compareCodePoints)).toEqual(['a', 'b', '\uffff', '😀']);
  });

  it('fromPlain treats integral numbers as ints', () => {
    expect(toPythonJson(fromPlain({ a: 1, b: 1.5, c: [null, 'x'] }))).toBe('{"a": 1, "b": 1.5, "c": [null, "x"]}');
  });
});
