/**
 * Server-side redaction (docs/security/redaction.md): the rule endpoints under `/weft/redaction`
 * and the rules' meaning, shared by the server (which applies them at ingest) and the
 * dashboard (whose "test this rule" box runs the same code on sample text, in the browser).
 *
 * A rule is a key name (the whole value under a matching object key, at any depth, becomes
 * `[redacted:key:<name>]`), a built-in pattern or a custom regular expression (only the matched
 * part of a string becomes `[redacted:<builtin>]` or `[redacted:regex:<label>]`).
 */
import { z } from 'zod';
import { NAME_PART_PATTERN, NAME_PART_RULE, ProjectId } from './common.js';

export const BUILTIN_NAMES = ['email', 'credit_card', 'api_key'] as const;
export type BuiltinName = (typeof BUILTIN_NAMES)[number];
export const isBuiltinName = (name: string): name is BuiltinName => (BUILTIN_NAMES as readonly string[]).includes(name);

/** Custom patterns longer than this are refused (the check for slow patterns stays cheap). */
export const MAX_REGEX_LENGTH = 500;
export const KEY_NAME_PATTERN = /^[A-Za-z0-9_.$@-]{1,128}$/;
export const LABEL_PATTERN = /^[a-z0-9_-]{1,40}$/;

export const keyMarker = (name: string): string => `[redacted:key:${name}]`;
export const builtinMarker = (name: string): string => `[redacted:${name}]`;
export const regexMarker = (label: string): string => `[redacted:regex:${label}]`;

// ---- The built-in patterns -------------------------------------------------------------------
// Each starts only where what it finds could start (a lookbehind), and its repeated parts cannot
// match one text two ways, so every one runs in time linear in the text.

interface BuiltinPattern {
  /** Global; group 1, when present, is a prefix kept before the marker (`Bearer `). */
  re: RegExp;
  /**
   * A superset test on a payload's JSON text: no match means no string in it can match `re`
   * (the characters these patterns find are never escaped by JSON.stringify), so the server
   * need not parse the text.
   */
  probe: RegExp;
  /** A further check of the matched text (a card number's Luhn digit). */
  accept?: (match: string) => boolean;
}

/** The Luhn check every payment card number passes. */
export function luhnValid(text: string): boolean {
  let sum = 0;
  let n = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    let d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) continue;
    if (n++ % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return n >= 13 && sum % 10 === 0;
}

/**
 * API-key shapes: OpenAI and Anthropic (`sk-…`, `sk-proj-…`, `sk-ant-…`), GitHub tokens (`ghp_`,
 * `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), AWS access key ids (`AKIA`, `ASIA`), Slack tokens
 * (`xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-`), Google API keys (`AIza`), Stripe secret and
 * restricted keys (`sk_live_`, `rk_test_`, …), and the token after `Bearer `.
 */
const API_KEY_SHAPES = [
  'sk-[A-Za-z0-9_-]{20,}',
  'gh[pousr]_[A-Za-z0-9]{30,}',
  'github_pat_[A-Za-z0-9_]{22,}',
  '(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])',
  'xox[abprs]-[A-Za-z0-9-]{10,}',
  'AIza[0-9A-Za-z_-]{35}',
  '(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}',
];

const BUILTINS: Record<BuiltinName, BuiltinPattern> = {
  // local@domain with at least one dot in the domain.
  email: {
    re: /(?<![\w.%+-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g,
    probe: /[\w.%+-]@[A-Za-z0-9-]+\.[A-Za-z0-9-]/,
  },
  // 13 to 19 digits, single spaces or dashes between them allowed, passing the Luhn check.
  credit_card: {
    re: /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g,
    probe: /\d(?:[ -]?\d){12}/,
    accept: luhnValid,
  },
  api_key: {
    re: new RegExp(`(\\bBearer\\s+)[A-Za-z0-9._~+/=-]{16,}|(?<![A-Za-z0-9_-])(?:${API_KEY_SHAPES.join('|')})`, 'g'),
    probe: /Bearer\s|sk-|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abprs]-|AIza|[sr]k_(?:live|test)_/,
  },
};

// ---- Applying rules ----------------------------------------------------------------------------

export interface RedactionRuleSpec {
  kind: 'key' | 'builtin' | 'regex';
  value: string;
  label: string;
}

interface StringPattern {
  re: RegExp;
  marker: string;
  accept?: (match: string) => boolean;
}

/** A set of rules made ready to apply (compile once, apply to many values). */
export class Redaction {
  /** Lower-cased key name → marker. */
  readonly keys = new Map<string, string>();
  readonly patterns: StringPattern[] = [];
  /** A test on JSON text that no string or key in it can match; null when it cannot be decided so. */
  readonly probe: RegExp | null;

  constructor(rules: readonly RedactionRuleSpec[]) {
    const probes: string[] = [];
    let undecidable = false;
    for (const rule of rules) {
      if (rule.kind === 'key') {
        const name = rule.value.toLowerCase();
        if (!this.keys.has(name)) this.keys.set(name, keyMarker(name));
      } else if (rule.kind === 'builtin' && isBuiltinName(rule.value)) {
        const b = BUILTINS[rule.value];
        if (this.patterns.some((p) => p.re === b.re)) continue;
        this.patterns.push({ re: b.re, marker: builtinMarker(rule.value), ...(b.accept ? { accept: b.accept } : {}) });
        probes.push(b.probe.source);
      } else if (rule.kind === 'regex') {
        this.patterns.push({ re: new RegExp(rule.value, 'g'), marker: regexMarker(rule.label) });
        // A custom pattern may match what JSON escapes, or anchor on a string's ends: not probed.
        undecidable = true;
      }
    }
    if (this.keys.size) probes.push(`"(?:${[...this.keys.keys()].map(escapeRegex).join('|')})"\\s*:`);
    this.probe = undecidable ? null : new RegExp(probes.join('|'), 'i');
  }

  get empty(): boolean {
    return this.keys.size === 0 && this.patterns.length === 0;
  }

  /** The marker for a value under `key`, or undefined when no key rule names it. */
  keyMarker(key: string): string | undefined {
    return this.keys.size ? this.keys.get(key.toLowerCase()) : undefined;
  }

  /** The string with every pattern's matches replaced by its marker (the same string when none matched). */
  redactString(text: string): string {
    let out = text;
    for (const p of this.patterns) {
      p.re.lastIndex = 0;
      if (!p.re.test(out)) continue;
      p.re.lastIndex = 0;
      out = out.replace(p.re, (match: string, prefix: unknown) => {
        if (p.accept && !p.accept(match)) return match;
        return typeof prefix === 'string' ? prefix + p.marker : p.marker;
      });
    }
    return out;
  }

  /** A plain JSON value with rules applied; the same value (not a copy) when nothing matched. */
  redactValue(value: unknown): unknown {
    if (typeof value === 'string') return this.redactString(value);
    if (Array.isArray(value)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const v = this.redactValue(value[i]);
        if (v !== value[i]) (out ??= value.slice())[i] = v;
      }
      return out ?? value;
    }
    if (value !== null && typeof value === 'object') {
      let out: Record<string, unknown> | null = null;
      for (const [k, v] of Object.entries(value)) {
        const marker = this.keyMarker(k);
        const next = marker ?? this.redactValue(v);
        if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = next;
      }
      return out ?? value;
    }
    return value;
  }
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The structural check of a custom pattern (the server's patternCheck.ts says what else it checks). */
export function shapeProblem(source: string): string | null {
  // Per open group: whether it (or a group inside it) holds a repetition.
  const stack: { repeats: boolean }[] = [{ repeats: false }];
  let i = 0;
  const quantifierAt = (at: number): { end: number; unbounded: boolean } | null => {
    const c = source[at];
    if (c === '*' || c === '+') return { end: at + 1 + (source[at + 1] === '?' ? 1 : 0), unbounded: true };
    if (c === '?') return { end: at + 1, unbounded: false };
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(at));
      if (!m) return null;
      const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      return { end: at + m[0].length, unbounded: max > 1 };
    }
    return null;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<')) return 'it uses a back-reference, which can take exponential time';
      i += 2;
    } else if (c === '[') {
      // Skip the character class (escapes inside it included).
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      stack.push({ repeats: false });
      i++;
      continue;
    } else if (c === ')') {
      const inner = stack.length > 1 ? stack.pop()! : { repeats: false };
      const q = quantifierAt(i + 1);
      if (q?.unbounded && inner.repeats) {
        return `it repeats a group that itself repeats (near "${source.slice(Math.max(0, i - 20), q.end)}"), which can take exponential time on a string that almost matches`;
      }
      if (inner.repeats || q?.unbounded) stack[stack.length - 1]!.repeats = true;
      i = q ? q.end : i + 1;
      continue;
    } else {
      i++;
    }
    const q = quantifierAt(i);
    if (q) {
      if (q.unbounded) stack[stack.length - 1]!.repeats = true;
      i = q.end;
    }
  }
  return null;
}

// ---- The endpoints ----------------------------------------------------------------------------

const Scope = z.string().describe('"<entity>/<project>" for a project rule, "<entity>" for an entity default');

export const RedactionRuleRead = z.object({
  id: z.string(),
  scope: Scope,
  source: z
    .enum(['project', 'entity'])
    .describe('Where the rule comes from: the project itself, or its entity (applies to every project in it)'),
  kind: z.enum(['key', 'builtin', 'regex']),
  value: z.string().describe('The key name, the built-in name or the regular expression'),
  label: z.string(),
  marker: z.string().describe('What replaces a match'),
  created_by: z.string(),
  created_at: z.string(),
});
export type RedactionRuleRead = z.infer<typeof RedactionRuleRead>;

// GET /weft/redaction
export const RedactionListReq = z
  .object({
    project_id: ProjectId.optional().describe("A project: its own rules and its entity's, all in force"),
    entity: z.string().regex(NAME_PART_PATTERN, `must be a name ${NAME_PART_RULE}`).optional().describe("An entity's default rules only"),
  })
  .refine((r) => (r.project_id === undefined) !== (r.entity === undefined), 'Give exactly one of project_id or entity');
export const RedactionListRes = z.object({ rules: z.array(RedactionRuleRead), builtins: z.array(z.enum(BUILTIN_NAMES)) });

// POST /weft/redaction
export const RedactionAddReq = z
  .object({
    project_id: ProjectId.optional(),
    entity: z.string().regex(NAME_PART_PATTERN, `must be a name ${NAME_PART_RULE}`).optional(),
    key: z
      .string()
      .regex(KEY_NAME_PATTERN, 'A key name is 1-128 letters, digits or "_.$@-"')
      .optional()
      .describe('Redact the whole value under this object key (any case)'),
    pattern: z
      .string()
      .min(1)
      .max(MAX_REGEX_LENGTH, `A pattern is at most ${MAX_REGEX_LENGTH} characters`)
      .optional()
      .describe(`A built-in (${BUILTIN_NAMES.join(', ')}) or a JavaScript regular expression; only the matched text is replaced`),
    label: z
      .string()
      .regex(LABEL_PATTERN, 'A label is 1-40 of a-z, 0-9, "_" and "-"')
      .optional()
      .describe('Names a custom pattern in its marker; "custom" when not given'),
  })
  .refine((r) => (r.project_id === undefined) !== (r.entity === undefined), 'Give exactly one of project_id or entity')
  .refine((r) => (r.key === undefined) !== (r.pattern === undefined), 'Give exactly one of key or pattern');
export const RedactionRuleRes = z.object({ rule: RedactionRuleRead });

// DELETE /weft/redaction/:rule_id
export const RedactionDeleteReq = z.object({ rule_id: z.string().min(1) });
export const RedactionDeleteRes = z.object({ deleted: z.boolean() });
