/**
 * The first screen of a trace page's outline, put into the page itself (docs/trace-outline.md
 * "In the page"): on a cold load the outline's own request waited ~400 ms behind the page's code,
 * while the page's HTML, asked for first, meets an idle server. The outline is read through the
 * app's own `/weft/trace/outline_stream` route with the page request's cookie, so the same
 * sign-in, project access and role checks decide, and any answer but 200 adds nothing.
 */
import type { Context, Hono } from 'hono';
import { endpoints } from '../../contract/endpoints.js';
import { TRACE_FIRST_SCREEN_ID, TRACE_FIRST_SCREEN_SPANS, TRACE_PAGE_PATH } from '../../contract/traceFirstScreen.js';
import { readSessionCookie } from '../auth/sessions.js';
import { requestEnv, type RequestEnv } from '../http/requestEnv.js';

/** How long the page waits for its first screen; past it the page goes without and the stream paints. */
const FIRST_SCREEN_WAIT_MS = 300;

/** Whether the page at `url` is a trace page, not a search (it shows other rows), asked for with a session cookie. */
export function mayCarryFirstScreen(c: Context, url: URL): boolean {
  return TRACE_PAGE_PATH.test(url.pathname) && !url.searchParams.has('q') && readSessionCookie(c.req.header('cookie')) !== null;
}

/**
 * The `<script type="application/json">` block holding the outline's head and first spans for
 * the trace page at `url`, or null: not such a page (mayCarryFirstScreen), no access, or not in
 * within FIRST_SCREEN_WAIT_MS.
 */
export async function traceFirstScreen(app: Hono, c: Context, url: URL): Promise<string | null> {
  const path = TRACE_PAGE_PATH.exec(url.pathname);
  if (!path || !mayCarryFirstScreen(c, url)) return null;
  let ids: { project_id: string; trace_id: string };
  try {
    ids = { project_id: `${decodeURIComponent(path[1]!)}/${decodeURIComponent(path[2]!)}`, trace_id: decodeURIComponent(path[3]!) };
  } catch {
    return null;
  }
  const body = JSON.stringify(ids);
  const request = new Request(new URL(endpoints.traceOutlineStream.path, url), {
    method: 'POST',
    // The page's own request: the same session, and same-origin as its scripts' would be.
    headers: { cookie: c.req.header('cookie')!, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body,
  });
  // Not the page's Node request (its headers and body would be read instead): its client
  // address, its store (a request thread's) and this body.
  const { incoming, peerAddress, store } = requestEnv(c);
  const env: RequestEnv = {
    peerAddress: peerAddress ?? incoming?.socket.remoteAddress,
    bodyBytes: new TextEncoder().encode(body),
    ...(store ? { store } : {}),
  };
  const lines = firstLines(app.fetch(request, env), TRACE_FIRST_SCREEN_SPANS + 1).catch(() => null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, FIRST_SCREEN_WAIT_MS, null)));
  const found = await Promise.race([lines, late]).finally(() => clearTimeout(timer));
  return found && found.length > 1 ? dataBlock(found) : null;
}

/** Up to `max` lines of a 200 answer's body, then stops reading it; null for any other answer. */
async function firstLines(answer: Response | Promise<Response>, max: number): Promise<string[] | null> {
  const res = await answer;
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return null;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const lines: string[] = [];
  let rest = '';
  try {
    while (lines.length < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const parts = (rest + value).split('\n');
      rest = parts.pop()!;
      for (const line of parts) if (line.trim() && lines.length < max) lines.push(line);
    }
    if (rest.trim() && lines.length < max) lines.push(rest);
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return lines;
}

/**
 * The lines as one JSON array in a data block. Each line is JSON, so `<` only occurs inside its
 * strings, where `\u003c` reads the same: no `</script>` or `<!--` in a span name can end the block.
 */
function dataBlock(lines: string[]): string {
  return `<script type="application/json" id="${TRACE_FIRST_SCREEN_ID}">[${lines.join(',').replace(/</g, '\\u003c')}]</script>`;
}
