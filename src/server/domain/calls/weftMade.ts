/**
 * The mark on calls Weft writes itself rather than receives: `attributes.weft.source` names
 * what made them. Monitors never score `scorer` calls (or a monitor on every op would score its
 * own judge forever), and the dashboard's Calls view leaves all of them out unless asked, through
 * the calls filter's `weft_made` (docs/api/core.md §3.2 "Weft's own calls").
 */

/** What made a call: an LLM judge scoring (Score with…, monitors, rescoring), the playground's completions, an evaluate_model job. */
export type WeftSource = 'scorer' | 'playground' | 'evaluate_model';

/** The attributes that mark a call Weft made. */
export const weftMade = (source: WeftSource): { weft: { source: WeftSource } } => ({ weft: { source } });
