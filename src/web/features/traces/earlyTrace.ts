/**
 * The first screen of a trace page, painted before the app's code is in (docs/trace-outline.md
 * "Painted before the app's code"): public/boot.js asks for the streamed outline and loads this
 * script, built on its own without React (scripts/earlyScriptPlugin.ts). It reads the outline's
 * first lines from the page itself when the server put them there ("In the page"), else from a
 * copy of that answer (the app reads the other copy, so nothing is fetched twice), and draws the
 * page's frame and first rows with the tree's own functions and classes, over the app, which
 * removes it when it shows its own page (lib/earlyPaint.ts). Span names are user text: they go
 * in as text nodes, never as HTML.
 */
import type { OutlineSpan, TraceOutlineHead, TraceOutlineLine } from '../../../contract/traceOutline.js';
import { TRACE_FIRST_SCREEN_ID, TRACE_PAGE_PATH } from '../../../contract/traceFirstScreen.js';
import { OUTLINE_LARGE_TRACE, OUTLINE_OPEN_DEPTH } from '../../../contract/traceOutlineDepth.js';
import { readJsonLines } from '../../../client/readJsonLines.js';
import { STATUS_LABELS } from '../../components/ui/statusLabels.js';
import { callName } from '../../entities/calls/callFields.js';
import { EARLY_PAINT_ID, earlyPaintDone } from '../../lib/earlyPaint.js';
import { formatCompact, formatCost, formatDuration, formatInteger, plural } from '../../lib/format.js';
import { axisTicks } from './timeTicks.js';
import { buildTraceTree, hasChildren, visibleRows, type TraceTree, type VisibleRow } from './traceModel.js';
// The built dashboard links one stylesheet holding these; under `weft dev` they come from here.
import '../../styles.css';
import './traces.css';
import './traceUsage.css';

/** As TraceTree.tsx draws them. */
const ROW_HEIGHT = 28;

type EarlyOutline = {
  body: string;
  at: number;
  response: Promise<Response | null>;
  /** Set here: true once the rows are painted, false when they will not be (no access, an error, a search). */
  painted?: Promise<boolean>;
};
type WithEarly = { __weftEarlyOutline?: EarlyOutline };

/** What the rows are drawn from: the head and the spans read so far, in the stream's order. */
export interface EarlyOutlineView {
  head: TraceOutlineHead;
  spans: OutlineSpan[];
  /** Whether every span the head announced was read. */
  whole: boolean;
}

function start(): void {
  const early = (globalThis as WithEarly).__weftEarlyOutline;
  if (!early) return;
  const path = TRACE_PAGE_PATH.exec(location.pathname);
  const params = new URLSearchParams(location.search);
  // A search shows other rows than the tree's first screen; the app draws those.
  if (!path || params.get('q')) return;
  const selectedId = params.get('call');
  const where = { entity: decodeURIComponent(path[1]!), project: decodeURIComponent(path[2]!), selectedId, params };
  const rows = Math.ceil(window.innerHeight / ROW_HEIGHT) + 1;
  // The first screen the server put in the page: painted now, the streamed answer left to the app.
  const inPage = firstScreenInPage(rows, selectedId);
  if (inPage) {
    early.painted = paint(inPage, where).catch(() => false);
    return;
  }
  let settle!: (painted: boolean) => void;
  early.painted = new Promise<boolean>((resolve) => (settle = resolve));
  // The app takes the outline when it asks for it (outlineStream.ts earlyOutlineLines): it gets
  // one copy of the answer's bytes, this script reads the other. Any answer but 200 (signed out,
  // no access to the project) paints nothing.
  early.response = early.response.then((res) => {
    if (!res?.ok || !res.body) {
      settle(false);
      return res;
    }
    const [mine, theirs] = res.body.tee();
    readFirstScreen(mine, rows, selectedId)
      .then((view) => (view ? paint(view, where) : false))
      .then(settle, () => settle(false));
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  });
}

/** The first screen from the page's data block (traceFirstScreen.ts on the server), if it holds one. */
function firstScreenInPage(rows: number, selectedId: string | null): EarlyOutlineView | null {
  const text = document.getElementById(TRACE_FIRST_SCREEN_ID)?.textContent;
  if (!text) return null;
  try {
    return firstScreen(JSON.parse(text) as TraceOutlineLine[], rows, selectedId);
  } catch {
    return null;
  }
}

/**
 * Reads the head and the spans until `rows` of them are in (the stream answers the rows the
 * tree opens with first, in its order) or the stream ends, then stops reading its copy.
 */
export async function readFirstScreen(
  body: ReadableStream<Uint8Array>,
  rows: number,
  selectedId: string | null,
): Promise<EarlyOutlineView | null> {
  const lines: TraceOutlineLine[] = [];
  let spans = 0;
  for await (const line of readJsonLines<TraceOutlineLine>(body)) {
    lines.push(line);
    if (!('head' in line) && ++spans >= rows) break;
  }
  // Not awaited: a tee's branch is cancelled at once, but its promise waits for the other branch.
  void body.cancel().catch(() => undefined);
  return firstScreen(lines, rows, selectedId);
}

/**
 * The view of the head and up to `rows` spans of `lines`. A linked call (`?call=`) must be among
 * them (the app would scroll to it): null otherwise, without reading on (a deep call could be the
 * trace's last line).
 */
function firstScreen(lines: TraceOutlineLine[], rows: number, selectedId: string | null): EarlyOutlineView | null {
  let head: TraceOutlineHead | null = null;
  const spans: OutlineSpan[] = [];
  for (const line of lines) {
    if ('head' in line) head = line.head;
    else if (spans.length < rows) spans.push(line);
  }
  if (!head || spans.length === 0) return null;
  if (selectedId && !spans.some((s) => s.id === selectedId)) return null;
  return { head, spans, whole: spans.length >= head.spans };
}

/** The rows the tree opens with, as the trace page computes them from the same spans. */
export function firstRows(view: EarlyOutlineView, selectedId: string | null): { tree: TraceTree; rows: VisibleRow[] } {
  const tree = buildTraceTree(view.spans);
  const defaultDepth = view.head.spans > OUTLINE_LARGE_TRACE ? OUTLINE_OPEN_DEPTH : Infinity;
  return { tree, rows: visibleRows({ tree, overrides: new Map(), defaultDepth, search: '', reveal: [selectedId] }) };
}

type Child = Node | string | null | false;

/** An element with classes and children; strings become text nodes (never parsed as HTML). */
function h(tag: string, className: string | null, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== null && child !== false) node.append(child);
  return node;
}

function styled<T extends HTMLElement>(node: T, style: Partial<CSSStyleDeclaration>): T {
  Object.assign(node.style, style);
  return node;
}

/** The page as TracePage.tsx and AppLayout.tsx draw it, with the first screen of rows; nothing in it works yet. */
export function earlyPage(
  view: EarlyOutlineView,
  { entity, project, selectedId, params }: { entity: string; project: string; selectedId: string | null; params: URLSearchParams },
): HTMLElement {
  const { tree, rows } = firstRows(view, selectedId);
  const selected = selectedId ?? tree.roots[0]?.span.id ?? null;
  const root = tree.roots[0]?.span;
  const span = tree.end - tree.start;
  const errors = tree.roots.reduce((n, r) => n + r.span.rollup.errors, 0);
  const thread = params.get('thread');
  const back = h('a', 'button ghost', thread ? '← Thread' : '← Calls');
  back.setAttribute('href', thread ? `/${entity}/${project}/threads/${encodeURIComponent(thread)}` : `/${entity}/${project}/calls`);

  const usage = usageLabel(view.head);
  const header = h(
    'header',
    'page-header',
    back,
    h('h1', null, root ? callName(root) : 'Trace'),
    h('span', 'muted', `${plural(view.spans.length, 'call')}${span > 0 ? ` · ${formatDuration(span)}` : ''}`),
    usage && h('button', 'button ghost small', usage),
    !view.whole && h('span', 'spinner-wrap', h('span', 'spinner')),
  );

  const search = h('input', 'input') as HTMLInputElement;
  search.type = 'search';
  search.placeholder = 'Search calls in this trace';
  const nextError = h('button', 'button small', `Next error${errors ? ` (${formatInteger(errors)})` : ''}`) as HTMLButtonElement;
  nextError.disabled = errors === 0;
  const tools = h('div', 'trace-tools', search, nextError, h('button', 'button small', 'Slowest path'));

  const axis = h('span', 'time-axis');
  for (const t of axisTicks(span)) axis.append(styled(h('span', 'tick', formatDuration(t)), { left: `${(t / span) * 100}%` }));
  const head = h(
    'div',
    'tt-head',
    h('span', null, 'Call'),
    h('span', 'right', 'Tokens'),
    h('span', 'right', 'Cost'),
    h('span', 'right', 'Latency'),
    axis,
  );
  // As tall as the rows still to come may make it, so the scroll bar (and the columns' width) is there from the start.
  const unread = view.head.spans - view.spans.length;
  const body = styled(h('div', null), { position: 'relative', height: `${(rows.length + unread) * ROW_HEIGHT}px` });
  rows.forEach((row, i) => body.append(treeRow(row, i * ROW_HEIGHT, row.node.span.id === selected, tree.start, span)));
  const treeView = h('div', 'trace-tree', head, h('div', 'tt-scroll', body));

  const page = h(
    'div',
    'page trace-page',
    header,
    h('div', 'trace-layout', h('div', 'trace-left', tools, treeView), h('aside', 'call-detail')),
  );
  const brand = h('a', 'brand', h('img', null), h('span', null, 'Weft'));
  brand.setAttribute('href', '/');
  const logo = brand.firstChild as HTMLImageElement;
  logo.src = '/favicon.svg';
  logo.alt = '';
  logo.width = logo.height = 20;
  return h(
    'div',
    'app',
    h('header', 'topbar', h('button', 'button ghost menu-button', '☰ Menu'), brand, h('div', 'spacer')),
    h('div', 'app-body', h('nav', 'sidenav'), h('main', 'main', page)),
  );
}

/** One row, as TraceTree.tsx's TreeRow draws it. */
function treeRow({ node, expanded }: VisibleRow, top: number, selected: boolean, traceStart: number, span: number): HTMLElement {
  const call = node.span;
  const { status, rollup } = call;
  const latency = call.latency_ms;
  const left = ((node.start - traceStart) / span) * 100;
  const width = latency === null ? 100 - left : Math.max((latency / span) * 100, 0.4);
  const parent = hasChildren(node);
  const errorsBelow = rollup.errors - (call.error ? 1 : 0);
  const name = styled(
    h(
      'span',
      'tt-name',
      h('span', 'tt-toggle', parent ? (expanded ? '▾' : '▸') : ''),
      status !== 'success' && h('span', `status status-${status}`, h('span', 'status-dot'), STATUS_LABELS[status] ?? status),
      h('span', 'tt-label', callName(call)),
      parent && !expanded && h('span', 'muted small', `(+${formatInteger(rollup.descendants)})`),
      !expanded && errorsBelow > 0 && h('span', 'tt-subtree-errors small', `${plural(errorsBelow, 'error')} below`),
    ),
    { paddingLeft: `${node.depth * 14}px` },
  );
  const bar = styled(h('span', `tt-bar status-${status}${latency === null ? ' running' : ''}`), { left: `${left}%`, width: `${width}%` });
  return styled(
    h(
      'div',
      `tt-row${selected ? ' selected' : ''}`,
      name,
      h('span', 'right num muted', call.tokens !== null ? formatCompact(call.tokens) : ''),
      h('span', 'right num muted', call.cost !== null ? formatCost(call.cost) : ''),
      h('span', 'right num', latency !== null ? formatDuration(latency) : '…'),
      h('span', 'tt-bar-track', bar),
    ),
    { transform: `translateY(${top}px)`, height: `${ROW_HEIGHT}px` },
  );
}

/** The header's usage button label, as TraceUsageSummary.tsx writes it; null without usage. */
function usageLabel(head: TraceOutlineHead): string | null {
  if (head.models.length === 0) return null;
  let tokens = 0;
  let cost: number | null = null;
  for (const m of head.models) {
    tokens += m.total_tokens;
    if (m.cost !== null) cost = (cost ?? 0) + m.cost;
  }
  return `${formatCompact(tokens)} tokens${cost !== null ? ` · ${formatCost(cost)}` : ''}`;
}

/** Lays the page over the app's root, unless the app has shown its own page meanwhile; true once it is there. */
async function paint(view: EarlyOutlineView, where: Parameters<typeof earlyPage>[1]): Promise<boolean> {
  if (!document.body) await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  if (earlyPaintDone() || document.getElementById(EARLY_PAINT_ID)) return false;
  const cover = styled(h('div', null, earlyPage(view, where)), {
    position: 'fixed',
    inset: '0',
    zIndex: '1000',
    background: 'var(--bg)',
  });
  cover.id = EARLY_PAINT_ID;
  // A picture of the page: not read out twice, and clicks go to the app beneath.
  cover.setAttribute('aria-hidden', 'true');
  cover.inert = true;
  document.body.append(cover);
  return true;
}

start();
