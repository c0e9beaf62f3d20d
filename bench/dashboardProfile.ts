/**
 * Where a page's first-rows time goes (`BENCH_DASHBOARD=profile npm run bench:dashboard`, on the
 * part-4 project of dashboardPages.ts): for each page, warm (its second visit in one browser
 * context), every request it sends before its first rows show, with when it started and ended
 * after navigation and its wait for the first byte (Playwright's resource timing), and the
 * critical one (the last API answer before the rows); then each API request replayed alone
 * from Node, serially, as the server's own time for it (median of 3); and the client's share:
 * from the last API answer to the rows on screen, and the renderer main thread's busy time until
 * then (Chromium's Performance metrics: CPU, so less at the mercy of the machine's load).
 */
import type { Browser, Page, Request } from '@playwright/test';
import { pageList, type PagesSeed } from './dashboardPages.js';

interface Seen {
  method: string;
  path: string;
  body: string | null;
  start: number;
  firstByte: number;
  end: number;
  bytes: number;
  /** fetch() from the page (the API), not a document, script or style. */
  api: boolean;
}

/** One warm visit: the requests it sent and when the page showed its first rows (ms from navigation). */
async function visit(page: Page, url: string, path: string, ready: (page: Page) => Promise<unknown>) {
  const seen: Seen[] = [];
  const started = Date.now();
  const record = async (req: Request) => {
    const t = req.timing();
    const res = await req.response();
    const body = await res?.body().catch(() => null);
    const at = t.startTime - started;
    seen.push({
      method: req.method(),
      path: new URL(req.url()).pathname + new URL(req.url()).search,
      body: req.postData(),
      start: Math.round(at),
      firstByte: Math.round(at + t.responseStart),
      end: Math.round(at + t.responseEnd),
      bytes: body?.length ?? 0,
      api: req.resourceType() === 'fetch' || req.resourceType() === 'xhr',
    });
  };
  const pending: Promise<void>[] = [];
  const onFinished = (req: Request) => void pending.push(record(req));
  page.on('requestfinished', onFinished);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value * 1000] as const));
  const m0 = await metrics();
  await page.goto(url + path);
  await ready(page);
  const readyAt = Date.now() - started;
  const m1 = await metrics();
  // The renderer's main-thread time (cumulative counters; a navigation that swapped renderers restarts them).
  const cpu = (name: string) => Math.round((m1.get(name) ?? 0) - ((m1.get(name) ?? 0) >= (m0.get(name) ?? 0) ? (m0.get(name) ?? 0) : 0));
  const main = { task: cpu('TaskDuration'), script: cpu('ScriptDuration'), layout: cpu('LayoutDuration') + cpu('RecalcStyleDuration') };
  page.off('requestfinished', onFinished);
  await Promise.all(pending);
  return { seen: seen.sort((a, b) => a.start - b.start), readyAt, main };
}

/** The server's time for one request alone: median of 3 serial replays from Node. */
async function replay(url: string, cookie: string, r: Seen): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const res = await fetch(url + r.path, {
      method: r.method,
      headers: { cookie, 'content-type': 'application/json', origin: url },
      body: r.body ?? undefined,
    });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return Math.round(times.sort((a, b) => a - b)[1]!);
}

const describeBody = (body: string | null) => {
  if (!body) return '';
  const short = body.replace(/"(project_id|entity|project)":"[^"]*",?/g, '');
  return short.length > 110 ? `${short.slice(0, 107)}...` : short;
};

export async function profilePages(
  browser: Browser,
  url: string,
  signedInPage: (browser: Browser, url: string) => Promise<Page>,
  seed: PagesSeed,
): Promise<void> {
  for (const view of pageList(seed)) {
    const page = await signedInPage(browser, url);
    await visit(page, url, view.path, view.ready);
    const { seen, readyAt, main } = await visit(page, url, `${view.path}${view.path.includes('?') ? '&' : '?'}r=warm`, view.ready);
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    await page.context().close();
    // Requests of the first visit that finished during this one are not this visit's.
    const before = seen.filter((r) => r.start >= 0 && r.end <= readyAt);
    const api = before.filter((r) => r.api);
    const critical = api.reduce<Seen | null>((a, r) => (!a || r.end > a.end ? r : a), null);
    console.log(`\n${view.name}: first rows at ${readyAt} ms (warm); ${before.length} requests before it, ${api.length} API`);
    console.log('    start  1st byte   end   server alone   bytes  request');
    for (const r of before) {
      const alone = r.api ? `${String(await replay(url, cookie, r)).padStart(6)} ms` : '         ';
      console.log(
        `  ${String(r.start).padStart(6)} ${String(r.firstByte).padStart(8)} ${String(r.end).padStart(6)}   ${alone}   ${String(r.bytes).padStart(7)}  ` +
          `${r === critical ? '*' : ' '}${r.method} ${r.path} ${describeBody(r.body)}`,
      );
    }
    if (critical) console.log(`  client: ${readyAt - critical.end} ms from the last API answer (*) to the rows on screen`);
    console.log(
      `  renderer main thread until the rows: ${main.task} ms busy, ${main.script} ms of it script, ${main.layout} ms style and layout`,
    );
  }
}
