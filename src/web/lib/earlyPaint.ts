/**
 * The trace page's early paint: the first screen of a trace's rows, drawn from its streamed
 * outline by a small script of its own before the app's code is in (features/traces/earlyTrace.ts,
 * docs/trace-outline.md "Painted before the app's code"). It lies over the app until the app shows
 * a page of its own; then the app removes it, in the same frame.
 */

/** The early paint's element, a child of `<body>` beside the app's root. */
export const EARLY_PAINT_ID = 'weft-early';

type Holder = { __weftEarlyPaintDone?: boolean };

/** True once the app has shown a page: the early paint must not appear after that. */
export const earlyPaintDone = (): boolean => (globalThis as Holder).__weftEarlyPaintDone === true;

/** The app shows a page of its own: the early paint goes, and does not come later. */
export function dropEarlyPaint(): void {
  (globalThis as Holder).__weftEarlyPaintDone = true;
  document.getElementById(EARLY_PAINT_ID)?.remove();
}
