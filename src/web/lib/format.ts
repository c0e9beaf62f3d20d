/**
 * Number, time and duration formatting shared by every page, so figures read the same everywhere.
 *
 * Counts and timestamps are formatted by hand, as en-US `Intl` would (format.test.ts compares
 * them over many values): a page process's first `Intl` format loads ICU's locale data, which
 * cost 20-60 ms of the first render of every page opened in a new tab (docs/performance.md). `Intl` stays
 * for what is rarer (fractions, the charts' axes).
 */

// Made on first use: the trace page's early paint (features/traces/earlyTrace.ts) formats safe integers only.
let integer: Intl.NumberFormat | undefined;
const COMPACT = [
  { at: 1e12, suffix: 'T' },
  { at: 1e9, suffix: 'B' },
  { at: 1e6, suffix: 'M' },
  { at: 1e3, suffix: 'K' },
];

/** `1234567` → `1,234,567`, for the digits of a non-negative integer. */
const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');

/** `12,345`. */
export function formatInteger(n: number): string {
  if (!Number.isSafeInteger(n)) return (integer ??= new Intl.NumberFormat('en-US')).format(n);
  return n < 0 ? `-${groupThousands(String(-n))}` : groupThousands(String(n));
}

/** `12.3K` for big numbers (one decimal at most), exact below 10,000. */
export function formatCompact(n: number): string {
  if (!(n >= 10_000) || !Number.isFinite(n)) return formatInteger(n);
  let unit = COMPACT.findIndex((u) => n >= u.at);
  // n * 10 first: exact for integers, so halves round as Intl's decimal arithmetic rounds them.
  let tenths = Math.round((n * 10) / COMPACT[unit]!.at);
  // 999,950 rounds to 1000.0K, which is 1M.
  if (tenths >= 10_000 && unit > 0) tenths = Math.round((n * 10) / COMPACT[--unit]!.at);
  return `${Math.floor(tenths / 10)}${tenths % 10 ? `.${tenths % 10}` : ''}${COMPACT[unit]!.suffix}`;
}

/** `850 ms`, `2.41 s`, `3m 05s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** `$0.0123`: enough digits for per-call LLM costs, which are often fractions of a cent. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n: number) => String(n).padStart(2, '0');

/** `Mar 4, 14:02:11` in the viewer's time zone; midnight is 00 (en-US `Intl` with `hour12: false` wrote 24). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${twoDigits(d.getHours())}:${twoDigits(d.getMinutes())}:${twoDigits(d.getSeconds())}`;
}

/** `3m ago`, `2h ago`, `5d ago`; exact dates beyond a month. */
export function formatRelative(iso: string, now = Date.now()): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  if (s < 30 * 86_400) return `${Math.round(s / 86_400)}d ago`;
  return formatDateTime(iso);
}

/** `1 thread`, `2 threads`, `1,024 calls`: a count with its noun, singular for one. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${formatInteger(n)} ${n === 1 ? noun : nouns}`;
}

/**
 * Newest first, for two ISO timestamps compared by time: as text a start on a whole second
 * ("…:32Z", written without a fraction) sorts after a later "…:32.092000Z".
 */
export const newerFirst = (a: string, b: string): number => Date.parse(b) - Date.parse(a);
