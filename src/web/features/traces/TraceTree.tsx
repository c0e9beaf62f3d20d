/**
 * The trace's call tree with a waterfall: one row per visible span, latency bars on a shared time
 * axis, tokens, cost and latency per node, a collapsed node's subtree totals beside its name.
 * Virtualized; keyboard: ↑/↓ move, ← collapses or goes to the parent, → expands or goes to the
 * first child, Home/End jump.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { StatusBadge } from '../../components/ui/StatusBadge.js';
import { dropEarlyPaint } from '../../lib/earlyPaint.js';
import { usePageKeys } from '../../lib/usePageKeys.js';
import { formatCompact, formatCost, formatDuration, formatInteger, plural } from '../../lib/format.js';
import { callName } from '../../entities/calls/callFields.js';
import type { OutlineRollup } from '../../../contract/traceOutline.js';
import { TimeAxis } from './TimeAxis.js';
import { hasChildren, keyboardAction, type TraceTree as Tree, type VisibleRow } from './traceModel.js';
import './traces.css';

const ROW_HEIGHT = 28;
/** The keys the tree handles, which also work with nothing focused. */
const TREE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End']);

/** Props of TraceTree. */
export interface TraceTreeProps {
  tree: Tree;
  rows: VisibleRow[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  onToggle: (id: string, expanded: boolean) => void;
  /** Spans to mark (the slowest path). */
  highlight: ReadonlySet<string>;
}

/** Tree + waterfall. */
export function TraceTree({ tree, rows, selectedId, onSelect, onToggle, highlight }: TraceTreeProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
  });
  const selectedIndex = rows.findIndex((r) => r.node.span.id === selectedId);
  const items = virtualizer.getVirtualItems();

  // The rows painted before the app's code go once these are in the page, before the next frame
  // (docs/trace-outline.md "Painted before the app's code").
  const shown = items.length > 0;
  useLayoutEffect(() => {
    if (shown) dropEarlyPaint();
  }, [shown]);

  // Keep the selection in view when it moves (keyboard, search, or a link to a deep call).
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  // The selection lives in the URL, which changes a render after onSelect: a key pressed before
  // that render (a quick ↓↓) must move on from the call the previous key chose, not from the one
  // still shown, or the second press is lost.
  const chosen = useRef(selectedId);
  useEffect(() => {
    chosen.current = selectedId;
  }, [selectedId]);

  const onKeyDown = (e: KeyboardEvent) => {
    const from = rows.findIndex((r) => r.node.span.id === chosen.current);
    const action = keyboardAction(e.key, rows, from >= 0 ? from : selectedIndex);
    if (!action) return;
    e.preventDefault();
    if (action.toggle) onToggle(action.toggle.id, action.toggle.expanded);
    if (action.select) {
      chosen.current = action.select;
      onSelect(action.select);
    }
  };

  // Arrow keys walk the tree as soon as the page opens, not only once it has been tabbed into:
  // a key pressed with nothing focused moves the focus to the tree and acts there.
  usePageKeys((e) => {
    if (!TREE_KEYS.has(e.key) || (document.activeElement !== document.body && document.activeElement !== null)) return;
    scrollRef.current?.focus({ preventScroll: true });
    onKeyDown(e as unknown as KeyboardEvent);
  });

  const span = tree.end - tree.start;
  return (
    <div className="trace-tree">
      <div className="tt-head" aria-hidden="true">
        <span>Call</span>
        <span className="right">Tokens</span>
        <span className="right">Cost</span>
        <span className="right">Latency</span>
        <TimeAxis spanMs={span} />
      </div>
      <div
        ref={scrollRef}
        className="tt-scroll"
        role="tree"
        aria-label="Call tree"
        tabIndex={0}
        aria-activedescendant={selectedId ? `tt-${selectedId}` : undefined}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <TreeRow
                key={row.node.span.id}
                row={row}
                top={item.start}
                selected={row.node.span.id === selectedId}
                onPath={highlight.has(row.node.span.id)}
                traceStart={tree.start}
                span={span}
                onSelect={onSelect}
                onToggle={onToggle}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface TreeRowProps {
  row: VisibleRow;
  top: number;
  selected: boolean;
  onPath: boolean;
  traceStart: number;
  span: number;
  onSelect: (id: string) => void;
  onToggle: (id: string, expanded: boolean) => void;
}

/** One tree row; memoized so moving the selection re-renders two rows, not all of them. */
const TreeRow = memo(function TreeRow({ row, top, selected, onPath, traceStart, span, onSelect, onToggle }: TreeRowProps) {
  const { node, expanded, match } = row;
  const call = node.span;
  const { status, rollup } = call;
  const latency = call.latency_ms;
  const start = node.start - traceStart;
  const left = (start / span) * 100;
  const width = latency === null ? 100 - left : Math.max((latency / span) * 100, 0.4);
  const parent = hasChildren(node);

  return (
    <div
      id={`tt-${call.id}`}
      role="treeitem"
      aria-label={status === 'success' ? callName(call) : `${callName(call)} (${status})`}
      aria-level={node.depth + 1}
      aria-expanded={parent ? expanded : undefined}
      aria-selected={selected}
      className={`tt-row${selected ? ' selected' : ''}${match ? ' match' : ''}${onPath ? ' on-path' : ''}`}
      title={rollup.descendants ? subtreeTitle(rollup) : undefined}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onSelect(call.id)}
    >
      <span className="tt-name" style={{ paddingLeft: node.depth * 14 }}>
        {parent ? (
          <button
            type="button"
            className="tt-toggle"
            tabIndex={-1}
            aria-label={expanded ? 'Collapse' : 'Expand'}
            onClick={(e) => {
              e.stopPropagation();
              onSelect(call.id);
              onToggle(call.id, !expanded);
            }}
          >
            {expanded ? '▾' : '▸'}
          </button>
        ) : (
          <span className="tt-toggle" />
        )}
        {status !== 'success' && <StatusBadge status={status} />}
        <span className="tt-label" title={call.op_name}>
          {callName(call)}
        </span>
        {parent && !expanded && <span className="muted small">(+{formatInteger(rollup.descendants)})</span>}
        {!expanded && rollup.errors - (call.error ? 1 : 0) > 0 && (
          <span className="tt-subtree-errors small">{plural(rollup.errors - (call.error ? 1 : 0), 'error')} below</span>
        )}
      </span>
      <span className="right num muted">{call.tokens !== null ? formatCompact(call.tokens) : ''}</span>
      <span className="right num muted">{call.cost !== null ? formatCost(call.cost) : ''}</span>
      <span className="right num">{latency !== null ? formatDuration(latency) : '…'}</span>
      <span className="tt-bar-track">
        <span className={`tt-bar status-${status}${latency === null ? ' running' : ''}`} style={{ left: `${left}%`, width: `${width}%` }} />
      </span>
    </div>
  );
});

/** The subtree's totals, as a row's tooltip. */
function subtreeTitle(r: OutlineRollup): string {
  const parts = [plural(r.descendants, 'call') + ' below', plural(r.errors, 'error')];
  if (r.tokens) parts.push(`${formatInteger(r.tokens)} tokens`);
  if (r.cost !== null) parts.push(formatCost(r.cost));
  return `Subtree: ${parts.join(' · ')}`;
}
