/**
 * A JSON leaf: typed colours; long or multi-line strings cut to one line until opened, then shown
 * in parts of 200,000 characters ("show more"), so a 20 MB string never lands in the page at once
 * (docs/trace-outline.md); refs as links.
 */
import { isRefString } from '../../lib/refs.js';
import { RefLink } from '../refs/RefLink.js';
import './json.css';

const PREVIEW = 240;
/** Characters one "show" adds to an opened string. */
export const STRING_PART = 200_000;

/**
 * Leaf value; `shown` is how many characters of an opened long string are in view (0: closed);
 * `total` is a string's full length when the value is only its head (a preview's cut string).
 */
export function JsonValue({
  value,
  shown,
  onShow,
  total,
}: {
  value: unknown;
  shown: number;
  onShow: (chars: number) => void;
  total?: number;
}) {
  if (value === null || value === undefined) return <span className="json-null">null</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{value}</span>;
  if (typeof value === 'string') {
    if (isRefString(value)) return <RefLink uri={value} />;
    const length = Math.max(total ?? 0, value.length);
    const long = length > PREVIEW || value.includes('\n');
    if (!long) return <span className="json-string">{JSON.stringify(value)}</span>;
    if (shown > 0) {
      const left = length - shown;
      // A part still on its way: what is here, then a note.
      const loading = shown > value.length && value.length < length;
      return (
        <span className="json-string open">
          {left > 0 ? value.slice(0, shown) : value}
          {loading && <span className="muted"> … loading</span>}
          {!loading && left > 0 && (
            <>
              {'… '}
              <button type="button" className="link-button" onClick={() => onShow(shown + STRING_PART)}>
                show more ({left.toLocaleString()} characters left)
              </button>
            </>
          )}
        </span>
      );
    }
    // Only the head is looked at: a 20 MB string without a newline is never split whole.
    const firstLine = value.slice(0, PREVIEW).split('\n', 1)[0]!;
    // The button sits beside the clipped preview, not in it, so a long line cannot hide it.
    return (
      <>
        <span className="json-string">"{firstLine}…"</span>
        <button type="button" className="link-button json-show" onClick={() => onShow(STRING_PART)}>
          show all ({length.toLocaleString()} chars)
        </button>
      </>
    );
  }
  return <span>{String(value)}</span>;
}
