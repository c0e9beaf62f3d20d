/**
 * Dotted field paths of the query language (`inputs.messages.0.content`), as the reference
 * reads them. Neutral: each backend turns the parts into its own JSON path syntax.
 */

/** Splits on dots, except backslash-escaped ones (`a\.b` is one key), as the reference does. */
export function splitFieldPath(path: string): string[] {
  return path.split(/(?<!\\)\./).map((part) => part.replace(/\\\./g, '.'));
}

/** Digit-only parts are list indexes, anything else an object key (the reference's rule). */
export const isListIndex = (part: string): boolean => /^\d+$/.test(part);
