/**
 * The hostile-input fuzz: bounded, seeded, property-based requests over every operation in
 * the server's own `/openapi.json` (testing/hostileRequests.ts builds them), against a real
 * server on a real SQLite file. Whatever a client sends, the answer is never a 5xx, and
 * every error is JSON: 422 with a `detail` list of {loc, msg, type}, otherwise a `reason`.
 *
 * Bounded so it runs in CI in well under a minute: a fixed number of runs and a fixed seed
 * (WEFT_FUZZ_SEED / WEFT_FUZZ_RUNS change them). On failure fast-check prints the seed and
 * the request, and the request is also printed here, so it can be replayed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './testing/serverSuite.js';
import { hostileRequest, operationsOf, sweepRequests, type FuzzRequest } from './testing/hostileRequests.js';

const SEED = Number(process.env.WEFT_FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.WEFT_FUZZ_RUNS ?? 500);

const t = useTestServer();

/** What is wrong with the answer to `req`, or null when it is fine. */
const statuses = new Map<number, number>();

async function problemWith(req: FuzzRequest): Promise<string | null> {
  let res: Response;
  try {
    res = await fetch(`${t.url}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body as BodyInit | null,
      signal: AbortSignal.timeout(20_000),
    });
  } catch (err) {
    return `no answer: ${(err as Error).message}`;
  }
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    return `${res.status} with a broken body: ${(err as Error).message}`;
  }
  if (res.status >= 500) return `${res.status} ${text.slice(0, 300)}`;
  if (res.status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${res.status} is not JSON: ${text.slice(0, 200)}`;
  }
  if (!(res.headers.get('content-type') ?? '').includes('json')) return `${res.status} content-type ${res.headers.get('content-type')}`;
  if (res.status === 422) {
    const detail = (body as { detail?: unknown }).detail;
    const ok =
      Array.isArray(detail) &&
      detail.length > 0 &&
      detail.every((d) => Array.isArray(d?.loc) && typeof d?.msg === 'string' && typeof d?.type === 'string');
    return ok ? null : `422 without a detail list: ${text.slice(0, 300)}`;
  }
  return typeof (body as { reason?: unknown }).reason === 'string' ? null : `${res.status} without a reason: ${text.slice(0, 300)}`;
}

const describeRequest = (r: FuzzRequest) =>
  `${r.operation} [${r.twist}] ${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.headers)} body ${
    r.body instanceof Uint8Array ? new TextDecoder().decode(r.body.slice(0, 300)) : r.body ? 'multipart' : 'none'
  }`;

describe('hostile-input fuzz over /openapi.json', () => {
  it('answers every operation with each body field nested 5,000 deep, and each path parameter %00', { timeout: 120_000 }, async () => {
    const operations = operationsOf(await (await fetch(`${t.url}/openapi.json`)).json());
    const ctx = { projectId: `${t.alice.entity}/sweep`, entity: t.alice.entity, project: 'sweep' };
    const problems: string[] = [];
    for (const req of sweepRequests(operations, ctx, t.alice.authHeader)) {
      const problem = await problemWith(req);
      if (problem) problems.push(`${problem}\n  request: ${describeRequest(req)}`);
    }
    expect(problems).toEqual([]);
  });

  it(`answers every hostile request with a 2xx/4xx JSON answer (seed ${SEED}, ${RUNS} runs)`, { timeout: 120_000 }, async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(90);
    const ctx = { projectId: `${t.alice.entity}/fuzz`, entity: t.alice.entity, project: 'fuzz' };
    // Something to find: a call, so reads by id and filters meet real rows.
    await t.alice.client.callStart({
      start: { project_id: ctx.projectId, id: 'x', op_name: 'x', started_at: '2024-01-01T00:00:00Z', inputs: { a: 1 } },
    });
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(hostileRequest(operations, ctx, t.alice.authHeader), async (req) => {
        seen.add(req.operation);
        const problem = await problemWith(req);
        if (problem) console.error(`fuzz (seed ${SEED}): ${problem}\n  request: ${describeRequest(req)}`);
        expect(problem).toBeNull();
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // Bounded, but broad: most operations were hit, and plenty of requests got past validation.
    if (process.env.WEFT_FUZZ_VERBOSE) console.log('fuzz statuses', Object.fromEntries(statuses));
    expect(seen.size).toBeGreaterThan(operations.length * 0.8);
    expect([...statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(RUNS / 20);
  });
});
