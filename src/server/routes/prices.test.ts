import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PricesListRes } from '../../contract/costs.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
let P: string;
const list = async (project_id: string) => PricesListRes.parse(await t.alice.client.pricesList({ project_id })).prices;

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/prices`;
});
afterAll(async () => {
  await t.close();
});

describe('GET /weft/prices', () => {
  it('lists the shipped defaults, one in force per model', async () => {
    const prices = await list(P);
    const gpt4o = prices.filter((p) => p.llm_id === 'gpt-4o');
    expect(gpt4o.length).toBeGreaterThan(0);
    expect(gpt4o.every((p) => p.pricing_level === 'default')).toBe(true);
    expect(gpt4o.filter((p) => p.in_force)).toHaveLength(1);
    // o3 changed price: the newer default is the one in force.
    const o3 = prices.filter((p) => p.llm_id === 'o3');
    expect(o3.map((p) => [p.effective_date.slice(0, 10), p.in_force])).toEqual([
      ['2025-06-10', true],
      ['2025-04-16', false],
    ]);
  });

  it("puts a project's own price first and in force, and only for that project", async () => {
    const { ids } = await t.alice.client.costCreate({
      project_id: P,
      costs: {
        'gpt-4o': { prompt_token_cost: 1e-6, completion_token_cost: 2e-6, effective_date: '2024-01-01T00:00:00Z' },
        'my-model': { prompt_token_cost: 3e-6, completion_token_cost: 4e-6 },
      },
    });
    const prices = await list(P);
    const gpt4o = prices.filter((p) => p.llm_id === 'gpt-4o');
    expect(gpt4o[0]).toMatchObject({
      id: ids[0]![0],
      pricing_level: 'project',
      in_force: true,
      created_by: 'alice',
      prompt_token_cost: 1e-6,
    });
    expect(gpt4o.slice(1).every((p) => !p.in_force)).toBe(true);
    expect(prices.filter((p) => p.llm_id === 'my-model')).toEqual([expect.objectContaining({ pricing_level: 'project', in_force: true })]);
    expect((await list(`${t.alice.entity}/other`)).some((p) => p.llm_id === 'my-model')).toBe(false);
  });

  it('marks a price dated in the future as not yet in force', async () => {
    await t.alice.client.costCreate({
      project_id: P,
      costs: { 'future-model': { prompt_token_cost: 1, completion_token_cost: 1, effective_date: '2999-01-01' } },
    });
    await t.alice.client.costCreate({
      project_id: P,
      costs: { 'future-model': { prompt_token_cost: 2, completion_token_cost: 2, effective_date: '2020-01-01' } },
    });
    const rows = (await list(P)).filter((p) => p.llm_id === 'future-model');
    expect(rows.map((p) => [p.prompt_token_cost, p.in_force])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('answers 403 for projects of other entities', async () => {
    const res = await t.fetch(`/weft/prices?project_id=${encodeURIComponent(`${t.bob.entity}/x`)}`);
    expect(res.status).toBe(403);
  });
});
