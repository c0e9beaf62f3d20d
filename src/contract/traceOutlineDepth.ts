/**
 * How deep a big trace's tree opens, without zod: the trace page imports these, and importing
 * them from traceOutline.ts would bring the schemas (and zod) into its code.
 */

/**
 * A trace with more spans than this opens `OUTLINE_OPEN_DEPTH` levels deep, and its streamed
 * outline answers the spans that view shows first (docs/trace-outline.md "Streamed").
 */
export const OUTLINE_LARGE_TRACE = 500;
/** How deep a large trace opens: spans at depth ≤ this are shown (their parents open). */
export const OUTLINE_OPEN_DEPTH = 2;
