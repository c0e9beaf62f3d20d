/**
 * A collapsible JSON tree that stays responsive on 10 MB payloads: collapsed below the top by
 * default, children expanded lazily and capped per container, rows virtualized, long strings cut
 * to one line until opened.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CopyButton } from '../ui/CopyButton.js';
import { focusJsonPath, type JsonPathStep } from './jsonFocus.js';
import { flattenJson, initialExpanded, type JsonRow } from './jsonTree.js';
import { JsonValue } from './JsonValue.js';
import './json.css';

/** Props: the value and an optional max height before the viewer scrolls. */
export interface JsonViewerProps {
  value: unknown;
  maxHeight?: number;
  ariaLabel: string;
  /** A path to open, highlight and scroll to when the viewer mounts (a ref's extra edges). */
  focusPath?: readonly JsonPathStep[];
  /**
   * For a preview cut short (docs/trace-outline.md "Payloads in parts"): the full length of each
   * cut string or container by row id, and the loader of its next part, asked when the viewer
   * needs more than `value` holds.
   */
  cuts?: ReadonlyMap<string, number>;
  onLoadMore?: (rowId: string) => void;
}

/** JSON viewer. */
export function JsonViewer({ value, maxHeight = 420, ariaLabel, focusPath, cuts, onLoadMore }: JsonViewerProps) {
  const [focus] = useState(() => (focusPath ? focusJsonPath(value, focusPath) : null));
  const [expanded, setExpanded] = useState(() => new Set([...initialExpanded(value), ...(focus?.expanded ?? [])]));
  const [limits, setLimits] = useState<ReadonlyMap<string, number>>(() => new Map(focus?.limits));
  // Characters shown of each opened long string (docs/trace-outline.md: big payloads in parts).
  const [openStrings, setOpenStrings] = useState<ReadonlyMap<string, number>>(new Map());
  const rows = useMemo(() => flattenJson({ value, expanded, limits, cuts }), [value, expanded, limits, cuts]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 22,
    overscan: 20,
    getItemKey: (i) => rows[i]!.id,
  });

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  // A cut container or string asks its owner for the next part when what is here runs out.
  const showMore = (row: JsonRow) => {
    const id = row.parentId!;
    const limit = (limits.get(id) ?? 100) + 1000;
    setLimits((prev) => new Map(prev).set(id, limit));
    if (cuts?.has(id) && onLoadMore) onLoadMore(id);
  };
  const openString = (row: JsonRow, chars: number) => {
    setOpenStrings((prev) => new Map(prev).set(row.id, chars));
    if (typeof row.value === 'string' && chars > row.value.length && (cuts?.get(row.id) ?? 0) > row.value.length) onLoadMore?.(row.id);
  };

  // Bring the focused row into view once, when the viewer opens on it.
  const focusIndex = focus ? rows.findIndex((r) => r.id === focus.rowId) : -1;
  const scrolledToFocus = useRef(false);
  useEffect(() => {
    if (focusIndex < 0 || scrolledToFocus.current) return;
    scrolledToFocus.current = true;
    virtualizer.scrollToIndex(focusIndex, { align: 'center' });
  }, [focusIndex, virtualizer]);

  return (
    <div className="json-viewer">
      <div className="json-actions">
        <span className="muted small">{describeRoot(value, cuts?.get('$'))}</span>
        <span className="spacer" />
        <button type="button" className="button small ghost" onClick={() => setExpanded(new Set(['$']))}>
          Collapse all
        </button>
        <CopyButton text={() => (typeof value === 'string' ? value : (safeStringify(value) ?? ''))} label="Copy JSON" />
      </div>
      {rows.length === 0 && <div className="json-empty json-meta">{Array.isArray(value) ? '[] (empty list)' : '{} (empty)'}</div>}
      <div ref={scrollRef} className="json-scroll" style={{ maxHeight }} role="tree" aria-label={ariaLabel}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className={row.id === focus?.rowId ? 'json-row json-focused' : 'json-row'}
                aria-current={row.id === focus?.rowId ? 'location' : undefined}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-expanded={row.kind === 'object' || row.kind === 'array' ? row.expanded : undefined}
                style={{ transform: `translateY(${item.start}px)`, paddingLeft: row.depth * 14 }}
              >
                <JsonRowContent
                  row={row}
                  onToggle={toggle}
                  onMore={showMore}
                  stringShown={openStrings.get(row.id) ?? 0}
                  stringTotal={cuts?.get(row.id)}
                  onOpenString={openString}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function JsonRowContent({
  row,
  onToggle,
  onMore,
  stringShown,
  stringTotal,
  onOpenString,
}: {
  row: JsonRow;
  onToggle: (id: string) => void;
  onMore: (row: JsonRow) => void;
  stringShown: number;
  stringTotal: number | undefined;
  onOpenString: (row: JsonRow, chars: number) => void;
}) {
  if (row.kind === 'more') {
    return (
      <button type="button" className="json-more" onClick={() => onMore(row)}>
        … {row.size.toLocaleString()} more — show up to 1,000 more
      </button>
    );
  }
  const name =
    row.name === null ? null : <span className="json-key">{typeof row.name === 'number' ? row.name : JSON.stringify(row.name)}:</span>;
  if (row.kind === 'value') {
    return (
      <span className="json-line">
        <span className="json-toggle" aria-hidden="true" />
        {name} <JsonValue value={row.value} shown={stringShown} total={stringTotal} onShow={(chars) => onOpenString(row, chars)} />
      </span>
    );
  }
  const isArray = row.kind === 'array';
  return (
    <button type="button" className="json-line json-container" onClick={() => onToggle(row.id)}>
      <span className="json-toggle" aria-hidden="true">
        {row.expanded ? '▾' : '▸'}
      </span>
      {name}{' '}
      <span className="json-meta">
        {isArray ? '[' : '{'}
        {`${row.size.toLocaleString()} ${isArray ? (row.size === 1 ? 'item' : 'items') : row.size === 1 ? 'key' : 'keys'}`}
        {isArray ? ']' : '}'}
      </span>
    </button>
  );
}

/** `object · 12 keys`, `list · 3 items`, `string · 1,024 chars`: the value at a glance. */
function describeRoot(value: unknown, total = 0): string {
  if (Array.isArray(value)) return `list · ${Math.max(total, value.length).toLocaleString()} items`;
  if (value !== null && typeof value === 'object') return `object · ${Math.max(total, Object.keys(value).length).toLocaleString()} keys`;
  if (typeof value === 'string') return `string · ${Math.max(total, value.length).toLocaleString()} chars`;
  return value === null || value === undefined ? 'null' : typeof value;
}

/** JSON.stringify that never throws (cycles cannot come from the wire, but be safe). */
function safeStringify(value: unknown): string | null {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return null;
  }
}
