/**
 * The calls the query conformance suite runs against: five visible calls A..E in project
 * `<entity>/q`, started one second apart from 2024-01-01T00:00:00Z, plus a deleted call and a
 * call in another project that no query may return.
 *
 * Ids are deliberately not in start order (A = call-3, B = call-1, ...) so that sorting by
 * id and by started_at give different answers.
 */
import type { z } from 'zod';
import type { CallUpsertBatchReq, EndedCall, StartedCall } from '../../../contract/calls.js';
import type { WeftClient } from '../../../client/index.js';
import type { JsonValue } from '../../../contract/common.js';

export type Letter = 'A' | 'B' | 'C' | 'D' | 'E';

const IDS: Record<Letter, string> = { A: 'call-3', B: 'call-1', C: 'call-5', D: 'call-2', E: 'call-4' };

/** The letter of a returned call id; anything outside A..E fails the test. */
export function letterOf(id: string): Letter {
  const letter = (Object.keys(IDS) as Letter[]).find((k) => IDS[k] === id);
  if (!letter) throw new Error(`Query returned a call it must not see: ${id}`);
  return letter;
}

export const opRef = (entity: string, nameAndDigest: string) => `weave:///${entity}/q/op/${nameAndDigest}`;

const T0 = Date.UTC(2024, 0, 1);
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

type BatchItem = z.input<typeof CallUpsertBatchReq>['batch'][number];

interface SeedCall {
  id: string;
  /** Seconds after T0. */
  startedAt: number;
  start: Omit<z.input<typeof StartedCall>, 'project_id' | 'id' | 'started_at'>;
  /** Absent while running; `at` is seconds after T0. */
  end?: Omit<z.input<typeof EndedCall>, 'project_id' | 'id' | 'ended_at'> & { at: number };
}

/**
 * A: root, success, latency 500 ms, rich inputs.  B: A's child, error, latency 2 s.
 * C: root, running.  D: root, descendant_error, latency 100 ms.  E: root, success, 0 ms.
 */
function seed(entity: string): SeedCall[] {
  return [
    {
      id: IDS.A,
      startedAt: 1,
      end: { at: 1.5, output: { score: 0.9 }, summary: { usage: { gpt: { total_tokens: 30 } } } },
      start: {
        op_name: opRef(entity, 'predict:v1'),
        trace_id: 'tr1',
        thread_id: 'th1',
        turn_id: 'tu1',
        wb_run_id: `${entity}/q/run1`,
        wb_run_step: 1,
        attributes: { env: 'prod' },
        inputs: {
          n: 5,
          s: 'Hello World',
          b: true,
          'dot.key': 'dk',
          nested: { k: 'deep', list: [10, 20, { x: 'y' }] },
          ds: `weave:///${entity}/q/object/dataset:abc`,
        },
      },
    },
    {
      id: IDS.B,
      startedAt: 2,
      end: { at: 4, exception: 'boom', output: 'plain string output' },
      start: {
        op_name: opRef(entity, 'tool:v1'),
        display_name: 'Tool Call',
        trace_id: 'tr1',
        parent_id: IDS.A,
        thread_id: 'th1',
        turn_id: 'tu2',
        inputs: { n: 10, s: 'hello-world', b: false },
      },
    },
    {
      id: IDS.C,
      startedAt: 3,
      start: {
        op_name: opRef(entity, 'predict:v2'),
        trace_id: 'tr2',
        wb_run_id: `${entity}/q/run2`,
        inputs: { n: 5.5, s: 'Goodbye 100%_off', b: 'true' },
      },
    },
    {
      id: IDS.D,
      startedAt: 4,
      end: {
        at: 4.1,
        output: { ref: `weave:///${entity}/q/object/result:xyz` },
        summary: { status_counts: { error: 1 } },
      },
      start: {
        op_name: 'plain_op',
        display_name: '',
        trace_id: 'tr3',
        // Marked as a call Weft made itself (domain/calls/weftMade.ts), for the weft_made filter.
        attributes: { env: 'dev', weft: { source: 'scorer' } },
        inputs: { n: '7', list: [1, 2, 3], obj: { a: 1, b: [true] } },
      },
    },
    {
      id: IDS.E,
      startedAt: 5,
      end: { at: 5 },
      start: { op_name: opRef(entity, 'predict:v1'), trace_id: 'tr4' },
    },
  ];
}

function batchItems(project_id: string, calls: SeedCall[]): BatchItem[] {
  return calls.flatMap(({ id, start, startedAt, end }): BatchItem[] => {
    const items: BatchItem[] = [
      {
        mode: 'start',
        req: { start: { project_id, id, started_at: at(startedAt), attributes: {}, inputs: {}, ...start } },
      },
    ];
    if (end) {
      const { at: endedAt, ...rest } = end;
      const ended = { project_id, id, ended_at: at(endedAt), summary: {}, ...rest };
      items.push({ mode: 'end', req: { end: ended } });
    }
    return items;
  });
}

/** Writes the fixture through the public API, as any client would. */
export async function seedCalls(client: WeftClient, entity: string): Promise<void> {
  const project_id = `${entity}/q`;
  const stray = (id: string): SeedCall => ({
    id,
    startedAt: 1,
    start: { op_name: opRef(entity, 'predict:v1'), trace_id: 'tr9' },
  });
  await client.callUpsertBatch({ batch: batchItems(project_id, [...seed(entity), stray('call-9')]) });
  await client.callsDelete({ project_id, call_ids: ['call-9'] });
  await client.callUpsertBatch({ batch: batchItems(`${entity}/q-other`, [stray('call-8')]) });
}

/**
 * The calls of the reference's `test_trace_call_filter` (tests/trace/test_client_trace.py), in
 * project `<entity>/qf`: an op `basic_op(in_val, delay)` returning `in_val`, called with
 * `{prim: i, list: [i], dict: {inner: i}, str: "str_<i>"}` for i = 0..9, then once with every
 * key of another type, once with the string "simple_primitive" and once with 42: 13 calls.
 */
export async function seedFilterCalls(client: WeftClient, entity: string): Promise<void> {
  const project_id = `${entity}/qf`;
  const inVals: JsonValue[] = [
    ...Array.from({ length: 10 }, (_, i) => ({ prim: i, list: [i], dict: { inner: i }, str: `str_${i}` })),
    { prim: 'Different Type', list: 'Different Type', dict: 'Different Type', str: false },
    'simple_primitive',
    42,
  ];
  const delays = [...Array.from({ length: 10 }, (_, i) => i / 10), 0.1, 0.1, 0.1];
  const calls: SeedCall[] = inVals.map((in_val, i) => ({
    id: `f-${String(i).padStart(2, '0')}`,
    startedAt: i,
    start: { op_name: `weave:///${project_id}/op/basic_op:v1`, trace_id: `tf-${i}`, inputs: { in_val, delay: delays[i]! } },
    end: { at: i + 0.5, output: in_val },
  }));
  await client.callUpsertBatch({ batch: batchItems(project_id, calls) });
}
