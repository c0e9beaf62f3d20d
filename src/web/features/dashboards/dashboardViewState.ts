/**
 * The dashboard's view lives in the URL, so a copied link shows the same charts:
 * `?range=7d&op=generate&roots=0`, or `?range=custom&from=2025-01-01T00:00&to=2025-01-02T00:00`
 * (custom bounds are local date-times, as the browser's datetime inputs write them).
 * Defaults (last day, every op, trace roots only) are left out of the URL.
 */
import { choice, flag, text, urlState } from '../../lib/urlState.js';
import { useUrlView } from '../../lib/useUrlView.js';

/** Time range presets, then `custom` (explicit from/to). Bucket widths give 12–30 bars; custom ranges let the server choose. */
export const RANGES = [
  { value: '1h', label: 'Last hour', ms: 3_600_000, granularity: 300 },
  { value: '24h', label: 'Last day', ms: 86_400_000, granularity: 3600 },
  { value: '7d', label: 'Last week', ms: 7 * 86_400_000, granularity: 6 * 3600 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000, granularity: 86_400 },
] as const;

/** A preset's value, or `custom`. */
export type RangeValue = (typeof RANGES)[number]['value'] | 'custom';

/** The dashboard view as the URL describes it. */
export interface DashboardView {
  range: RangeValue;
  /** Custom range bounds (local `YYYY-MM-DDTHH:mm`); used when `range` is `custom`. */
  from: string | null;
  to: string | null;
  /** Op name (a ref's name, or a raw OTel span name); null = every op. */
  op: string | null;
  rootsOnly: boolean;
}

const fields = urlState<DashboardView>({
  range: choice<RangeValue>('range', [...RANGES.map((r) => r.value), 'custom'], '24h'),
  from: text('from'),
  to: text('to'),
  op: text('op'),
  rootsOnly: flag('roots', true),
});

/** Reads the view from search params. */
export const readDashboardView = (params: URLSearchParams): DashboardView => fields.read(params);

/** Writes a view into search params, omitting defaults (and custom bounds unless the range is custom). */
export function writeDashboardView(view: DashboardView, params = new URLSearchParams()): URLSearchParams {
  const custom = view.range === 'custom';
  return fields.write({ ...view, from: custom ? view.from : null, to: custom ? view.to : null }, params);
}

/** The browser's IANA time zone, which buckets align to (days start at local midnight). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * "Now" rounded up to the next minute: the loader and the page then ask for the same window,
 * and calls and feedback of the current minute are inside it.
 */
export function roundedNow(at = Date.now()): number {
  return Math.ceil(at / 60_000) * 60_000;
}

/**
 * The view's window as epoch ms `[start, end)` and its bucket width in seconds (null: the
 * server's choice); a broken custom range falls back to the last day.
 */
export function resolveWindow({ view, now }: { view: DashboardView; now: number }): {
  start: number;
  end: number;
  granularity: number | null;
} {
  if (view.range === 'custom') {
    const start = view.from ? new Date(view.from).getTime() : NaN;
    const end = view.to ? new Date(view.to).getTime() : now;
    if (Number.isFinite(start) && Number.isFinite(end) && end > start) return { start, end, granularity: null };
  }
  const preset = RANGES.find((r) => r.value === view.range) ?? RANGES[1];
  return { start: now - preset.ms, end: now, granularity: preset.granularity };
}

/** The view plus an updater that writes a patch back into the URL (see useUrlView). */
export function useDashboardView(): [DashboardView, (patch: Partial<DashboardView>) => void] {
  return useUrlView(readDashboardView, writeDashboardView);
}
