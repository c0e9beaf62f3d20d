/**
 * Server-side redaction over HTTP (docs/security/redaction.md): rules managed through
 * /weft/redaction, applied at ingest to calls (v1, batch, v2 complete), OTLP spans, feedback
 * and table rows, read back through the API holding markers instead of the secrets.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectNames, sendAsAlice } from '../testing/serverSuite.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const project = projectNames('alice-co/redact');
const ADMIN = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
const alice = (path: string, init: { method?: string; json?: unknown } = {}) => sendAsAlice(t)(path, init);
async function admin(path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await t.fetch(path, {
    method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
    headers: { authorization: ADMIN },
    body: init.json === undefined ? null : JSON.stringify(init.json),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}
async function addRule(rule: Record<string, unknown>) {
  const res = await admin('/weft/redaction', { json: rule });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.rule as { id: string; marker: string; source: string };
}
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** What an OpenAI-style chat call carries: an email and a card in the prompt, a key in a header. */
const EMAIL = 'jane.doe@example.com';
const CARD = '4111 1111 1111 1111';
const NOT_A_CARD = '1234 5678 9012 3456'; // 16 digits, fails the Luhn check
const KEY = 'sk-proj-Abc123Def456Ghi789Jkl012';
const chatInputs = () => ({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a billing assistant.' },
    { role: 'user', content: `My email is ${EMAIL}, card ${CARD}, order ${NOT_A_CARD}. Why was I charged twice?` },
  ],
  headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
  temperature: 0.2,
});

/** Rules a project typically wants: the three built-ins and the authorization key. */
async function standardRules(p: string) {
  for (const pattern of ['email', 'credit_card']) await addRule({ project_id: p, pattern });
  await addRule({ project_id: p, key: 'Authorization' });
}

async function startAndEnd(p: string, inputs: unknown, output: unknown, exception: string | null = null) {
  const id = hex(8);
  const start = await alice('/call/start', {
    json: {
      start: {
        project_id: p,
        id,
        trace_id: hex(16),
        op_name: 'openai.chat.completions.create',
        started_at: new Date().toISOString(),
        attributes: { user_email: EMAIL },
        inputs,
      },
    },
  });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const end = await alice('/call/end', {
    json: { end: { project_id: p, id, ended_at: new Date().toISOString(), output, summary: {}, exception } },
  });
  expect(end.status, JSON.stringify(end.body)).toBe(200);
  return id;
}
const readCall = async (p: string, id: string) => (await alice('/call/read', { json: { project_id: p, id } })).body.call;

describe('/weft/redaction', () => {
  it('adds, lists (with where each rule comes from) and removes rules; members may read but not change them', async () => {
    const p = project();
    const entityRule = await addRule({ entity: 'alice-co', key: `secret_${hex(3)}` });
    const projectRule = await addRule({ project_id: p, pattern: 'api_key' });
    expect(projectRule.marker).toBe('[redacted:api_key]');
    const listed = await alice(`/weft/redaction?project_id=${encodeURIComponent(p)}`);
    expect(listed.status).toBe(200);
    const mine = listed.body.rules.filter((r: { id: string }) => [entityRule.id, projectRule.id].includes(r.id));
    expect(mine.map((r: { source: string }) => r.source)).toEqual(['entity', 'project']);

    const denied = await alice('/weft/redaction', { json: { project_id: p, key: 'password' } });
    expect(denied.status).toBe(403);
    expect(denied.body.reason).toMatch(/admin/);
    expect((await alice(`/weft/redaction/${projectRule.id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await admin(`/weft/redaction?project_id=${encodeURIComponent('bob-co/x')}`)).status).toBe(200);
    expect((await alice(`/weft/redaction?entity=bob-co`)).status).toBe(403);

    expect(await admin(`/weft/redaction/${projectRule.id}`, { method: 'DELETE' })).toEqual({ status: 200, body: { deleted: true } });
    expect((await admin(`/weft/redaction/${projectRule.id}`, { method: 'DELETE' })).status).toBe(404);
    await admin(`/weft/redaction/${entityRule.id}`, { method: 'DELETE' });
  });

  it('refuses a catastrophic pattern with 422 saying why, and takes a bounded one', async () => {
    const p = project();
    for (const [pattern, why] of [
      ['(a+)+$', /repeats a group that itself repeats/],
      ['(a|aa)+b', /did not finish/],
      ['(\\w+)\\1', /back-reference/],
      ['x*', /empty string/],
      ['[unclosed', /not a valid/],
    ] as const) {
      const res = await admin('/weft/redaction', { json: { project_id: p, pattern } });
      expect(res.status, pattern).toBe(422);
      expect(JSON.stringify(res.body), pattern).toMatch(why);
    }
    const ok = await addRule({ project_id: p, pattern: 'ORD-[0-9]{6}', label: 'order' });
    expect(ok.marker).toBe('[redacted:regex:order]');
  });
});

describe('redaction at ingest', () => {
  it('stores markers, not the secrets, for a call started and ended through the API', async () => {
    const p = project();
    await standardRules(p);
    const id = await startAndEnd(
      p,
      chatInputs(),
      { choices: [{ message: { role: 'assistant', content: `I emailed ${EMAIL}.` } }] },
      `Card ${CARD} declined`,
    );
    const call = await readCall(p, id);
    const text = JSON.stringify(call);
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain(CARD);
    expect(text).not.toContain(KEY);
    expect(call.inputs.messages[1].content).toBe(
      `My email is [redacted:email], card [redacted:credit_card], order ${NOT_A_CARD}. Why was I charged twice?`,
    );
    expect(call.inputs.headers).toEqual({ Authorization: '[redacted:key:authorization]', 'Content-Type': 'application/json' });
    expect(call.attributes.user_email).toBe('[redacted:email]');
    expect(call.output.choices[0].message.content).toBe('I emailed [redacted:email].');
    expect(call.exception).toBe('Card [redacted:credit_card] declined');
    expect(call.inputs.temperature).toBe(0.2);
  });

  it('applies to upsert_batch and the v2 calls/complete path', async () => {
    const p = project();
    await standardRules(p);
    const [id1, id2] = [hex(8), hex(8)];
    const now = new Date().toISOString();
    const batch = await alice('/call/upsert_batch', {
      json: {
        batch: [
          {
            mode: 'start',
            req: {
              start: { project_id: p, id: id1, trace_id: hex(16), op_name: 'chat', started_at: now, attributes: {}, inputs: chatInputs() },
            },
          },
          { mode: 'end', req: { end: { project_id: p, id: id1, ended_at: now, output: EMAIL, summary: {} } } },
        ],
      },
    });
    expect(batch.status).toBe(200);
    const [entity, name] = p.split('/');
    const complete = await alice(`/v2/${entity}/${name}/calls/complete`, {
      json: {
        batch: [
          {
            project_id: p,
            id: id2,
            trace_id: hex(16),
            op_name: 'chat',
            started_at: now,
            ended_at: now,
            inputs: chatInputs(),
            output: { card: CARD },
          },
        ],
      },
    });
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    for (const id of [id1, id2]) {
      const text = JSON.stringify(await readCall(p, id));
      expect(text).not.toMatch(/jane\.doe|4111 1111|sk-proj/);
      expect(text).toContain('[redacted:key:authorization]');
    }
  });

  it('applies an entity rule and a project rule together', async () => {
    const p = project();
    const key = `token_${hex(3)}`;
    const entityRule = await addRule({ entity: 'alice-co', key });
    await addRule({ project_id: p, pattern: 'email' });
    const id = await startAndEnd(p, { [key.toUpperCase()]: 'abc', note: EMAIL }, null);
    expect((await readCall(p, id)).inputs).toEqual({ [key.toUpperCase()]: `[redacted:key:${key}]`, note: '[redacted:email]' });
    await admin(`/weft/redaction/${entityRule.id}`, { method: 'DELETE' });
  });

  it('applies a rule to new data only: calls stored before it keep what they had', async () => {
    const p = project();
    const before = await startAndEnd(p, { prompt: `mail ${EMAIL}` }, null);
    await addRule({ project_id: p, pattern: 'email' });
    const after = await startAndEnd(p, { prompt: `mail ${EMAIL}` }, null);
    expect((await readCall(p, before)).inputs.prompt).toBe(`mail ${EMAIL}`);
    expect((await readCall(p, after)).inputs.prompt).toBe('mail [redacted:email]');
  });

  it('redacts OTLP span attributes after they become call inputs, outputs and attributes', async () => {
    const p = project();
    await standardRules(p);
    await addRule({ project_id: p, pattern: 'api_key' });
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const res = await t.fetch('/otel/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/json', project_id: p },
      body: JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: hex(16),
                    spanId: hex(8),
                    name: 'chat gpt-4o-mini',
                    startTimeUnixNano: '1704067200000000000',
                    endTimeUnixNano: '1704067201000000000',
                    attributes: [
                      attr('gen_ai.system', 'openai'),
                      attr('gen_ai.prompt.0.role', 'user'),
                      attr('gen_ai.prompt.0.content', `Charge ${CARD}, mail ${EMAIL}, my key is ${KEY}`),
                      attr('gen_ai.completion.0.content', `Done, receipt sent to ${EMAIL}`),
                      attr('http.request.header.authorization', `Bearer ${KEY}`),
                    ],
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const calls = (await alice('/calls/query', { json: { project_id: p } })).body.calls;
    expect(calls).toHaveLength(1);
    const text = JSON.stringify(calls[0]);
    expect(text).not.toMatch(/jane\.doe|4111 1111|sk-proj/);
    expect(text).toContain('[redacted:credit_card]');
    expect(text).toContain('[redacted:email]');
    expect(text).toContain('my key is [redacted:api_key]');
    // The header's whole value, by the key rule, in the span dump kept beside the call.
    expect(text).toContain('"authorization":"[redacted:key:authorization]"');
  });

  it('redacts feedback payloads on create, batch create and replace', async () => {
    const p = project();
    await standardRules(p);
    const ref = `weave:///${p}/call/${hex(8)}`;
    const made = await alice('/feedback/create', {
      json: { project_id: p, weave_ref: ref, feedback_type: 'note', payload: { note: `Customer ${EMAIL} asked` } },
    });
    expect(made.status).toBe(200);
    expect(made.body.payload.note).toBe('Customer [redacted:email] asked');
    const batch = await alice('/feedback/batch/create', {
      json: { batch: [{ project_id: p, weave_ref: ref, feedback_type: 'note', payload: { card: CARD, authorization: 'x' } }] },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const replaced = await alice('/feedback/replace', {
      json: { project_id: p, feedback_id: made.body.id, weave_ref: ref, feedback_type: 'note', payload: { note: `now ${EMAIL}` } },
    });
    expect(replaced.status).toBe(200);
    const rows = (await alice('/feedback/query', { json: { project_id: p } })).body.result;
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/jane\.doe|4111 1111/);
    expect(text).toContain('[redacted:key:authorization]');
    expect(text).toContain('now [redacted:email]');
  });

  it('redacts table rows before their digests, on create and update', async () => {
    const p = project();
    await standardRules(p);
    const created = await alice('/table/create', {
      json: { table: { project_id: p, rows: [{ question: `Refund ${CARD}?`, contact: EMAIL, Authorization: KEY, score: 1.0 }] } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const updated = await alice('/table/update', {
      json: { project_id: p, base_digest: created.body.digest, updates: [{ append: { row: { question: `from ${EMAIL}` } } }] },
    });
    expect(updated.status).toBe(200);
    const rows = (await alice('/table/query', { json: { project_id: p, digest: updated.body.digest } })).body.rows;
    expect(rows.map((r: { val: unknown }) => r.val)).toEqual([
      {
        question: 'Refund [redacted:credit_card]?',
        contact: '[redacted:email]',
        Authorization: '[redacted:key:authorization]',
        score: 1.0,
      },
      { question: 'from [redacted:email]' },
    ]);
    // The digest is the stored (redacted) row's: reading by it finds it.
    expect(rows[0].digest).toBe(created.body.row_digests[0]);
  });
});
