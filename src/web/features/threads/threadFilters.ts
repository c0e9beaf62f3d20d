/**
 * The threads list's Weft filters as URL text and as request fields: content search (`q`),
 * "has errors" (`errors=1`), ranges on statistics (`turns=2-10`, `p99=5000-`, `tokens=-800`,
 * `cost=0.01-`; durations in ms, cost in the price unit), and turn attributes
 * (`attr=env:prod,tier:3`; values that read as numbers or true/false are sent as such).
 * Anything unreadable is reported, so the page can say what it ignored from a link.
 */
import type { ThreadRange } from '../../../contract/threads.js';

/** The statistics a range can bound, with their URL key and label. */
export const RANGE_FIELDS = [
  { field: 'turn_count', key: 'turns', label: 'Turns', unit: '' },
  { field: 'p50_turn_duration_ms', key: 'p50', label: 'p50 turn', unit: 'ms' },
  { field: 'p99_turn_duration_ms', key: 'p99', label: 'p99 turn', unit: 'ms' },
  { field: 'total_tokens', key: 'tokens', label: 'Tokens', unit: '' },
  { field: 'total_cost', key: 'cost', label: 'Cost', unit: '$' },
] as const;

/** A field a range can bound. */
export type RangeField = (typeof RANGE_FIELDS)[number]['field'];

/** Inclusive bounds, either side open. */
export interface Bounds {
  min: number | null;
  max: number | null;
}

/** The Weft filters of a threads view. */
export interface ThreadFilters {
  search: string;
  hasErrors: boolean;
  ranges: Partial<Record<RangeField, Bounds>>;
  attributes: Record<string, string | number | boolean>;
}

export const NO_FILTERS: ThreadFilters = { search: '', hasErrors: false, ranges: {}, attributes: {} };

const number = (text: string): number | null => (text.trim() === '' ? null : Number.isFinite(Number(text)) ? Number(text) : NaN);

/** `2-10`, `5000-`, `-800` (an upper bound only): null when unreadable. */
export function parseBounds(text: string): Bounds | null {
  const m = /^\s*([^-]*?)\s*-\s*([^-]*?)\s*$/.exec(text) ?? /^\s*([^-]+?)\s*$/.exec(text);
  if (!m) return null;
  const min = number(m[1] ?? '');
  const max = m[2] === undefined ? min : number(m[2]);
  if (Number.isNaN(min) || Number.isNaN(max) || (min === null && max === null)) return null;
  return { min, max };
}

export const boundsText = (b: Bounds) => (b.min !== null && b.min === b.max ? `${b.min}` : `${b.min ?? ''}-${b.max ?? ''}`);

/** An attribute value as typed: numbers and booleans keep their type. */
export function attributeValue(text: string): string | number | boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/** `env:prod,tier:3` → {env: 'prod', tier: 3}; pairs without a key are reported. */
export function parseAttributes(text: string, problems: string[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const pair of text.split(',').filter((p) => p.trim())) {
    const i = pair.indexOf(':');
    if (i <= 0) problems.push(`attribute “${pair}” (write key:value)`);
    else out[pair.slice(0, i).trim()] = attributeValue(pair.slice(i + 1).trim());
  }
  return out;
}

/** Reads the filters from search params, adding what it could not read to `problems`. */
export function readThreadFilters(params: URLSearchParams, problems: string[]): ThreadFilters {
  const ranges: ThreadFilters['ranges'] = {};
  for (const { field, key, label } of RANGE_FIELDS) {
    const raw = params.get(key);
    if (!raw) continue;
    const b = parseBounds(raw);
    if (b) ranges[field] = b;
    else problems.push(`${label} range “${raw}”`);
  }
  const errors = params.get('errors');
  if (errors !== null && errors !== '1') problems.push(`errors “${errors}” (use errors=1)`);
  return {
    search: params.get('q') ?? '',
    hasErrors: errors === '1',
    ranges,
    attributes: parseAttributes(params.get('attr') ?? '', problems),
  };
}

/** Writes the filters into search params (empty ones left out). */
export function writeThreadFilters(f: ThreadFilters, set: (key: string, value: string | null) => void): void {
  set('q', f.search.trim() || null);
  set('errors', f.hasErrors ? '1' : null);
  for (const { field, key } of RANGE_FIELDS) {
    const b = f.ranges[field];
    set(key, b ? boundsText(b) : null);
  }
  const attrs = Object.entries(f.attributes).map(([k, v]) => `${k}:${String(v)}`);
  set('attr', attrs.length ? attrs.join(',') : null);
}

/** The request's filter fields for these filters. */
export function threadFilterRequest(f: ThreadFilters): {
  search?: string;
  min?: ThreadRange;
  max?: ThreadRange;
  attributes?: Record<string, string | number | boolean>;
} {
  const min: ThreadRange = {};
  const max: ThreadRange = {};
  if (f.hasErrors) min.error_count = 1;
  for (const [field, b] of Object.entries(f.ranges) as [RangeField, Bounds][]) {
    if (b.min !== null) min[field] = b.min;
    if (b.max !== null) max[field] = b.max;
  }
  return {
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(Object.keys(min).length ? { min } : {}),
    ...(Object.keys(max).length ? { max } : {}),
    ...(Object.keys(f.attributes).length ? { attributes: f.attributes } : {}),
  };
}

/** How many filters are on (for the Filters button's badge). */
export const activeFilterCount = (f: ThreadFilters) =>
  (f.hasErrors ? 1 : 0) + Object.keys(f.ranges).length + Object.keys(f.attributes).length;
