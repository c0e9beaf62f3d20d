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
}

/** JSON viewer. */
export function JsonViewer({ value, maxHeight = 420, ariaLabel, focusPath }: JsonViewerProps) {
  const [focus] = useState(() => (focusPath ? focusJsonPath(value, focusPath) : null));
  const [expanded, setExpanded] = useState(() => new Set([...initialExpanded(value), ...(focus?.expanded ?? [])]));
  const [limits, setLimits] = useState<ReadonlyMap<string, number>>(() => new Map(focus?.limits));
  // Characters shown of each opened long string (docs/trace-outline.md: big payloads in parts).
  const [openStrings, setOpenStrings] = useState<ReadonlyMap<string, number>>(new Map());
  const rows = useMemo(() => flattenJson({ value, expanded, limits }), [value, expanded, limits]);
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
  const showMore = (row: JsonRow) => setLimits((prev) => new Map(prev).set(row.parentId!, (prev.get(row.parentId!) ?? 100) + 1000));
  const openString = (id: string, chars: number) => setOpenStrings((prev) => new Map(prev).set(id, chars));

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
        <span className="muted small">{describeRoot(value)}</span>
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
  onOpenString,
}: {
  row: JsonRow;
  onToggle: (id: string) => void;
  onMore: (row: JsonRow) => void;
  stringShown: number;
  onOpenString: (id: string, chars: number) => void;
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
        {name} <JsonValue value={row.value} shown={stringShown} onShow={(chars) => onOpenString(row.id, chars)} />
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
function describeRoot(value: unknown): string {
  if (Array.isArray(value)) return `list · ${value.length.toLocaleString()} items`;
  if (value !== null && typeof value === 'object') return `object · ${Object.keys(value).length.toLocaleString()} keys`;
  if (typeof value === 'string') return `string · ${value.length.toLocaleString()} chars`;
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
