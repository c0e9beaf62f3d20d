/**
 * A `weave:///` ref shown as a link to what it names: an object or op at its version, a table's
 * rows, a call in its trace. Strings that only look like refs stay plain text.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { describeEdges, parseRef, refHref, shortDigest, type WeaveRef } from '../../lib/refs.js';
import './refs.css';

/** The short words a ref link shows: kind, name, short digest, extra path. */
export function refLabel(ref: WeaveRef): { kind: string; name: string; detail: string } {
  const path = describeEdges(ref.extra);
  const tail = path ? ` › ${path}` : '';
  if (ref.kind === 'call') return { kind: 'call', name: shortDigest(ref.id), detail: tail };
  if (ref.kind === 'table') return { kind: 'table', name: shortDigest(ref.digest), detail: tail };
  return { kind: ref.kind === 'op' ? 'op' : 'obj', name: ref.name, detail: `:${shortDigest(ref.digest)}${tail}` };
}

/** Props of RefLink: the ref string; `compact` drops the digest (for table cells). */
export interface RefLinkProps {
  uri: string;
  compact?: boolean;
  className?: string;
  /** Replaces the pill's content (an icon beside a name); give `ariaLabel` with it. */
  children?: ReactNode;
  ariaLabel?: string;
  /** -1 inside table rows, whose row cursor is the one Tab stop. */
  tabIndex?: number;
}

/** Link to a ref's target, or the plain string when it does not parse. */
export function RefLink({ uri, compact = false, className, children, ariaLabel, tabIndex }: RefLinkProps) {
  const ref = parseRef(uri);
  if (!ref) return children ? null : <span className={className}>{uri}</span>;
  if (children) {
    return (
      <Link
        className={className ?? 'ref-icon-link'}
        to={refHref(ref)}
        title={uri}
        aria-label={ariaLabel}
        tabIndex={tabIndex}
        onClick={(e) => e.stopPropagation()}
      >
        {children}
      </Link>
    );
  }
  const { kind, name, detail } = refLabel(ref);
  const shown = compact && (ref.kind === 'object' || ref.kind === 'op') ? detail.replace(/^:[^ ]*/, '') : detail;
  return (
    <Link
      className={`ref-link ref-${ref.kind}${className ? ` ${className}` : ''}`}
      to={refHref(ref)}
      title={uri}
      onClick={(e) => e.stopPropagation()}
    >
      <span className="ref-kind" aria-hidden="true">
        {kind}
      </span>
      <span className="ref-name">{name}</span>
      {shown && <span className="ref-detail">{shown}</span>}
    </Link>
  );
}
