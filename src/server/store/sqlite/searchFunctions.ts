/**
 * The calls search rule (query/callsSearch.ts) as SQL functions, registered on every connection
 * that may run a calls query: `weft_search_match` decides a search, `weft_search_word` ranks it
 * (callSearch.ts prints the calls).
 */
import type Database from 'better-sqlite3';
import { textsHold, textsHoldWord } from '../query/index.js';

/** Registers the rule's SQL functions on a connection (every connection that may run a calls query). */
export function registerSearchFunctions(db: Database.Database): void {
  const needles = (a: unknown, b: unknown) => (typeof b === 'string' ? [String(a), b] : [String(a)]);
  const texts = (args: unknown[]) => args.slice(0, 4).map((t) => (typeof t === 'string' ? t : null));
  db.function('weft_search_match', { deterministic: true, varargs: true }, (...args: unknown[]) =>
    textsHold(texts(args), needles(args[4], args[5])) ? 1 : 0,
  );
  db.function('weft_search_word', { deterministic: true, varargs: true }, (...args: unknown[]) =>
    textsHoldWord(texts(args), needles(args[4], args[5])) ? 1 : 0,
  );
}
