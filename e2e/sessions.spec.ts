/**
 * Dashboard sessions in a real browser: signing in leaves only an HttpOnly cookie (no password
 * in web storage), links opened in new tabs are signed in, logout signs out every tab, Settings
 * lists sessions and ends another one, and a cross-origin form post riding the cookie is refused.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { seedAgentTraces } from './fixtures/seed.js';
import { expect, test } from './fixtures/test.js';

/** A fresh user, so their sessions are the only ones listed. */
async function newUser(api: Parameters<Parameters<typeof test>[2]>[0]['api'], entity: string) {
  const username = `s-${randomUUID().slice(0, 8)}`;
  const password = `pw-${randomUUID()}`;
  await api.userCreate({ username, password, entities: [entity], is_admin: false });
  return { username, password };
}

async function signInWithForm(page: Page, user: { username: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password or API key').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

test('signing in creates an HttpOnly cookie session and keeps no password in web storage', async ({ page, api, project, context }) => {
  const user = await newUser(api, project.split('/')[0]!);
  await signInWithForm(page, user);

  const storage = await page.evaluate(() => {
    const dump = (s: Storage) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`).join('\n');
    return { session: dump(sessionStorage), local: dump(localStorage), cookie: document.cookie };
  });
  for (const text of Object.values(storage)) {
    expect(text).not.toContain(user.password);
    expect(text).not.toContain('weft.credentials');
  }
  expect(storage.cookie).not.toContain('weft_session'); // HttpOnly: no script sees it

  const cookies = (await context.cookies()).filter((c) => c.name === 'weft_session');
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  expect(cookies[0]!.expires).toBeGreaterThan(Date.now() / 1000);
});

test('a link opened in a new tab is signed in', async ({ signedInPage: page, api, project, context }) => {
  await seedAgentTraces(api, { projectId: project, count: 2, failEvery: 0 });
  await page.goto(`/${project}/calls`);
  const link = page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: 'research_agent' }).first();
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click({ modifiers: ['Control'] })]);
  await tab.waitForLoadState();
  await expect(tab).not.toHaveURL(/\/login/);
  await expect(tab.getByRole('tree', { name: 'Call tree' })).toBeVisible();

  // A shared link pasted into a fresh tab of the same browser is signed in too.
  const pasted = await context.newPage();
  await pasted.goto(tab.url());
  await expect(pasted.getByRole('tree', { name: 'Call tree' })).toBeVisible();
});

test('logging out in one tab signs out every tab', async ({ signedInPage: page, project, context, baseURL }) => {
  await page.goto('/');
  const other = await context.newPage();
  await other.goto('/settings');
  await expect(other.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const token = (await context.cookies()).find((c) => c.name === 'weft_session')!.value;

  await page.getByRole('button', { name: 'Account admin' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
  // The other tab hears of it at once, and the session is over on the server too.
  await expect(other).toHaveURL(/\/login\?next=%2Fsettings/);
  await other.reload();
  await expect(other).toHaveURL(/\/login/);
  const res = await fetch(`${baseURL}/weft/whoami`, { headers: { cookie: `weft_session=${token}` } });
  expect(res.status).toBe(401);
  void project;
});

test('Settings lists your sessions and ends another one', async ({ page, api, project, browser }) => {
  test.slow(); // two browsers each sign in with a password (an OWASP-strength hash apiece)
  const user = await newUser(api, project.split('/')[0]!);
  const phone = await otherBrowser(
    browser,
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile/15E148 Safari/604.1',
  );
  await signInWithForm(phone, user);
  await signInWithForm(page, user);

  await page.goto('/settings');
  const table = page.getByRole('table', { name: 'Your sessions' });
  await expect(table.getByRole('row')).toHaveCount(3); // header + 2
  const mine = table.getByRole('row').filter({ hasText: 'this session' });
  await expect(mine).toContainText('Chrome on Linux');
  await expect(mine).toContainText('127.0.0.1');
  await expect(mine.getByRole('button', { name: /End session/ })).toHaveCount(0);
  const theirs = table.getByRole('row').filter({ hasText: 'Safari on iOS' });
  await theirs.getByRole('button', { name: /End session/ }).click();
  await theirs.getByRole('button', { name: 'End session', exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(2);

  await phone.reload();
  await expect(phone).toHaveURL(/\/login/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await phone.context().close();
});

test('a cross-origin form post riding the session cookie is refused and writes nothing', async ({
  signedInPage: page,
  api,
  project,
  baseURL,
}) => {
  // Another origin on the same host (another port): the browser sends the cookie (same site),
  // so only the server's same-origin check stands between the form and a write.
  const target = new URL(baseURL!);
  const callId = randomUUID();
  const body = JSON.stringify({
    start: { project_id: project, id: callId, op_name: 'csrf', started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} },
  });
  const [name, value] = [body.slice(0, -1) + ', "x": "', '"}'];
  const evil = await serve(`<!doctype html><form method="post" enctype="text/plain" action="${target.origin}/call/start">
    <input type="hidden" name='${name.replace(/'/g, '&#39;')}' value='${value}'><button>Win a prize</button></form>`);
  try {
    await page.goto(evil.url);
    await page.getByRole('button', { name: 'Win a prize' }).click();
    await expect(page.locator('body')).toContainText('Cross-site request refused');
  } finally {
    evil.server.close();
  }
  expect((await api.callsQueryStats({ project_id: project })).count).toBe(0);
});

test('the dashboard runs under its Content-Security-Policy with no violation', async ({ signedInPage: page, api, project }) => {
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { cspViolations: string[] }).cspViolations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  await seedAgentTraces(api, { projectId: project, count: 2, failEvery: 0 });
  const response = await page.goto(`/${project}/calls`);
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toContain("frame-ancestors 'none'");
  // index.html's inline boot script by its hash (scripts/inlineBootPlugin.ts), nothing else inline.
  expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')?(;|$)/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(response!.headers()['x-content-type-options']).toBe('nosniff');
  expect(response!.headers()['referrer-policy']).toBe('same-origin');

  // The calls table, a trace (tree, waterfall, charts of the call panel) and settings all render.
  await page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: 'research_agent' }).first().click();
  await expect(page.getByRole('tree', { name: 'Call tree' })).toBeVisible();
  await page.goto(`/${project}/dashboards`);
  await expect(page.getByRole('heading', { name: 'Dashboards' })).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByRole('table', { name: 'Your sessions' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});

/** A second, separate browser (its own cookies) with the given user agent. */
async function otherBrowser(browser: Browser, userAgent: string): Promise<Page> {
  const context = await browser.newContext({ userAgent, baseURL: process.env.WEFT_E2E_URL });
  return context.newPage();
}

/** Serves one HTML page on a free loopback port: a page of another origin. */
async function serve(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
