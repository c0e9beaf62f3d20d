/** Any JSON value squeezed into one line: strings as text, objects as compact JSON, refs as links. */
import { isRefString } from '../../lib/refs.js';
import { RefLink } from '../refs/RefLink.js';
import './table.css';

const MAX = 300;

/**
 * Compact JSON of a value, stopping once `max` characters are written, so previewing a 10 MB
 * payload costs as much as previewing a small one.
 */
export function previewValue(value: unknown, max = MAX): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…` : value;
  let out = '';
  const write = (v: unknown): boolean => {
    if (out.length > max) return false;
    if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length; i++) {
        if (i) out += ',';
        if (!write(v[i])) return false;
      }
      out += ']';
    } else if (typeof v === 'object' && v !== null) {
      out += '{';
      let i = 0;
      for (const k in v) {
        if (i++) out += ',';
        out += `${JSON.stringify(k)}:`;
        if (!write((v as Record<string, unknown>)[k])) return false;
      }
      out += '}';
    } else if (typeof v === 'string') {
      out += JSON.stringify(v.length > max ? v.slice(0, max) : v);
    } else {
      out += String(v);
    }
    return out.length <= max;
  };
  return write(value) ? out : `${out.slice(0, max)}…`;
}

/** Value cell. */
export function ValueCell({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <span className="muted">—</span>;
  if (isRefString(value)) return <RefLink uri={value} compact />;
  const text = previewValue(value);
  return (
    <span className={typeof value === 'string' ? 'cell-text' : 'cell-text mono'} title={text}>
      {text}
    </span>
  );
}
