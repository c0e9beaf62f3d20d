/**
 * The column mapping of "Add to dataset" (docs/datasets.md "Add to dataset"): which paths the
 * selected items offer, the default mapping (inputs as columns, the output as `expected`,
 * annotations or queue answers as label columns), checking a mapping (422 naming the entry to
 * fix), and building one row per item from it.
 */
import type { DatasetColumnMapping, DatasetRowSource } from '../../../contract/datasetAdd.js';
import { ValidationError } from '../../errors.js';
import { SOURCE_ROOTS, type SourceDoc } from './itemSources.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Keys the default mapping leaves out: a method's `self` is the object, not data. */
const SKIPPED_INPUTS = new Set(['self']);

export interface SourceField {
  path: string;
  type: string;
  count: number;
}

/** Every root and every key one level under an object root, with the types seen and how many items have it. */
export function sourceFields(docs: SourceDoc[]): SourceField[] {
  const fields = new Map<string, { types: Set<string>; count: number }>();
  const see = (path: string, value: unknown) => {
    const f = fields.get(path) ?? { types: new Set<string>(), count: 0 };
    f.types.add(typeOf(value));
    f.count += 1;
    fields.set(path, f);
  };
  for (const doc of docs) {
    for (const [root, value] of Object.entries(doc)) {
      see(root, value);
      if (isPlainObject(value)) for (const [key, inner] of Object.entries(value)) see(`${root}.${key}`, inner);
    }
  }
  return [...fields].map(([path, f]) => ({ path, type: [...f.types].sort().join(' | '), count: f.count }));
}

/** Keys under a root across the items, first seen first. */
function keysUnder(docs: SourceDoc[], root: string): string[] {
  const keys = new Set<string>();
  for (const doc of docs) if (isPlainObject(doc[root])) for (const key of Object.keys(doc[root])) keys.add(key);
  return [...keys];
}

/**
 * Inputs by name, the output as `expected`, then labels: a queue's answers, else annotations.
 * A thread's earlier turns come first as `history`. A name already taken gets a prefix.
 */
export function defaultMapping(kind: DatasetRowSource['kind'], docs: SourceDoc[]): DatasetColumnMapping[] {
  const out: DatasetColumnMapping[] = [];
  const taken = new Set<string>();
  const add = (path: string, column: string, prefix: string) => {
    const name = taken.has(column) ? `${prefix}_${column}` : column;
    if (taken.has(name)) return;
    taken.add(name);
    out.push({ column: name, path });
  };
  if (docs.some((d) => Array.isArray(d.history) && d.history.length > 0)) add('history', 'history', 'thread');
  for (const key of keysUnder(docs, 'inputs')) if (!SKIPPED_INPUTS.has(key)) add(`inputs.${key}`, key, 'input');
  add('output', 'expected', 'output');
  const labels = kind === 'queue_items' ? 'answers' : 'annotations';
  for (const key of keysUnder(docs, labels)) add(`${labels}.${key}`, key, labels === 'answers' ? 'answer' : 'annotation');
  return out;
}

/** 422 unless every path starts at a root the source has, with no empty part, and columns are distinct. */
export function checkMapping(kind: DatasetRowSource['kind'], mapping: DatasetColumnMapping[]): void {
  const roots = SOURCE_ROOTS[kind];
  const issues: { loc: (string | number)[]; msg: string; type: string }[] = [];
  const columns = new Set<string>();
  mapping.forEach(({ column, path }, i) => {
    const parts = path.split('.');
    if (parts.some((p) => p.trim() === '')) {
      issues.push({
        loc: ['body', 'mapping', i, 'path'],
        msg: `"${path}" has an empty part: write dotted keys such as inputs.question`,
        type: 'value_error',
      });
    } else if (!roots.includes(parts[0]!)) {
      issues.push({
        loc: ['body', 'mapping', i, 'path'],
        msg: `"${path}" starts with no field of ${kind.replace('_', ' ')}: start with one of ${roots.join(', ')}`,
        type: 'value_error',
      });
    }
    if (columns.has(column))
      issues.push({ loc: ['body', 'mapping', i, 'column'], msg: `Column "${column}" is mapped twice`, type: 'value_error' });
    columns.add(column);
  });
  if (issues.length) throw new ValidationError(issues);
}

/** The value at a dotted path: object keys, or array indexes; absent is undefined. */
function valueAt(doc: SourceDoc, path: string): unknown {
  let at: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(at) && /^\d+$/.test(part)) at = at[Number(part)];
    else if (isPlainObject(at) && Object.hasOwn(at, part)) at = at[part];
    else return undefined;
  }
  return at;
}

/** One row per item: every mapped column, null where the item has nothing at the path (a regular table). */
export function mapRows(docs: SourceDoc[], mapping: DatasetColumnMapping[]): Record<string, unknown>[] {
  return docs.map((doc) => Object.fromEntries(mapping.map(({ column, path }) => [column, valueAt(doc, path) ?? null])));
}
