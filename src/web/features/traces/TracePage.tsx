/**
 * One trace: its call tree with a waterfall on the left, the selected call in full on the right.
 * The tree comes from the trace's streamed outline (no payloads; the first rows paint before the
 * rest has come, docs/trace-outline.md); the selected call's payloads load when it is selected. The selected call (`?call=`) and the tree search (`?q=`) live in the URL; `?thread=` says it
 * was opened from a thread, and the way back then leads there instead of to Calls.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import type { OutlineSpan } from '../../../contract/traceOutline.js';
import { OUTLINE_LARGE_TRACE, OUTLINE_OPEN_DEPTH } from '../../../contract/traceOutlineDepth.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { dropEarlyPaint } from '../../lib/earlyPaint.js';
import { formatDuration, formatInteger, plural } from '../../lib/format.js';
import { callName, type Call } from '../../entities/calls/callFields.js';
import { CallDetail } from './CallDetail.js';
import { traceOutlineQueryOptions } from './traceQueries.js';
import { outlineComplete } from './outlineStream.js';
import { buildTraceTree, nextError, slowestPath, visibleRows } from './traceModel.js';
import { TraceTree } from './TraceTree.js';
import { TraceUsageSummary } from './TraceUsageSummary.js';
import './traces.css';

const NO_SPANS: OutlineSpan[] = [];

/**
 * What the detail panel shows of a span until the call itself arrives: the outline's facts in
 * the call's shape (no payloads; tokens and cost wait for the call's own summary).
 */
function lightCall(span: OutlineSpan, projectId: string, traceId: string): Call {
  const weave: Record<string, unknown> = { status: span.status };
  if (span.latency_ms !== null) weave.latency_ms = span.latency_ms;
  return {
    id: span.id,
    project_id: projectId,
    op_name: span.op_name,
    display_name: span.display_name,
    trace_id: traceId,
    parent_id: span.parent_id,
    thread_id: null,
    turn_id: null,
    started_at: span.started_at,
    ended_at: span.ended_at,
    attributes: {},
    inputs: {},
    output: null,
    exception: null,
    summary: { weave },
    wb_user_id: null,
    wb_run_id: null,
    wb_run_step: null,
    wb_run_step_end: null,
    deleted_at: null,
  };
}

/** Trace page. */
export function TracePage() {
  const { entity = '', project = '', traceId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const outline = useQuery(traceOutlineQueryOptions({ projectId, traceId }));
  const spans = outline.data?.spans ?? NO_SPANS;
  const head = outline.data?.head;
  const complete = outline.data ? outlineComplete(outline.data) : false;

  const tree = useMemo(() => buildTraceTree(spans), [spans]);
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [showPath, setShowPath] = useState(false);
  const path = useMemo(() => (showPath ? slowestPath(tree) : []), [showPath, tree]);
  const highlight = useMemo(() => new Set(path), [path]);
  // By the whole trace's size, known from the first line, so the view does not change as spans come.
  const defaultDepth = (head?.spans ?? 0) > OUTLINE_LARGE_TRACE ? OUTLINE_OPEN_DEPTH : Infinity;
  const wanted = params.get('call');
  // A linked call that has not come yet is waited for, not replaced by the root meanwhile.
  const rootId = tree.roots[0]?.span.id ?? null;
  const selectedId = !wanted ? rootId : tree.byId.has(wanted) ? wanted : complete ? rootId : null;
  const pathEnd = path.at(-1) ?? null;
  const rows = useMemo(
    () => visibleRows({ tree, overrides, defaultDepth, search, reveal: [selectedId, pathEnd] }),
    [tree, overrides, defaultDepth, search, selectedId, pathEnd],
  );
  const errors = useMemo(() => tree.roots.reduce((n, r) => n + r.span.rollup.errors, 0), [tree]);

  const setParam = useCallback(
    (key: string, value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true, state: location.state },
      ),
    [setParams, location.state],
  );
  const onSelect = useCallback((id: string) => setParam('call', id), [setParam]);
  const onToggle = useCallback((id: string, expanded: boolean) => setOverrides((prev) => new Map(prev).set(id, expanded)), []);
  const onNextError = () => {
    const id = nextError(tree, selectedId);
    if (id) onSelect(id);
  };
  // Showing the slowest path opens it down to its end and selects that span.
  const onSlowestPath = () => {
    const end = showPath ? null : (slowestPath(tree).at(-1) ?? null);
    setShowPath(!showPath);
    if (end) onSelect(end);
  };

  // The rows painted before the app's code give way to an error, an empty trace or a search
  // without matches; otherwise TraceTree removes them once its rows are in.
  const noTree = !!outline.error || (!outline.isPending && rows.length === 0);
  useLayoutEffect(() => {
    if (noTree) dropEarlyPaint();
  }, [noTree]);

  const callsSearch = (location.state as { callsSearch?: string } | null)?.callsSearch ?? '';
  const root = tree.roots[0]?.span;
  const selected = selectedId ? tree.byId.get(selectedId)?.span : undefined;
  const fromThread = params.get('thread');
  const back = fromThread ? (
    <Link
      className="button ghost"
      to={`/${entity}/${project}/threads/${encodeURIComponent(fromThread)}${root ? `?turn=${encodeURIComponent(root.id)}` : ''}`}
      state={location.state}
    >
      ← Thread
    </Link>
  ) : (
    <Link className="button ghost" to={`/${entity}/${project}/calls${callsSearch}`}>
      ← Calls
    </Link>
  );

  // No call at all: the id is unknown here (or everything in it was deleted). Say so, no Retry.
  if (outline.isSuccess && complete && spans.length === 0) {
    return (
      <div className="page trace-page">
        <header className="page-header">{back}</header>
        <div className="empty-state" role="status">
          <h1>Trace not found</h1>
          <p>
            This project has no trace <span className="mono">{traceId}</span> (or its calls were deleted).
          </p>
          {back}
        </div>
      </div>
    );
  }

  return (
    <div className="page trace-page">
      <header className="page-header">
        {back}
        <h1>{root ? callName(root) : 'Trace'}</h1>
        <span className="muted">
          {outline.data ? plural(spans.length, 'call') : ''}
          {tree.end > tree.start && spans.length ? ` · ${formatDuration(tree.end - tree.start)}` : ''}
        </span>
        {head && <TraceUsageSummary models={head.models} />}
        {outline.isFetching && <Spinner label="Loading trace" />}
        {head?.truncated && <span className="muted small">only the first {formatInteger(head.spans)} are shown</span>}
      </header>
      {outline.error ? (
        <ErrorState error={outline.error} onRetry={() => void outline.refetch()} />
      ) : outline.isPending ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading trace" />
        </div>
      ) : (
        <div className="trace-layout">
          <div className="trace-left">
            <div className="trace-tools">
              <input
                className="input"
                type="search"
                placeholder="Search calls in this trace"
                aria-label="Search calls in this trace"
                value={search}
                onChange={(e) => setParam('q', e.target.value || null)}
              />
              <button type="button" className="button small" disabled={errors === 0} onClick={onNextError}>
                Next error{errors ? ` (${formatInteger(errors)})` : ''}
              </button>
              <button type="button" className="button small" aria-pressed={showPath} onClick={onSlowestPath}>
                Slowest path
              </button>
            </div>
            {search && rows.length === 0 && <p className="muted small">No call in this trace matches “{search}”.</p>}
            <TraceTree tree={tree} rows={rows} selectedId={selectedId} onSelect={onSelect} onToggle={onToggle} highlight={highlight} />
          </div>
          {selected && (
            <CallDetail key={selected.id} projectId={projectId} light={lightCall(selected, projectId, traceId)} rollup={selected.rollup} />
          )}
        </div>
      )}
    </div>
  );
}
