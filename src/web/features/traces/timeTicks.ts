/** The waterfall's time axis ticks, pure: the tree's header and the early paint (earlyTrace.ts) share them. */

/** A "nice" step (1, 2 or 5 × 10^n ms) giving about four ticks across the span. */
export function niceStep(spanMs: number, ticks = 4): number {
  const raw = Math.max(spanMs / ticks, 1);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / pow;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * pow;
}

/** The tick times from 0; the last label would be cut off at the right edge, so they stop a little short of it. */
export function axisTicks(spanMs: number): number[] {
  const step = niceStep(spanMs);
  const ticks: number[] = [];
  for (let t = 0; t <= spanMs * 0.8; t += step) ticks.push(t);
  return ticks;
}
