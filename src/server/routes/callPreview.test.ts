/**
 * `/weft/call/preview` and `/weft/call/payload_part` (docs/trace-outline.md "Payloads in parts"):
 * a big payload answers a bounded preview with its cuts, and every cut part reads back to the
 * stored value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayloadCut, PayloadPathStep } from '../../contract/callPayload.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
const P = 'alice-co/payloads';
const LONG = 'x'.repeat(50_000) + 'END';
const IMAGE = `data:image/png;base64,${'iVBORw0KGgo'.repeat(2_000)}`;
const inputs = {
  long: LONG,
  many: Array.from({ length: 2_500 }, (_, i) => ({ i, text: `row ${i}` })),
  wide: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])),
  small: { a: 1, b: [true, null] },
  image: IMAGE,
};

/** Reads every cut of a field back through payload_part, merging parts into `value`. */
async function readWhole(value: unknown, cuts: PayloadCut[]): Promise<unknown> {
  const at = (root: unknown, path: PayloadPathStep[]): unknown => path.reduce<unknown>((v, s) => (v as Record<string, unknown>)[s], root);
  const set = (root: unknown, path: PayloadPathStep[], v: unknown) => {
    const parent = at(root, path.slice(0, -1)) as Record<string, unknown>;
    parent[path.at(-1)!] = v;
  };
  const wrapped = { inputs: value };
  const queue = [...cuts];
  while (queue.length) {
    const c = queue.shift()!;
    let current = at(wrapped, c.path);
    while (
      (c.kind === 'string'
        ? (current as string).length
        : c.kind === 'array'
          ? (current as unknown[]).length
          : Object.keys(current as object).length) < c.length
    ) {
      const offset =
        c.kind === 'string'
          ? (current as string).length
          : c.kind === 'array'
            ? (current as unknown[]).length
            : Object.keys(current as object).length;
      const part = await t.alice.client.callPayloadPart({ project_id: P, id: 'big', field: 'inputs', path: c.path.slice(1), offset });
      expect(part.length).toBe(c.length);
      current =
        c.kind === 'string'
          ? (current as string) + (part.value as string)
          : c.kind === 'array'
            ? [...(current as unknown[]), ...(part.value as unknown[])]
            : { ...(current as object), ...(part.value as object) };
      set(wrapped, c.path, current);
      queue.push(...part.cuts);
    }
  }
  return wrapped.inputs;
}

describe('payloads in parts', () => {
  beforeAll(async () => {
    t = await startTestServer();
    await t.alice.client.callStart({
      start: { project_id: P, id: 'big', trace_id: 't', op_name: 'op', started_at: '2026-01-01T00:00:00Z', inputs, attributes: {} },
    });
    await t.alice.client.callEnd({ end: { project_id: P, id: 'big', ended_at: '2026-01-01T00:00:01Z', output: 'done', summary: {} } });
  });
  afterAll(() => t?.close());

  it('answers a bounded preview with where it was cut, media whole', async () => {
    const { call, cuts } = await t.alice.client.callPreview({ project_id: P, id: 'big' });
    const previewed = call!.inputs as typeof inputs;
    expect(previewed.long).toBe(LONG.slice(0, 2_000));
    expect(previewed.many).toHaveLength(100);
    expect(Object.keys(previewed.wide)).toHaveLength(100);
    expect(previewed.small).toEqual(inputs.small);
    expect(previewed.image).toBe(IMAGE);
    expect(call!.output).toBe('done');
    expect(cuts).toEqual([
      { path: ['inputs', 'long'], kind: 'string', length: LONG.length, shown: 2_000 },
      { path: ['inputs', 'many'], kind: 'array', length: 2_500, shown: 100 },
      { path: ['inputs', 'wide'], kind: 'object', length: 300, shown: 100 },
    ]);
    expect(JSON.stringify(call).length).toBeLessThan(60_000);
  });

  it('reads every cut back in parts to the stored value', async () => {
    const { call, cuts } = await t.alice.client.callPreview({ project_id: P, id: 'big' });
    expect(await readWhole(call!.inputs, cuts)).toEqual(inputs);
  });

  it('answers a part at a path and offset with a limit', async () => {
    const part = await t.alice.client.callPayloadPart({
      project_id: P,
      id: 'big',
      field: 'inputs',
      path: ['many', 7, 'text'],
      offset: 2,
      limit: 2,
    });
    expect(part).toEqual({ kind: 'string', length: 5, value: 'w ', cuts: [] });
  });

  it('says 404 for an unknown call or path, 422 for a bad request, 403 outside the project', async () => {
    await expect(t.alice.client.callPayloadPart({ project_id: P, id: 'big', field: 'inputs', path: ['nope'] })).rejects.toMatchObject({
      status: 404,
    });
    await expect(t.alice.client.callPayloadPart({ project_id: P, id: 'none', field: 'output', path: [] })).rejects.toMatchObject({
      status: 404,
    });
    expect(await t.alice.client.callPreview({ project_id: P, id: 'none' })).toEqual({ call: null, cuts: [] });
    const bad = await t.fetch('/weft/call/payload_part', {
      method: 'POST',
      json: { project_id: P, id: 'big', field: 'secrets', offset: -1 },
    });
    expect(bad.status).toBe(422);
    await expect(t.bob.client.callPreview({ project_id: P, id: 'big' })).rejects.toMatchObject({ status: 403 });
  });
});
