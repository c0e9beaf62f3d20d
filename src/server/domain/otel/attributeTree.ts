/**
 * OTel attributes are flat (`gen_ai.usage.input_tokens = 12`); Weave stores them as a tree
 * split on dots (`{gen_ai: {usage: {input_tokens: 12}}}`), as the reference's
 * `expand_attributes` does. String values that look like JSON objects or lists are parsed,
 * as the newest reference does, so messages logged as JSON text display as data.
 */
import type { AttrValue, KeyValue } from './otlpDecode.js';

export type Tree = { [key: string]: unknown };

/** Thrown when one key is both a value and a prefix of another (`a.b = 1` and `a.b.c = 2`). */
export class AttributeConflictError extends Error {}

const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

function maybeJson(value: AttrValue): unknown {
  if (typeof value !== 'string' || !(value.startsWith('{') || value.startsWith('['))) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The attributes as a tree; throws AttributeConflictError on clashing keys. */
export function expandAttributes(attributes: KeyValue[]): Tree {
  const root: Tree = {};
  for (const [key, raw] of attributes) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (next === undefined) node = node[part] = {};
      else if (isTree(next)) node = next;
      else throw new AttributeConflictError(`attribute "${key}" is nested under a key that already holds a value`);
    }
    const leaf = parts[parts.length - 1]!;
    const value = maybeJson(raw);
    if (isTree(node[leaf]) && !isTree(value)) throw new AttributeConflictError(`attribute "${key}" is also the prefix of other attributes`);
    node[leaf] = isTree(node[leaf]) && isTree(value) ? { ...(node[leaf] as Tree), ...value } : value;
  }
  return root;
}

/** A dotted path looked up as a flat key first, then down the tree (numeric parts index lists). */
export function getAttribute(tree: Tree, key: string): unknown {
  if (key in tree) return tree[key];
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (isTree(node) && part in node) node = node[part];
    else return undefined;
  }
  return node;
}

/** Objects whose keys are exactly 0..n-1 become lists (`gen_ai.prompt.0.role` → a message list). */
export function numericKeysToLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(numericKeysToLists);
  if (!isTree(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, numericKeysToLists(v)] as const);
  const keys = entries.map(([k]) => k);
  const isList =
    keys.length > 0 &&
    keys.every((k) => /^\d+$/.test(k)) &&
    keys
      .map(Number)
      .sort((a, b) => a - b)
      .every((n, i) => n === i);
  if (isList) return [...entries].sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  return Object.fromEntries(entries);
}

/** The reference's truthiness: empty strings, lists, objects, 0 and false do not count. */
export function isTruthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isTree(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}
