/**
 * Single sign-on in Chromium against a real OpenID Connect provider (oidc-provider on 127.0.0.1,
 * src/server/testing/oidcIdp.ts) and Weft servers configured for it: the button signs a new
 * person in with their mapped role; a tampered state, and ID tokens for another audience, with a
 * wrong nonce or expired, are refused with a page that says so and offers to try again; with
 * WEFT_OIDC_ONLY the password form waits behind "Administrator sign-in", refuses other users and
 * lets the break-glass admin in.
 */
import { test, expect, type Page } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../src/server/testing/oidcIdp.js';
import { E2E_ADMIN } from './fixtures/credentials.js';
import { startWeft, type WeftProcess } from './fixtures/weftServer.js';

let idp: TestIdp;
let weft: WeftProcess;
let weftOnly: WeftProcess;

test.beforeAll(async () => {
  idp = await startTestIdp({
    accounts: {
      'sub-dana': { preferred_username: 'dana', email: 'dana@acme.test', email_verified: true, groups: ['acme-dev'] },
    },
  });
  const env = {
    WEFT_OIDC_ISSUER: idp.issuer,
    WEFT_OIDC_CLIENT_ID: idp.clientId,
    WEFT_OIDC_CLIENT_SECRET: idp.clientSecret,
    WEFT_OIDC_NAME: 'Acme ID',
    WEFT_OIDC_SCOPES: 'openid email profile groups',
    WEFT_OIDC_ROLES_CLAIM: 'groups',
    WEFT_OIDC_ROLE_MAP: 'acme-dev=acme:member',
  };
  [weft, weftOnly] = await Promise.all([startWeft({ env }), startWeft({ env: { ...env, WEFT_OIDC_ONLY: '1' } })]);
  idp.redirectUris = [`${weft.url}/weft/oidc/callback`, `${weftOnly.url}/weft/oidc/callback`];
});

test.afterAll(async () => {
  await Promise.all([weft?.stop(), weftOnly?.stop()]);
  await idp?.close();
});

/** From Weft's login page through the provider's sign-in and consent pages. */
async function signInWithIdp(page: Page, base: string, login: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a first sign-in through the provider creates the user with the mapped role', async ({ page }) => {
  await signInWithIdp(page, weft.url, 'sub-dana');
  await expect(page).toHaveURL(`${weft.url}/`);
  const me = await page.evaluate(async () => (await fetch('/weft/whoami')).json());
  expect(me).toMatchObject({ username: 'dana', auth: 'session', roles: { acme: 'member' } });
  // A real dashboard session: a reload keeps it.
  await page.reload();
  await expect(page).not.toHaveURL(/\/login/);
});

test('a tampered state is refused with a page that says so', async ({ page }) => {
  // The provider's redirect back carries another state, as a forged link would.
  idp.tamperNextRedirect((url) => {
    url.searchParams.set('state', 'forged-state');
    return url;
  });
  const refused = page.waitForResponse((res) => res.url().startsWith(`${weft.url}/weft/oidc/callback`));
  await signInWithIdp(page, weft.url, 'sub-dana');
  expect((await refused).status()).toBe(400);
  await expect(page.getByRole('heading', { name: 'The sign-in answer does not match this browser' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('could be a forged or replayed link');
  // Not signed in, and "Try again" goes back to the login page.
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: 'Sign in with Acme ID' })).toBeVisible();
  expect((await page.request.get(`${weft.url}/weft/whoami`)).status()).toBe(401);
});

const BAD_TOKENS = [
  ['for another audience', (c: Record<string, unknown>) => ({ ...c, aud: 'some-other-client' }), '"aud" (audience)'],
  ['with a wrong nonce', (c: Record<string, unknown>) => ({ ...c, nonce: 'not-the-nonce' }), '"nonce"'],
  [
    'that has expired',
    (c: Record<string, unknown>) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }),
    '"exp" (expiration time)',
  ],
] as const;

for (const [what, change, named] of BAD_TOKENS) {
  test(`an ID token ${what}, signed by the provider, is refused with a page`, async ({ page }) => {
    idp.tamperNextIdToken(change);
    const refused = page.waitForResponse((res) => res.url().startsWith(`${weft.url}/weft/oidc/callback`));
    await signInWithIdp(page, weft.url, 'sub-dana');
    expect((await refused).status()).toBe(401);
    await expect(page.getByRole('heading', { name: 'The identity token was refused' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(named);
    await expect(page.getByRole('link', { name: 'Try again' })).toBeVisible();
    expect((await page.request.get(`${weft.url}/weft/whoami`)).status()).toBe(401);
  });
}

test('with single sign-on only, the password form is for the break-glass admin', async ({ page }) => {
  await page.goto(`${weftOnly.url}/login`);
  await expect(page.getByRole('link', { name: 'Sign in with Acme ID' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveCount(0);
  await page.getByRole('button', { name: 'Administrator sign-in' }).click();

  // dana exists only through single sign-on; any password user but the break-glass one is refused the same way.
  await page.getByLabel('Username').fill('dana');
  await page.getByLabel('Password or API key').fill('whatever-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Password sign-in is off on this server: use "Sign in with Acme ID"');

  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password or API key').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
  expect(await page.evaluate(async () => (await (await fetch('/weft/whoami')).json()).username)).toBe('admin');
});
