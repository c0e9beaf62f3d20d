/** Number, time and duration formatting shared by every page, so figures read the same everywhere. */

const integer = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** `12,345`. */
export function formatInteger(n: number): string {
  return integer.format(n);
}

/** `12.3K` for big numbers, exact below 10,000. */
export function formatCompact(n: number): string {
  return n < 10_000 ? integer.format(n) : compact.format(n);
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

const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

/** `Mar 4, 14:02:11` in the viewer's time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
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
