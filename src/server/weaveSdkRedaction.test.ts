/**
 * Redaction (docs/security/redaction.md) with the official `weave` npm SDK as the client: an op
 * traced with an OpenAI-style request carrying an email, a card number and an Authorization
 * header is stored with markers in their place (read back through the API); a 16-digit number
 * that fails the Luhn check is left alone. How the SDK is driven: weaveSdk.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as weave from 'weave';
import type { CallSchema } from '../contract/calls.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from './testing/testServer.js';
import { initWeaveSdk, waitForSdkBatches, type SdkClient } from './testing/weaveSdk.js';

const PROJECT = 'alice-co/sdk-redaction';
let t: TestServer;
let sdk: SdkClient;
let stopSdk: (() => void) | undefined;
const seen: { path: string; status: number }[] = [];

beforeAll(async () => {
  t = await startTestServer();
  const admin = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
  for (const rule of [{ pattern: 'email' }, { pattern: 'credit_card' }, { key: 'authorization' }]) {
    const res = await t.fetch('/weft/redaction', {
      method: 'POST',
      headers: { authorization: admin },
      body: JSON.stringify({ project_id: PROJECT, ...rule }),
    });
    expect(res.status).toBe(200);
  }
  ({ sdk, stop: stopSdk } = await initWeaveSdk({
    server: t,
    project: PROJECT,
    onExchange: ({ url, res }) => seen.push({ path: url.pathname, status: res.status }),
  }));
});

afterAll(async () => {
  stopSdk?.();
  await t?.close();
});

describe('weave npm SDK with redaction rules', () => {
  it('stores markers in place of the email, the card and the Authorization header', async () => {
    const chat = weave.op(async function chatCompletion(request: Record<string, unknown>) {
      return {
        id: 'chatcmpl-1',
        choices: [{ message: { role: 'assistant', content: `Receipt sent to ${(request.user as string) ?? ''}` } }],
      };
    });
    await chat({
      model: 'gpt-4o-mini',
      user: 'jane.doe@example.com',
      messages: [{ role: 'user', content: 'Refund card 4111 1111 1111 1111 for order 1234 5678 9012 3456, mail jane.doe@example.com' }],
      headers: { Authorization: 'Bearer sk-proj-Abc123Def456Ghi789Jkl012' },
    });
    await waitForSdkBatches(sdk, () => JSON.stringify(seen));
    expect(seen.filter((r) => r.path === '/call/upsert_batch' && r.status !== 200)).toEqual([]);

    const calls: CallSchema[] = [];
    for await (const c of t.alice.client.callsStreamQuery({ project_id: PROJECT })) calls.push(c);
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    const text = JSON.stringify(call);
    expect(text).not.toMatch(/jane\.doe|4111 1111|sk-proj/);
    // The SDK names a lone object argument by position; it is the only input either way.
    const request = Object.values(call.inputs as Record<string, any>)[0];
    expect(request.messages[0].content).toBe('Refund card [redacted:credit_card] for order 1234 5678 9012 3456, mail [redacted:email]');
    expect(request.headers).toEqual({ Authorization: '[redacted:key:authorization]' });
    expect(request.user).toBe('[redacted:email]');
    expect((call.output as any).choices[0].message.content).toBe('Receipt sent to [redacted:email]');
  });
});
