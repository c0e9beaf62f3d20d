/**
 * Payloads in parts (docs/trace-outline.md "Payloads in parts"): a bounded preview of a call's
 * inputs, output and attributes, and one part of a payload by path and offset. The preview keeps
 * the first screen of a 20 MB payload small: strings cut to their head, lists and objects to
 * their first entries, a budget of nodes and characters over the whole call. Media strings
 * (data: URIs, base64 under `data`-like keys) stay whole within a budget of their own, so the
 * dashboard can show images and audio without a second request.
 */
import type { PayloadCut, PayloadPathStep } from '../../../contract/callPayload.js';

/** Characters of a string's head in a preview. */
export const PREVIEW_STRING_CHARS = 2_000;
/** Entries of a list or object in a preview. */
export const PREVIEW_ENTRIES = 100;
/** Values a preview holds at most over the whole call; past it containers come empty and cut. */
const PREVIEW_NODES = 5_000;
/** Characters of plain strings a preview holds at most over the whole call. */
const PREVIEW_CHARS = 400_000;
/** Characters of media strings a preview keeps whole over the whole call. */
const PREVIEW_MEDIA_CHARS = 8_000_000;
/** A part's default size. */
export const PART_CHARS = 200_000;
export const PART_ENTRIES = 1_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys whose base64 values are media in the SDKs' shapes (OpenAI audio, Anthropic sources, images API). */
const MEDIA_KEYS = new Set(['data', 'b64_json', 'file_data', 'image_url', 'url']);
const BASE64_HEAD = /^[A-Za-z0-9+/]{64}/;

function isMediaString(key: PayloadPathStep | undefined, s: string): boolean {
  if (s.startsWith('data:'))
    return /^data:(image|audio|video|application\/pdf)\//.test(s.slice(0, 40)) || s.startsWith('data:application/pdf');
  return typeof key === 'string' && MEDIA_KEYS.has(key) && s.length > 64 && BASE64_HEAD.test(s);
}

interface Budget {
  nodes: number;
  chars: number;
  media: number;
}

/** A value cut to the budget; cuts are appended with absolute paths (`path`). */
function cut(value: unknown, path: PayloadPathStep[], cuts: PayloadCut[], budget: Budget): unknown {
  budget.nodes--;
  if (typeof value === 'string') {
    const key = path.at(-1);
    if (isMediaString(key, value) && value.length <= budget.media) {
      budget.media -= value.length;
      return value;
    }
    const keep = Math.max(0, Math.min(PREVIEW_STRING_CHARS, budget.chars));
    if (value.length <= keep) {
      budget.chars -= value.length;
      return value;
    }
    budget.chars -= keep;
    cuts.push({ path, kind: 'string', length: value.length, shown: keep });
    return value.slice(0, keep);
  }
  if (Array.isArray(value)) {
    const shown = Math.min(value.length, PREVIEW_ENTRIES, Math.max(0, budget.nodes));
    if (shown < value.length) cuts.push({ path, kind: 'array', length: value.length, shown });
    const out = new Array<unknown>(shown);
    for (let i = 0; i < shown; i++) out[i] = cut(value[i], [...path, i], cuts, budget);
    return out;
  }
  if (isObj(value)) {
    const keys = Object.keys(value);
    const shown = Math.min(keys.length, PREVIEW_ENTRIES, Math.max(0, budget.nodes));
    if (shown < keys.length) cuts.push({ path, kind: 'object', length: keys.length, shown });
    const out: Obj = {};
    for (let i = 0; i < shown; i++) out[keys[i]!] = cut(value[keys[i]!], [...path, keys[i]!], cuts, budget);
    return out;
  }
  return value;
}

/** A new budget for one answer. */
const newBudget = (): Budget => ({ nodes: PREVIEW_NODES, chars: PREVIEW_CHARS, media: PREVIEW_MEDIA_CHARS });

/** The preview of several fields sharing one budget, in the order given. */
export function previewFields(fields: [string, unknown][]): { values: Map<string, unknown>; cuts: PayloadCut[] } {
  const budget = newBudget();
  const cuts: PayloadCut[] = [];
  const values = new Map<string, unknown>();
  for (const [name, value] of fields) values.set(name, cut(value, [name], cuts, budget));
  return { values, cuts };
}

/** The value at `path` below `root`, or undefined when the path leads nowhere. */
export function valueAt(root: unknown, path: readonly PayloadPathStep[]): unknown {
  let v = root;
  for (const step of path) {
    if (Array.isArray(v) && typeof step === 'number') v = v[step];
    else if (isObj(v) && typeof step === 'string' && Object.hasOwn(v, step)) v = v[step];
    else return undefined;
  }
  return v;
}

export interface Part {
  kind: 'string' | 'array' | 'object' | 'value';
  length: number;
  value: unknown;
  cuts: PayloadCut[];
}

/**
 * One part of `value` (found at `path`, field first): a substring, or entries from `offset`
 * each cut as a preview is, with their absolute paths.
 */
export function partOf(value: unknown, path: PayloadPathStep[], offset: number, limit: number | null | undefined): Part {
  if (typeof value === 'string') {
    const end = offset + (limit ?? PART_CHARS);
    return { kind: 'string', length: value.length, value: value.slice(offset, end), cuts: [] };
  }
  const cuts: PayloadCut[] = [];
  const budget = newBudget();
  const count = Math.min(limit ?? PART_ENTRIES, 10_000);
  if (Array.isArray(value)) {
    const items = value.slice(offset, offset + count).map((v, i) => cut(v, [...path, offset + i], cuts, budget));
    return { kind: 'array', length: value.length, value: items, cuts };
  }
  if (isObj(value)) {
    const keys = Object.keys(value);
    const out: Obj = {};
    for (const k of keys.slice(offset, offset + count)) out[k] = cut(value[k], [...path, k], cuts, budget);
    return { kind: 'object', length: keys.length, value: out, cuts };
  }
  return { kind: 'value', length: 0, value: value ?? null, cuts };
}
