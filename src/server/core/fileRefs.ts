/**
 * The file digests a stored JSON payload refers to. Weave clients store a value backed by files
 * (an image, audio, an op's source, a Content) as a `CustomWeaveType` object whose `files` map
 * names each file's digest; the stores index these at write time so retention can tell which
 * files only expired calls used (docs/operations/retention.md "Files").
 *
 * The rule, which the SQLite migration's backfill repeats in SQL: every string value of the
 * `files` object of every object whose `_type` is `CustomWeaveType`, at any depth.
 */

const MARKER = 'CustomWeaveType';
/** Deeper than any real payload; a hostile one stops here instead of overflowing the stack. */
const MAX_DEPTH = 200;

function collect(value: unknown, out: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  const files = record.files;
  if (record._type === MARKER && files !== null && typeof files === 'object' && !Array.isArray(files)) {
    for (const digest of Object.values(files)) if (typeof digest === 'string') out.add(digest);
  }
  for (const v of Object.values(record)) collect(v, out, depth + 1);
}

/** The file digests in one JSON text (null: none), deduplicated; the text test skips the parse for most payloads. */
export function fileDigestsIn(json: string | null | undefined, out: Set<string> = new Set()): Set<string> {
  if (!json?.includes(MARKER)) return out;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return out; // the stores keep only JSON they produced, so this is not reached
  }
  collect(value, out, 0);
  return out;
}
