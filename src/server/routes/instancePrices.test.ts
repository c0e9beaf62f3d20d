/**
 * Prices of instance-wide providers (the providers file) feed the cost table: a tracked
 * completion of a priced model has a cost, `/cost/query` lists the price in every project,
 * a project's own price still wins, a project cannot purge the operator's price, and a
 * shipped default price of the same model is overridden.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../testing/fakeOpenAi.js';
import { projectNames, sendAsAlice } from '../testing/serverSuite.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let fake: FakeOpenAi;
let t: TestServer;
let providersFile: string;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  providersFile = join(mkdtempSync(join(tmpdir(), 'weft-prices-')), 'providers.json');
  writeFileSync(
    providersFile,
    JSON.stringify({
      providers: [
        {
          name: 'local',
          base_url: fake.baseUrl,
          models: [
            { name: 'local-llama', prompt_token_cost: 0.001, completion_token_cost: 0.002 },
            { name: 'gpt-4o-mini', prompt_token_cost: 0.01, completion_token_cost: 0.02 },
            'unpriced-model',
          ],
        },
      ],
    }),
  );
  t = await startTestServer({ env: { WEFT_PROVIDERS_FILE: providersFile, WEFT_OUTBOUND_ALLOW: '127.0.0.1' } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const project = projectNames('alice-co/instance-prices');
const send = (path: string, json: unknown) => sendAsAlice(t)(path, { json });

async function complete(p: string, model: string) {
  const res = await send('/completions/create', {
    project_id: p,
    inputs: { model, messages: [{ role: 'user', content: 'three words here' }] },
  });
  expect(res.status).toBe(200);
  const { call } = await t.alice.client.callRead({ project_id: p, id: res.body.weave_call_id, include_costs: true });
  return (call!.summary as any).weave.costs as Record<string, Record<string, number>>;
}

describe('instance provider prices', () => {
  it('price the calls of their models, over the shipped default of the same model', async () => {
    const p = project();
    const costs = await complete(p, 'local-llama');
    const c = costs['local-llama']!;
    expect(c).toMatchObject({ prompt_token_cost: 0.001, completion_token_cost: 0.002 });
    expect(c.prompt_tokens).toBeGreaterThan(0);
    expect(c.prompt_tokens_total_cost).toBeCloseTo(c.prompt_tokens! * 0.001);
    expect(c.completion_tokens_total_cost).toBeCloseTo(c.completion_tokens! * 0.002);
    const mini = await complete(p, 'gpt-4o-mini');
    expect(mini['gpt-4o-mini']).toMatchObject({ prompt_token_cost: 0.01, completion_token_cost: 0.02 });
  });

  it('are listed by /cost/query in every project, cannot be purged by one, and yield to a project price', async () => {
    const p = project();
    const { results } = await t.alice.client.costQuery({ project_id: p, fields: ['id', 'llm_id', 'prompt_token_cost', 'pricing_level'] });
    expect(results).toEqual(
      expect.arrayContaining([
        { id: 'instance:local:local-llama', llm_id: 'local-llama', prompt_token_cost: 0.001, pricing_level: 'default' },
        { id: 'instance:local:gpt-4o-mini', llm_id: 'gpt-4o-mini', prompt_token_cost: 0.01, pricing_level: 'default' },
      ]),
    );
    expect(results.some((r) => r.llm_id === 'unpriced-model')).toBe(false);
    await t.alice.client.costPurge({
      project_id: p,
      query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: 'instance:local:local-llama' }] } },
    });
    expect((await t.alice.client.costQuery({ project_id: p, fields: ['id'] })).results).toContainEqual({
      id: 'instance:local:local-llama',
    });

    await t.alice.client.costCreate({ project_id: p, costs: { 'local-llama': { prompt_token_cost: 1, completion_token_cost: 1 } } });
    const costs = await complete(p, 'local-llama');
    expect(costs['local-llama']).toMatchObject({ prompt_token_cost: 1, completion_token_cost: 1 });
  });
});
