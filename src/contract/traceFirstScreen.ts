/**
 * A trace page's HTML carries the head and first spans of its outline for the signed-in user, in
 * a JSON data block the early paint reads (docs/trace-outline.md "In the page").
 */

/** A trace page's path (entity, project, trace id), as the dashboard's router and public/boot.js match it. */
export const TRACE_PAGE_PATH = /^\/([^/]+)\/([^/]+)\/traces\/([^/]+)\/?$/;

/** The data block's element id. */
export const TRACE_FIRST_SCREEN_ID = 'weft-early-outline';

/** Spans put in the page: the first screen of a window 2,800 px tall (28-px rows). */
export const TRACE_FIRST_SCREEN_SPANS = 100;
