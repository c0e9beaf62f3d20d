/** A JSON leaf: typed colours; long or multi-line strings cut to one line until opened; refs as links. */
import { isRefString } from '../../lib/refs.js';
import { RefLink } from '../refs/RefLink.js';
import './json.css';

const PREVIEW = 240;
const OPEN_CAP = 200_000;

/** Leaf value. */
export function JsonValue({ value, open, onOpen }: { value: unknown; open: boolean; onOpen: () => void }) {
  if (value === null || value === undefined) return <span className="json-null">null</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{value}</span>;
  if (typeof value === 'string') {
    if (isRefString(value)) return <RefLink uri={value} />;
    const long = value.length > PREVIEW || value.includes('\n');
    if (!long) return <span className="json-string">{JSON.stringify(value)}</span>;
    if (open) {
      return (
        <span className="json-string open">
          {value.length > OPEN_CAP ? `${value.slice(0, OPEN_CAP)}… (${value.length.toLocaleString()} characters)` : value}
        </span>
      );
    }
    const firstLine = value.split('\n', 1)[0]!.slice(0, PREVIEW);
    return (
      <span className="json-string">
        "{firstLine}…"{' '}
        <button type="button" className="link-button" onClick={onOpen}>
          show all ({value.length.toLocaleString()} chars)
        </button>
      </span>
    );
  }
  return <span>{String(value)}</span>;
}
