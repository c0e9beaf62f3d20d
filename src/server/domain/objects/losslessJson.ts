/**
 * Lossless JSON: a parser and two serializers that keep what `JSON.parse` throws away and the
 * Weave digests depend on.
 *
 * - A number written with a fraction or an exponent (`1.0`, `1e-7`) is a Python float and
 *   prints as `1.0`; written without (`1`), it is an int and prints as `1`. Floats become
 *   `PyFloat`, ints stay numbers, or `bigint` beyond 2^53 (Python ints are unbounded).
 * - Objects become `Map`s, which keep insertion order exactly (a JS object would move
 *   integer-like keys first) and have no `__proto__` trap.
 *
 * `toPythonJson` prints like Python's `json.dumps(v, sort_keys=True)` (the digest input);
 * `toCompactJson` prints standard compact JSON in received order, floats still as `1.0`,
 * which is what the stores keep.
 */

/** A JSON number that Python reads as a float. */
export class PyFloat {
  constructor(readonly value: number) {}
}

export type LosslessValue = null | boolean | string | number | bigint | PyFloat | LosslessValue[] | LosslessObject;
export type LosslessObject = Map<string, LosslessValue>;

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters: the run stops at them
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const LITERALS: Record<string, LosslessValue> = { true: true, false: false, null: null };
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Parses JSON text; throws SyntaxError (with the offset) on anything `JSON.parse` rejects. */
export function parseLossless(text: string): LosslessValue {
  let pos = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${pos}`);
  };
  const skipSpace = () => {
    for (let c = text.charCodeAt(pos); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++pos));
  };
  const expect = (word: string) => {
    if (!text.startsWith(word, pos)) fail('Unexpected token');
    pos += word.length;
  };

  const parseString = (): string => {
    pos++; // opening quote
    let out = '';
    for (;;) {
      STRING_RUN.lastIndex = pos;
      STRING_RUN.exec(text);
      out += text.slice(pos, STRING_RUN.lastIndex);
      pos = STRING_RUN.lastIndex;
      const c = text[pos];
      if (c === '"') {
        pos++;
        return out;
      }
      if (c !== '\\') fail(c === undefined ? 'Unterminated string' : 'Bad control character in string');
      const e = text[pos + 1]!;
      if (e === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Bad Unicode escape');
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else {
        const ch = ESCAPES[e];
        if (ch === undefined) fail('Bad escaped character');
        out += ch;
        pos += 2;
      }
    }
  };

  const parseNumber = (): LosslessValue => {
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) return fail('Unexpected token');
    pos = NUMBER.lastIndex;
    const value = Number(m[0]);
    if (m[1] !== undefined || m[2] !== undefined) return new PyFloat(value);
    return Number.isSafeInteger(value) ? value : BigInt(m[0]);
  };

  const parseValue = (depth: number): LosslessValue => {
    if (depth > 512) fail('Nesting too deep');
    skipSpace();
    const c = text[pos];
    if (c === '"') return parseString();
    if (c === '{') {
      pos++;
      const obj: LosslessObject = new Map();
      skipSpace();
      if (text[pos] === '}') {
        pos++;
        return obj;
      }
      for (;;) {
        skipSpace();
        if (text[pos] !== '"') fail('Expected property name');
        const key = parseString();
        skipSpace();
        expect(':');
        obj.set(key, parseValue(depth + 1));
        skipSpace();
        if (text[pos] === ',') pos++;
        else if (text[pos] === '}') {
          pos++;
          return obj;
        } else fail("Expected ',' or '}'");
      }
    }
    if (c === '[') {
      pos++;
      const arr: LosslessValue[] = [];
      skipSpace();
      if (text[pos] === ']') {
        pos++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1));
        skipSpace();
        if (text[pos] === ',') pos++;
        else if (text[pos] === ']') {
          pos++;
          return arr;
        } else fail("Expected ',' or ']'");
      }
    }
    const literal = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : null;
    if (literal === null) return parseNumber();
    expect(literal);
    return LITERALS[literal] ?? null;
  };

  const value = parseValue(0);
  skipSpace();
  if (pos !== text.length) fail('Unexpected data after JSON');
  return value;
}

/** Python's `repr(float)`: shortest round-trip digits, exponent form outside 1e-4 ≤ |x| < 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that round-trip, the
  // same digits Python's repr picks; only the layout differs.
  const [mantissa, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const decpt = Number(exp) + 1; // value = 0.<digits> * 10^decpt
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const e = decpt - 1;
  const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
  return `${sign}${digits[0]}${frac}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** Orders strings by code point, as Python sorts `str` (plain `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800–DFFF) encode code points above FFFF, so they sort after E000–FFFF.
    if (x >= 0xd800) x += x >= 0xe000 ? -0x800 : 0x2000;
    if (y >= 0xd800) y += y >= 0xe000 ? -0x800 : 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const SHORT_ESCAPES: Record<number, string> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x08: '\\b',
  0x0c: '\\f',
};

/** A JSON string literal with Python's `ensure_ascii=True` escaping. */
export function pyQuote(s: string): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i) + (SHORT_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, '0')}`);
    start = i + 1;
  }
  return `${out}${s.slice(start)}"`;
}

/** `json.dumps(value, sort_keys=True)` with Python's default separators and escaping. */
export function toPythonJson(value: LosslessValue): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'string') return pyQuote(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(toPythonJson).join(', ')}]`;
  const keys = [...value.keys()].sort(compareCodePoints);
  return `{${keys.map((k) => `${pyQuote(k)}: ${toPythonJson(value.get(k)!)}`).join(', ')}}`;
}

/** Compact standard JSON in received key order; floats keep their Python form (`1.0`). */
export function toCompactJson(value: LosslessValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof PyFloat) {
    // Infinity is not JSON; an out-of-range literal reads back as the same infinity.
    return Number.isFinite(value.value) ? pyFloatRepr(value.value) : value.value > 0 ? '1e999' : '-1e999';
  }
  if (Array.isArray(value)) return `[${value.map(toCompactJson).join(',')}]`;
  let out = '';
  for (const [k, v] of value) out += `${out ? ',' : ''}${JSON.stringify(k)}:${toCompactJson(v)}`;
  return `{${out}}`;
}

/** Converts a plain JS value (from `JSON.parse`): integral numbers become ints, others floats. */
export function fromPlain(value: unknown): LosslessValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value : new PyFloat(value);
  if (Array.isArray(value)) return value.map(fromPlain);
  if (typeof value === 'object') {
    return new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fromPlain(v)]));
  }
  throw new TypeError(`Not a JSON value: ${typeof value}`);
}

/** True when the value is a JSON object. */
export const isLosslessObject = (value: LosslessValue | undefined): value is LosslessObject => value instanceof Map;

/**
 * A request body re-read losslessly: from its text when the route layer kept it, else (a
 * request built in-process) from the parsed value, where `1.0` has already become `1`.
 */
export function losslessBody(rawBody: string | null, parsed: unknown): LosslessValue {
  return rawBody === null ? fromPlain(parsed) : parseLossless(rawBody);
}

/** The value at a path of object keys and array indexes, or undefined. */
export function losslessAt(value: LosslessValue | undefined, path: (string | number)[]): LosslessValue | undefined {
  for (const step of path) {
    if (typeof step === 'number') value = Array.isArray(value) ? value[step] : undefined;
    else value = isLosslessObject(value) ? value.get(step) : undefined;
  }
  return value;
}
