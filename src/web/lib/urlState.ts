/**
 * Typed view state in a URL's search params: each field names its param and how its text reads
 * and writes. Reading never throws: a missing, empty or unreadable param gives the field's default
 * (and a hand-edited value is reported), and defaults are left out when writing, to keep links
 * short. docs/dashboard.md "View state in the URL" shows how a page uses it.
 */

/** Reports a param value that could not be used (`sort “x”`), for a page's notice. */
export type Report = (bad: string) => void;

/** How one view field reads from and writes to one search param. */
export interface UrlField<T> {
  param: string;
  /** The value for the param's text (null when absent); `report` what is ignored. */
  read(raw: string | null, report: Report): T;
  /** The param's text, or null to leave it out (the default, or empty). */
  write(value: T): string | null;
}

/** A view's fields, one per property. */
export type UrlFields<V> = { [K in keyof V]: UrlField<V[K]> };

/** Reads and writes a whole view; both are plain functions, stable for hooks (useUrlView). */
export interface UrlState<V> {
  read: (params: URLSearchParams, problems?: string[]) => V;
  write: (view: V, params?: URLSearchParams) => URLSearchParams;
}

/** The read and write of a view made of `fields`; other params in `params` are kept. */
export function urlState<V>(fields: UrlFields<V>): UrlState<V> {
  const entries = Object.entries(fields) as [keyof V, UrlField<V[keyof V]>][];
  return {
    read(params, problems = []) {
      const view = {} as V;
      for (const [key, field] of entries) {
        const raw = params.get(field.param);
        const report = (bad: string) => problems.push(`${field.param} “${bad}”`);
        try {
          view[key] = field.read(raw, report);
        } catch {
          // A field's parser must not break the page: the default, and say so.
          if (raw !== null) report(raw);
          view[key] = field.read(null, () => undefined);
        }
      }
      return view;
    },
    write(view, params = new URLSearchParams()) {
      for (const [key, field] of entries) setParam(params, field.param, field.write(view[key]));
      return params;
    },
  };
}

/** Sets a param, or deletes it for null or empty text. */
export function setParam(params: URLSearchParams, param: string, value: string | null): void {
  if (value === null || value === '') params.delete(param);
  else params.set(param, value);
}

/** Free text; empty reads as `fallback`, and `fallback` is left out. */
export function text(param: string): UrlField<string | null>;
export function text(param: string, fallback: string): UrlField<string>;
export function text(param: string, fallback: string | null = null): UrlField<string | null> {
  return { param, read: (raw) => raw || fallback, write: (v) => (v === fallback ? null : v) };
}

/** A yes/no written `1`/`0`; only the non-default value appears in the URL. */
export function flag(param: string, fallback = false): UrlField<boolean> {
  return {
    param,
    read: (raw) => (fallback ? raw !== '0' : raw === '1'),
    write: (v) => (v === fallback ? null : v ? '1' : '0'),
  };
}

/** One of `values`; anything else reads as `fallback`, which is left out. */
export function choice<T extends string>(param: string, values: readonly T[], fallback: T): UrlField<T> {
  return {
    param,
    read: (raw) => ((values as readonly string[]).includes(raw ?? '') ? (raw as T) : fallback),
    write: (v) => (v === fallback ? null : v),
  };
}

/** A finite number, or null when absent or unreadable. */
export function number(param: string): UrlField<number | null> {
  return {
    param,
    read: (raw) => (raw !== null && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : null),
    write: (v) => (v === null ? null : String(v)),
  };
}

/** Comma-separated words, trimmed, empty ones and repeats dropped; `fallback` when none (left out). */
export function list(param: string, fallback: readonly string[] = []): UrlField<string[]> {
  return {
    param,
    read: (raw) => {
      const items = [...new Set((raw ?? '').split(',').map((s) => s.trim()))].filter(Boolean);
      return items.length ? items : [...fallback];
    },
    write: (v) => (v.join(',') === fallback.join(',') ? null : v.join(',')),
  };
}

/** A sort key as the URL writes it, `field:asc` or `field:desc`. */
export interface SortKey<F extends string = string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** `field:asc|desc` → a sort key (any field, or one of `fields`); null when unreadable. */
export function parseSortKey<F extends string = string>(raw: string | null, fields?: readonly F[]): SortKey<F> | null {
  const m = /^(.+):(asc|desc)$/.exec(raw?.trim() ?? '');
  if (!m || (fields && !(fields as readonly string[]).includes(m[1]!))) return null;
  return { field: m[1] as F, direction: m[2] as 'asc' | 'desc' };
}

/** A sort key's URL text. */
export const sortKeyText = (s: SortKey): string => `${s.field}:${s.direction}`;

/** One sort key; unreadable (or a field not in `fields`) reads as `fallback`, which is left out. */
export function sortKey<F extends string>(param: string, fallback: SortKey<F>, fields?: readonly F[]): UrlField<SortKey<F>> {
  return {
    param,
    read: (raw) => parseSortKey(raw, fields) ?? { ...fallback },
    write: (v) => (sortKeyText(v) === sortKeyText(fallback) ? null : sortKeyText(v)),
  };
}

/** One sort key or none (null, left out). */
export function optionalSortKey(param: string): UrlField<SortKey | null> {
  return { param, read: (raw) => parseSortKey(raw), write: (v) => (v ? sortKeyText(v) : null) };
}

/**
 * Several sort keys in priority order (`a:desc,b:asc`); unreadable ones are reported and
 * dropped, a repeated field keeps its first mention, and none reads as `fallback` (left out).
 */
export function sortKeys<F extends string>(param: string, fallback: readonly SortKey<F>[], fields?: readonly F[]): UrlField<SortKey<F>[]> {
  const textOf = (keys: readonly SortKey[]) => keys.map(sortKeyText).join(',');
  return {
    param,
    read: (raw, report) => {
      const keys = (raw ?? '').split(',').flatMap((part) => {
        const key = parseSortKey(part, fields);
        if (!key && part.trim()) report(part.trim());
        return key ? [key] : [];
      });
      const unique = keys.filter((k, i) => keys.findIndex((o) => o.field === k.field) === i);
      return unique.length ? unique : fallback.map((k) => ({ ...k }));
    },
    write: (v) => (textOf(v) === textOf(fallback) ? null : textOf(v)),
  };
}

/** A field with its own reading and writing (JSON, a compound value); `read(null)` is its default. */
export function custom<T>(param: string, read: UrlField<T>['read'], write: UrlField<T>['write']): UrlField<T> {
  return { param, read, write };
}
