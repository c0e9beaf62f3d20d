/**
 * A trace page's HTML carries the first screen of its outline for the signed-in user who may read
 * it, and nothing for anyone else (traceFirstScreen.ts), over real HTTP with a real session.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TRACE_FIRST_SCREEN_ID, TRACE_FIRST_SCREEN_SPANS } from '../../contract/traceFirstScreen.js';
import type { TraceOutlineLine } from '../../contract/traceOutline.js';
import { useTestServer } from '../testing/serverSuite.js';
import type { TestServer, TestUser } from '../testing/testServer.js';

const META = '<meta name="weft-early-trace" content="/assets/earlyTrace-T3st.js" />';
const INDEX = `<!doctype html><html><head>${META}<title>Weft</title></head><body><div id="root"></div></body></html>`;
const EARLY_CODE = 'document.documentElement.dataset.early = "1";';
const HOSTILE = '</script><script>window.__pwned=1</script><!--';

const dist = mkdtempSync(join(tmpdir(), 'weft-first-screen-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), INDEX);
writeFileSync(join(dist, 'assets', 'earlyTrace-T3st.js'), EARLY_CODE);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

async function signIn(t: TestServer, user: TestUser): Promise<string> {
  const res = await fetch(`${t.url}/weft/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  expect(res.status).toBe(200);
  return /weft_session=[^;]*/.exec(res.headers.getSetCookie()[0] ?? '')![0];
}

/** A trace of a root and `children` calls under it, the first child named HOSTILE. */
async function seedTrace(t: TestServer, projectId: string, traceId: string, children: number): Promise<void> {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  const call = (id: string, parent: string | null, ms: number, display?: string) => ({
    mode: 'start' as const,
    req: {
      start: {
        project_id: projectId,
        id,
        trace_id: traceId,
        parent_id: parent,
        op_name: 'step',
        ...(display ? { display_name: display } : {}),
        started_at: at(ms),
        attributes: {},
        inputs: {},
      },
    },
  });
  const batch = [call(`${traceId}-root`, null, 0)];
  for (let i = 0; i < children; i++) batch.push(call(`${traceId}-${i}`, `${traceId}-root`, i + 1, i === 0 ? HOSTILE : undefined));
  const res = await t.fetch('/call/upsert_batch', { json: { batch } });
  expect(res.status).toBe(200);
}

async function page(t: TestServer, path: string, cookie?: string): Promise<Response> {
  return fetch(`${t.url}${path}`, { headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
}

/** The data block's lines, or null when the page has none. */
function block(html: string): TraceOutlineLine[] | null {
  const found = new RegExp(`<script type="application/json" id="${TRACE_FIRST_SCREEN_ID}">(.*?)</script>`, 's').exec(html);
  return found ? (JSON.parse(found[1]!) as TraceOutlineLine[]) : null;
}

function describeFirstScreen(name: string, env: Record<string, string>) {
  const threaded = Object.keys(env).length > 0;
  describe(name, () => {
    const t = useTestServer({ env, dashboardDir: dist });
    const project = 'alice-co/agents';

    it('puts the head and the first spans in the page of a user who may read the trace, never cached', async () => {
      const traceId = 'trace-small';
      await seedTrace(t, project, traceId, 3);
      const res = await page(t, `/${project}/traces/${traceId}`, await signIn(t, t.alice));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      const lines = block(html)!;
      expect(lines[0]).toMatchObject({ head: { trace_id: traceId, spans: 4 } });
      expect(lines.slice(1).map((l) => ('id' in l ? l.id : null))).toEqual([
        `${traceId}-root`,
        `${traceId}-0`,
        `${traceId}-1`,
        `${traceId}-2`,
      ]);
      // A name that would close the block reads back as written: the page has the block and the early script.
      expect(lines.slice(1).map((l) => ('display_name' in l ? l.display_name : null))).toContain(HOSTILE);
      expect(html.match(/<script/g)).toHaveLength(2);
      expect(html).not.toContain('<!--');
      // The block first in the head (boot.js reads it); the early script inline at the end of the
      // body, allowed by its hash, and no longer loaded by name.
      expect(html.indexOf(TRACE_FIRST_SCREEN_ID)).toBeLessThan(html.indexOf('<title>'));
      const inline = `<script type="module" async>${EARLY_CODE}</script>`;
      expect(html.replace(/<script type="application\/json".*?<\/script>/s, '')).toBe(
        INDEX.replace(META, '').replace('</body>', `${inline}</body>`),
      );
      expect(res.headers.get('content-security-policy')).toContain(`'sha256-${createHash('sha256').update(EARLY_CODE).digest('base64')}'`);
    });

    it('puts only the first screen of a big trace in the page', async () => {
      const traceId = 'trace-big';
      await seedTrace(t, project, traceId, 150);
      const lines = block(await (await page(t, `/${project}/traces/${traceId}`, await signIn(t, t.alice))).text())!;
      expect(lines).toHaveLength(1 + TRACE_FIRST_SCREEN_SPANS);
      expect(lines[0]).toMatchObject({ head: { spans: 151 } });
    });

    it('puts nothing in the page without a session, without access to the project, or for a search', async () => {
      const traceId = 'trace-private';
      await seedTrace(t, project, traceId, 1);
      const path = `/${project}/traces/${traceId}`;
      const bob = await signIn(t, t.bob);
      const alice = await signIn(t, t.alice);
      for (const [why, res] of [
        ['signed out', await page(t, path)],
        ['another entity', await page(t, path, bob)],
        ['a search', await page(t, `${path}?q=step`, alice)],
        ['a forged session', await page(t, path, 'weft_session=not-a-session-token-of-this-server-at-all-xx')],
      ] as const) {
        expect(res.status, why).toBe(200);
        expect(res.headers.get('cache-control'), why).toBe('no-cache');
        expect(await res.text(), why).toBe(INDEX);
        expect(res.headers.get('content-security-policy'), why).not.toContain('sha256');
      }
    });

    if (threaded)
      it('serves the page as built at once while the read thread is busy', async () => {
        const traceId = 'trace-busy';
        await seedTrace(t, project, traceId, 1);
        // ~6 MB of rows, more than the thread sends ahead: unread, they hold the only read thread.
        const filler = 'x'.repeat(2000);
        const batch = Array.from({ length: 3000 }, (_, i) => ({
          mode: 'start',
          req: {
            start: {
              project_id: project,
              id: `big-${i}`,
              op_name: 'op',
              started_at: '2026-01-01T00:00:00Z',
              attributes: {},
              inputs: { filler },
            },
          },
        }));
        expect((await t.fetch('/call/upsert_batch', { json: { batch } })).status).toBe(200);
        const held = await t.fetch('/calls/stream_query', { json: { project_id: project } });
        const reader = held.body!.getReader();
        expect((await reader.read()).done).toBe(false);
        const res = await page(t, `/${project}/traces/${traceId}`, await signIn(t, t.alice));
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(INDEX);
        await reader.cancel();
        // The thread free again, the page carries its first screen.
        const again = await page(t, `/${project}/traces/${traceId}`, await signIn(t, t.alice));
        expect(block(await again.text())).not.toBeNull();
      });
  });
}

describeFirstScreen('a trace page served in one thread', {});
describeFirstScreen('a trace page with request threads (the outline read in a read thread)', {
  WEFT_READ_THREADS: '1',
  WEFT_WRITE_THREADS: '1',
});
