/**
 * A checker derived once from a zod schema, for the hot endpoints' bodies: it says yes only for
 * input the schema accepts, and then answers the parsed JSON itself (zod's defaults filled in,
 * unknown keys left in place) instead of zod's copy; whenever it is unsure it says null and zod
 * parses, so every refusal is still zod's own 422. Why and how: docs/architecture.md "Fast input
 * checks".
 */
import type { z } from 'zod';
import { FAST_CHECKS } from '../../contract/fastChecks.js';
import type { FastInput } from './readInput.js';

/**
 * One schema, compiled to JavaScript source: `test(x)` is a boolean expression over the local `x`
 * (true only where zod accepts; it may push defaults to `fills`), in a scope holding `h` (helpers:
 * regexes, sets, functions) and `fills`.
 */
interface Node {
  test: (x: string) => string;
  /** zod's output is the input itself, deep-equal (no default, no stripped key, no transform). */
  exact: boolean;
  /** What zod makes of an absent object key: nothing, a default, or a refusal (or it is unknown). */
  absent: 'skip' | 'fill' | 'no';
  /** `test` surely passes `undefined` (an optional, or unknown). */
  undefinedOk?: boolean;
  /** Source of the function giving zod's default for `undefined` (a `.default()`, maybe under optional/nullable). */
  fill?: string;
}

/** The schema internals read here (zod 4's `_zod`). */
interface Internals {
  def: Def;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
  propValues?: Record<string, Set<unknown>>;
  traits: Set<string>;
}
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  coerce?: boolean;
  format?: string;
  pattern?: RegExp;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  element?: Schema;
  options?: Schema[];
  discriminator?: string;
  inclusive?: boolean;
  getter?: () => Schema;
  defaultValue?: unknown;
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  value?: unknown;
  inclusive?: boolean;
}
type Schema = { _zod: Internals };

const UNSURE: Node = { test: () => 'false', exact: false, absent: 'no' };
const ANYTHING: Node = { test: () => 'true', exact: true, absent: 'no', undefinedOk: true };

/** A JSON object zod copies key by key: plain, and without an own `__proto__` (zod drops that key). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && !Object.hasOwn(v, '__proto__');
}

type Check = (v: unknown, fills: unknown[]) => boolean;

/** Derives the checker of `schema` (once: keep the result). */
export function fastValidator<S extends z.ZodType>(schema: S): FastInput<z.output<S>> {
  const check = new Compiler().compile(schema as unknown as Schema);
  // Defaults as (holder, key, value()) triples, set once the whole body passed. One array for
  // every call: the check is synchronous, so no two calls use it at once.
  const fills: unknown[] = [];
  return (raw) => {
    fills.length = 0;
    if (!check(raw, fills)) return null;
    for (let i = 0; i < fills.length; i += 3)
      (fills[i] as Record<string, unknown>)[fills[i + 1] as string] = (fills[i + 2] as () => unknown)();
    fills.length = 0;
    return raw as z.output<S>;
  };
}

class Compiler {
  /** What generated code reaches as `h[i]`. */
  private readonly h: unknown[] = [];
  private readonly done = new Map<Schema, Node>();
  /** Schemas being compiled: a lazy one met again is assumed exact (checked after), any other is unsure. */
  private readonly visiting = new Set<Schema>();
  private readonly inexact = new Set<Schema>();
  private assumptionBroken = false;
  /** `h[i]` to set to a lazy schema's function once it is compiled. */
  private late: [number, Schema][] = [];

  compile(schema: Schema): Check {
    for (;;) {
      this.h.length = 0;
      this.done.clear();
      this.late = [];
      this.assumptionBroken = false;
      const node = this.node(schema);
      if (this.assumptionBroken) continue;
      for (const [i, lazy] of this.late) this.h[i] = this.fn(this.done.get(lazy)!);
      return this.fn(node);
    }
  }

  /** `h[i]` for `value`, as source. */
  private helper(value: unknown): string {
    this.h.push(value);
    return `h[${this.h.length - 1}]`;
  }

  /** A node as a function `(v, fills) => boolean`. */
  private fn(node: Node): Check {
    return this.function(`return ${node.test('v')};`);
  }

  /** Source as a function `(v, fills) => boolean`; the source is built from the schema only (keys as JSON strings), never from input. */
  private function(body: string): Check {
    return new Function('h', 'isPlainObject', `return function check(v, fills) { ${body} };`)(this.h, isPlainObject) as Check;
  }

  /** A node whose test calls a function of its own (objects, arrays, records, discriminated unions). */
  private called(body: string, exact: boolean): Node {
    const f = this.helper(this.function(body));
    return { test: (x) => `${f}(${x}, fills)`, exact, absent: 'no' };
  }

  private node(schema: Schema): Node {
    const known = this.done.get(schema);
    if (known) return known;
    if (this.visiting.has(schema)) return schema._zod.def.type === 'lazy' ? this.recursion(schema) : UNSURE;
    const registered = FAST_CHECKS.get(schema as unknown as z.ZodType);
    this.visiting.add(schema);
    let node: Node;
    try {
      if (registered) {
        const f = this.helper(registered);
        node = leaf((x) => `${f}(${x})`);
      } else node = this.walk(schema);
    } finally {
      this.visiting.delete(schema);
    }
    const withAbsence = { ...node, absent: absence(schema, node) };
    this.done.set(schema, withAbsence);
    return withAbsence;
  }

  private walk(schema: Schema): Node {
    const { def } = schema._zod;
    if (def.coerce) return UNSURE;
    const checks = (def.checks ?? []).map((c) => c._zod.def);
    switch (def.type) {
      case 'string':
        return def.format === undefined && def.pattern === undefined ? this.string(checks) : UNSURE;
      case 'number':
        return def.format === undefined || def.format === 'safeint' ? number(def.format === 'safeint', checks) : UNSURE;
      case 'array':
        return this.array(def, checks);
    }
    // The other kinds take no checks here (a refine is a check it cannot see through).
    if (checks.length > 0) return UNSURE;
    switch (def.type) {
      case 'boolean':
        return leaf((x) => `typeof ${x} === "boolean"`);
      case 'null':
        return leaf((x) => `${x} === null`);
      case 'undefined':
        return leaf((x) => `${x} === undefined`);
      case 'unknown':
      case 'any':
        return ANYTHING;
      case 'literal':
      case 'enum':
        return this.values(schema._zod.values);
      case 'optional':
        return this.optional(schema);
      case 'nullable': {
        const inner = this.node(def.innerType!);
        const { exact, fill, undefinedOk } = inner;
        return { test: (x) => `(${x} === null || ${inner.test(x)})`, exact, absent: 'no', fill, undefinedOk };
      }
      case 'default': {
        const inner = this.node(def.innerType!);
        if (def.defaultValue === undefined) return UNSURE;
        // zod's defaultValue is a getter giving a fresh copy each time.
        const fill = this.helper(() => def.defaultValue);
        return { test: (x) => `(${x} !== undefined && ${inner.test(x)})`, exact: false, absent: 'no', fill };
      }
      case 'object':
        return this.object(def);
      case 'record':
        return this.record(def);
      case 'union':
        return def.discriminator === undefined ? this.union(def) : this.discriminated(def);
      case 'lazy':
        return this.lazy(schema);
      default:
        // pipe, transform, custom, tuple, prefault, catch, ...: left to zod.
        return UNSURE;
    }
  }

  private values(values: Set<unknown> | undefined): Node {
    if (!values) return UNSURE;
    const list = [...values];
    if (list.every((v) => typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v)))) {
      return leaf((x) => `(${list.map((v) => `${x} === ${JSON.stringify(v)}`).join(' || ')})`);
    }
    const set = this.helper(values);
    return leaf((x) => `${set}.has(${x})`);
  }

  private optional(schema: Schema): Node {
    // exactOptional refuses a present `undefined`, which JSON never sends: not worth a rule.
    if (schema._zod.traits.has('$ZodExactOptional')) return UNSURE;
    const inner = this.node(schema._zod.def.innerType!);
    if (inner.fill) return { test: inner.test, exact: false, absent: 'no', fill: inner.fill };
    return { test: (x) => `(${x} === undefined || ${inner.test(x)})`, exact: inner.exact, absent: 'no', undefinedOk: true };
  }

  private string(checks: CheckDef[]): Node {
    const tests: ((x: string) => string)[] = [];
    const lengths: CheckDef[] = [];
    for (const c of checks) {
      if (c.check === 'string_format' && c.format === 'regex' && c.pattern) {
        const p = c.pattern;
        const re = this.helper(p);
        // zod resets lastIndex too: a global or sticky regex remembers where it stopped.
        tests.push(p.global || p.sticky ? (x) => `(${re}.lastIndex = 0, ${re}.test(${x}))` : (x) => `${re}.test(${x})`);
      } else lengths.push(c);
    }
    const length = lengthTest(lengths, true);
    if (!length) return UNSURE;
    return leaf((x) => [`typeof ${x} === "string"`, length(`${x}.length`), ...tests.map((t) => t(x))].filter(Boolean).join(' && '));
  }

  private array(def: Def, checks: CheckDef[]): Node {
    const element = this.node(def.element!);
    const length = lengthTest(checks, false);
    if (!length) return UNSURE;
    const bounds = length('v.length');
    const onUndefined = element.fill ? `fills.push(v, i, ${element.fill})` : `if (!(${element.test('x')})) return false`;
    return this.called(
      `if (!Array.isArray(v)${bounds ? ` || !(${bounds})` : ''}) return false;
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (x === undefined) { ${onUndefined}; } else if (!(${element.test('x')})) return false;
      }
      return true;`,
      element.exact,
    );
  }

  private object(def: Def): Node {
    const shape = def.shape!;
    const keys = Object.keys(shape);
    // A key Object.prototype has reads as present on every object (zod's `key in input`).
    if (keys.some((k) => k in Object.prototype) || Object.getOwnPropertySymbols(shape).length > 0) return UNSURE;
    const fields = keys.map((k) => this.node(shape[k]!));
    const catchall = def.catchall?._zod.def.type;
    // No catchall: unknown keys are stripped by zod, left here. `never`: refused. unknown/any: kept.
    const strict = catchall === 'never';
    if (catchall !== undefined && !strict && catchall !== 'unknown' && catchall !== 'any') return UNSURE;
    const lines = keys.map((key, i) => {
      const field = fields[i]!;
      const k = JSON.stringify(key);
      const x = `x${i}`;
      const ifAbsent = field.absent === 'no' ? 'return false;' : field.absent === 'fill' ? `fills.push(v, ${k}, ${field.fill});` : '';
      const ifUndefined = field.fill
        ? `fills.push(v, ${k}, ${field.fill});`
        : field.undefinedOk
          ? ''
          : `if (!(${field.test(x)})) return false;`;
      const whenUndefined = ifAbsent === ifUndefined ? ifAbsent : `if (!(${k} in v)) { ${ifAbsent} } else { ${ifUndefined} }`;
      return `const ${x} = v[${k}];
        if (${x} !== undefined) { if (!(${field.test(x)})) return false; } else { ${whenUndefined} }`;
    });
    const unknownKeys = strict
      ? `for (const k in v) switch (k) { ${keys.map((k) => `case ${JSON.stringify(k)}:`).join(' ')} break; default: return false; }`
      : '';
    return this.called(
      `if (!isPlainObject(v)) return false;
      ${lines.join('\n')}
      ${unknownKeys}
      return true;`,
      catchall !== undefined && fields.every((f) => f.exact),
    );
  }

  private record(def: Def): Node {
    const key = def.keyType!._zod.def;
    // Keys of a plain z.string() only: other key schemas have rules of their own (enums, numbers).
    if (key.type !== 'string' || key.coerce || key.format !== undefined || (key.checks ?? []).length > 0) return UNSURE;
    const value = this.node(def.valueType!);
    if (value.fill) return UNSURE;
    if (value.test === ANYTHING.test) return leaf((x) => `isPlainObject(${x})`);
    return this.called(
      `if (!isPlainObject(v)) return false;
      for (const k in v) { const x = v[k]; if (!(${value.test('x')})) return false; }
      return true;`,
      value.exact,
    );
  }

  /** zod takes the first member that passes: with exact members, whichever it is gives the input. */
  private union(def: Def): Node {
    if (def.inclusive === false) return UNSURE;
    const options = def.options!.map((o) => this.node(o));
    if (!options.every((o) => o.exact)) return UNSURE;
    return leaf((x) => `(${options.map((o) => o.test(x)).join(' || ')})`);
  }

  /** zod picks the one member whose discriminator value matches, and parses with it only. */
  private discriminated(def: Def): Node {
    const tag = JSON.stringify(def.discriminator!);
    const cases = new Map<string, Node | null>();
    for (const option of def.options!) {
      const values = option._zod.propValues?.[def.discriminator!];
      if (!values || ![...values].every((v) => typeof v === 'string')) return UNSURE;
      const node = this.node(option);
      for (const value of values as Set<string>) cases.set(value, cases.has(value) ? null : node);
    }
    const branches = [...cases].map(([value, node]) => `case ${JSON.stringify(value)}: return ${node ? node.test('v') : 'false'};`);
    return this.called(
      `if (!isPlainObject(v)) return false;
      switch (v[${tag}]) { ${branches.join(' ')} default: return false; }`,
      [...cases.values()].every((n) => n?.exact),
    );
  }

  private lazy(schema: Schema): Node {
    const inner = this.node(schema._zod.def.getter!());
    if (!inner.exact && !this.inexact.has(schema)) {
      // Its recursive uses were assumed exact; compile again knowing it is not.
      this.inexact.add(schema);
      this.assumptionBroken = true;
    }
    return inner;
  }

  /** A lazy schema used inside itself: a call to its function, set once it is compiled. */
  private recursion(schema: Schema): Node {
    const f = this.helper(null);
    this.late.push([Number(f.slice(2, -1)), schema]);
    return { test: (x) => `${f}(${x}, fills)`, exact: !this.inexact.has(schema), absent: 'no' };
  }
}

/** zod's rule for an absent object key (handlePropertyResult): skipped, defaulted or required. */
function absence(schema: Schema, node: Node): Node['absent'] {
  const { optin, optout } = schema._zod;
  if (optin === 'optional' && optout === 'optional') return 'skip';
  if (optin === 'defaulted' && node.fill) return 'fill';
  return 'no';
}

const leaf = (test: (x: string) => string): Node => ({ test: (x) => `(${test(x)})`, exact: true, absent: 'no' });

/**
 * A length test from min/max checks ('' when unbounded, null when it has other checks). zod
 * counts a string's code points, never more than its UTF-16 units: within `max` units is within
 * zod's max, and `2 × min` units surely reach its min (1 unit for a min of 1); between, it is zod's.
 */
function lengthTest(checks: CheckDef[], isString: boolean): ((length: string) => string) | null {
  let min = 0;
  let max = Infinity;
  for (const c of checks) {
    if (c.check === 'min_length' && Number.isSafeInteger(c.minimum)) min = Math.max(min, c.minimum!);
    else if (c.check === 'max_length' && Number.isSafeInteger(c.maximum)) max = Math.min(max, c.maximum!);
    else return null;
  }
  const sureMin = isString && min > 1 ? 2 * min : min;
  return (length) =>
    [max < Infinity ? `${length} <= ${max}` : '', sureMin > 0 ? `${length} >= ${sureMin}` : ''].filter(Boolean).join(' && ');
}

function number(int: boolean, checks: CheckDef[]): Node {
  const bounds: string[] = [];
  for (const c of checks) {
    const bound = c.value;
    if (c.check === 'number_format' && c.format === 'safeint') int = true;
    else if ((c.check === 'greater_than' || c.check === 'less_than') && typeof bound === 'number' && Number.isFinite(bound)) {
      bounds.push(`${c.check === 'greater_than' ? '>' : '<'}${c.inclusive ? '=' : ''} ${bound}`);
    } else return UNSURE;
  }
  // A safe integer is finite; zod's number refuses NaN and ±Infinity.
  return leaf((x) =>
    [int ? `Number.isSafeInteger(${x})` : `typeof ${x} === "number" && Number.isFinite(${x})`, ...bounds.map((b) => `${x} ${b}`)].join(
      ' && ',
    ),
  );
}
