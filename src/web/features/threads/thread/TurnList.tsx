/**
 * A thread's turns in order: what was asked, when (after the thread's start), status and latency,
 * with a bar comparing each turn's latency to the slowest. A listbox: click selects, the ↗ link
 * opens the turn's trace; keys come from useTurnKeys.
 */
import { memo, useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { StatusBadge } from '../../../components/ui/StatusBadge.js';
import { formatDuration } from '../../../lib/format.js';
import { callLatencyMs, callName, callStatus, type Call } from '../../../entities/calls/callFields.js';
import '../threads.css';

/** Props of TurnList. */
export interface TurnListProps {
  turns: Call[];
  /** Per turn, one line saying what it was about (turnPreview). */
  previews: (string | null)[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** The trace page URL for a turn. */
  traceHref: (turn: Call) => string;
}

/** Turn list. */
export function TurnList({ turns, previews, selectedId, onSelect, traceHref }: TurnListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const start = turns.length ? Date.parse(turns[0]!.started_at) : 0;
  const slowest = Math.max(1, ...turns.map((t) => callLatencyMs(t) ?? 0));

  // Keep the selection in view when the keyboard moves it.
  useEffect(() => {
    if (!selectedId || !listRef.current) return;
    listRef.current.querySelector(`[data-turn-id="${CSS.escape(selectedId)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  return (
    <div
      ref={listRef}
      className="turn-list"
      role="listbox"
      aria-label="Turns"
      tabIndex={0}
      aria-activedescendant={selectedId ? `turn-${selectedId}` : undefined}
    >
      {turns.map((turn, index) => (
        <TurnRow
          key={turn.id}
          turn={turn}
          preview={previews[index] ?? null}
          index={index}
          offsetMs={Date.parse(turn.started_at) - start}
          slowest={slowest}
          selected={turn.id === selectedId}
          onSelect={onSelect}
          href={traceHref(turn)}
        />
      ))}
    </div>
  );
}

interface TurnRowProps {
  turn: Call;
  preview: string | null;
  index: number;
  offsetMs: number;
  slowest: number;
  selected: boolean;
  onSelect: (id: string) => void;
  href: string;
}

/** One turn; memoized so moving the selection re-renders two rows, not all of them. */
const TurnRow = memo(function TurnRow({ turn, preview: asked, index, offsetMs, slowest, selected, onSelect, href }: TurnRowProps) {
  const status = callStatus(turn);
  const latency = callLatencyMs(turn);
  return (
    <div
      id={`turn-${turn.id}`}
      data-turn-id={turn.id}
      role="option"
      aria-selected={selected}
      aria-label={`Turn ${index + 1}${status === 'success' ? '' : ` (${status})`}${asked ? `: ${asked.slice(0, 80)}` : ''}`}
      className={`turn-row${selected ? ' selected' : ''}`}
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest('a')) onSelect(turn.id);
      }}
    >
      <span className="turn-index num">{index + 1}</span>
      <span className="turn-main">
        <span className="turn-text" title={asked ?? undefined}>
          {asked ?? <span className="muted">{callName(turn)}</span>}
        </span>
        <span className="turn-meta muted">
          {index === 0 ? 'start' : `+${formatDuration(offsetMs)}`} · {callName(turn)}
        </span>
      </span>
      <StatusBadge status={status} />
      <span className="turn-latency num">{latency === null ? '…' : formatDuration(latency)}</span>
      <Link className="turn-open" to={href} tabIndex={-1} aria-label={`Open the trace of turn ${index + 1}`} title="Open trace">
        ↗
      </Link>
      <span
        className={`turn-bar status-${status}${latency === null ? ' running' : ''}`}
        style={{ width: `${latency === null ? 100 : Math.max(1, (latency / slowest) * 100)}%` }}
        aria-hidden="true"
      />
    </div>
  );
});
