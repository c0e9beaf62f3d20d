/** Axis and tooltip labels for time buckets, in the viewer's time zone (the buckets' zone). */

const hourMinute = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false });
const dayHour = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

const DAY_S = 86_400;

/** Axis label of a bucket start: `14:05` for sub-hour buckets, `Mar 4, 12:00` under a day, `Mar 4` beyond. */
export function formatBucketTick(t: number, granularity: number): string {
  if (granularity >= DAY_S) return day.format(t);
  if (granularity >= 6 * 3600) return dayHour.format(t);
  return hourMinute.format(t);
}

/** A bucket's full range for tooltips: `Mar 4, 14:00 – 15:00`, or `Mar 4 – Mar 5` for whole days. */
export function formatBucketRange(t: number, granularity: number): string {
  const end = t + granularity * 1000;
  if (granularity >= DAY_S && granularity % DAY_S === 0)
    return granularity === DAY_S ? day.format(t) : `${day.format(t)} – ${day.format(end - 1)}`;
  const sameDay = new Date(t).toDateString() === new Date(end).toDateString();
  return `${dayHour.format(t)} – ${sameDay ? hourMinute.format(end) : dayHour.format(end)}`;
}
