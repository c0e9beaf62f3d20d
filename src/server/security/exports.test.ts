/**
 * Exports are inert: every CSV file Weft writes (the calls export and the annotation-queue
 * export) neutralises cells a spreadsheet would run as a formula (OWASP: a cell starting with
 * `=`, `+`, `-`, `@`, tab or CR gets a `'` in front and is quoted), over HTTP against a real
 * server. Numbers the writer knows are numbers are written as themselves; see
 * docs/security/inputs.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '../core/csv.js';
import { parseCsv } from '../testing/csvReader.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

/** Each formula start OWASP lists, as a payload a co-member could write into a call or an answer. */
const PAYLOADS = [
  '=HYPERLINK("http://127.0.0.1:9/?leak="&A1,"click")',
  "+cmd|' /C calc'!A0",
  '-2+3+cmd|"/C calc"!A0',
  '@SUM(1+1)*cmd|"/C calc"!A0',
  '\t=1+1',
  '\r=1+1',
];

let t: TestServer;
let P: string;

beforeAll(async () => {
  t = await startTestServer();
  P = `${t.alice.entity}/exports`;
  await t.alice.client.callUpsertBatch({
    batch: PAYLOADS.flatMap((payload, i) => [
      {
        mode: 'start' as const,
        req: {
          start: {
            project_id: P,
            id: `c${i}`,
            trace_id: 't',
            op_name: 'op',
            display_name: payload,
            started_at: `2024-01-01T00:00:0${i}Z`,
            attributes: {},
            inputs: { text: payload, looks_negative: '-5', negative: -5 },
          },
        },
      },
      {
        mode: 'end' as const,
        req: { end: { project_id: P, id: `c${i}`, ended_at: `2024-01-01T00:00:0${i}.5Z`, output: payload, summary: {} } },
      },
    ]),
  });
});
afterAll(async () => {
  await t.close();
});

/** A number as JavaScript writes one: the only cells that may start with `-`. */
const NUMBER = /^-?\d+(\.\d+)?(e[+-]\d+)?$/;

/** No cell of the file (as a strict RFC 4180 reader gets it) starts with a formula character. */
function expectInert(text: string) {
  for (const row of parseCsv(text)) for (const cell of row) if (!NUMBER.test(cell)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
}

describe('the calls CSV export', () => {
  it("writes every formula-looking cell with a ' in front, quoted", async () => {
    const res = await t.alice.client.callsExport({
      project_id: P,
      format: 'csv',
      columns: ['id', 'display_name', 'inputs.text', 'output', 'inputs.looks_negative', 'inputs.negative'],
    });
    const text = await res.text();
    expectInert(text);
    const rows = parseCsv(text).slice(1);
    expect(rows.map((r) => r[1])).toEqual(PAYLOADS.map((p) => `'${p}`));
    expect(rows.map((r) => r[2])).toEqual(PAYLOADS.map((p) => `'${p}`));
    expect(rows.map((r) => r[3])).toEqual(PAYLOADS.map((p) => `'${p}`));
    // A string that looks like a number is text; a number is written as the number it is.
    expect(rows.every((r) => r[4] === "'-5" && r[5] === '-5')).toBe(true);
    expect(text).toContain(`,"'${PAYLOADS[0]!.replaceAll('"', '""')}",`);
  });

  it('neutralises the header too: column names come from the request', async () => {
    const res = await t.alice.client.callsExport({ project_id: P, format: 'csv', columns: ['id', '=1+1'] });
    const text = await res.text();
    expect(parseCsv(text)[0]).toEqual(['id', "'=1+1"]);
    expectInert(text);
  });

  it('keeps the default columns inert: JSON cells start with { and text cells are neutralised', async () => {
    const text = await (await t.alice.client.callsExport({ project_id: P, format: 'csv' })).text();
    expectInert(text);
    const [header, first] = parseCsv(text);
    const row = Object.fromEntries(header!.map((name, i) => [name, first![i]]));
    expect(row.display_name).toBe(`'${PAYLOADS[0]}`);
    expect(JSON.parse(row.inputs!)).toEqual({ text: PAYLOADS[0], looks_negative: '-5', negative: -5 });
    // A string output is a scalar, written as text, not as JSON.
    expect(row.output).toBe(`'${PAYLOADS[0]}`);
  });
});

describe('the annotation-queue CSV export', () => {
  it("writes answers and op names with a ' in front, numbers as themselves", async () => {
    const spec = async (name: string, field_schema: Record<string, unknown>) => {
      const val = { _type: 'AnnotationSpec', _class_name: 'AnnotationSpec', _bases: ['Object', 'BaseModel'], name, field_schema };
      const { digest } = await t.alice.client.objCreate({ obj: { project_id: P, object_id: name, val } });
      return `weave:///${P}/object/${name}:${digest}`;
    };
    const note = await spec('note', { type: 'string' });
    const delta = await spec('delta', { type: 'number' });
    await t.alice.client.callUpsertBatch({
      batch: [
        {
          mode: 'start' as const,
          req: {
            start: { project_id: P, id: 'q1', op_name: PAYLOADS[3]!, started_at: '2024-01-01T00:00:00Z', attributes: {}, inputs: {} },
          },
        },
      ],
    });
    const { id: queue } = await t.alice.client.annotationQueueCreate({ project_id: P, name: PAYLOADS[0]!, scorer_refs: [note, delta] });
    await t.alice.client.annotationQueueAddCalls({ project_id: P, queue_id: queue, call_ids: ['q1'], display_fields: [] });
    const { items } = await t.alice.client.annotationQueueItemsQuery({ project_id: P, queue_id: queue });
    await t.alice.client.annotationQueueItemSubmit({
      project_id: P,
      queue_id: queue,
      item_id: items[0]!.id,
      annotations: [
        { annotation_ref: note, value: PAYLOADS[1]! },
        { annotation_ref: delta, value: -5 },
      ],
    });
    const res = await t.alice.client.annotationQueueExport({ project_id: P, queue_id: queue, format: 'csv' });
    const text = await res.text();
    expectInert(text);
    const [header, row] = parseCsv(text);
    const record = Object.fromEntries(header!.map((name, i) => [name, row![i]]));
    expect(record).toMatchObject({ op_name: `'${PAYLOADS[3]}`, annotator: 'alice', note: `'${PAYLOADS[1]}`, delta: '-5' });
  });
});

describe('csvRow (core/csv.ts), the writer both exports use', () => {
  it('neutralises each OWASP formula start and leaves other text, numbers and booleans alone', () => {
    expect(PAYLOADS.map((p) => csvCell(p))).toEqual(PAYLOADS.map((p) => `"'${p.replaceAll('"', '""')}"`));
    expect(csvRow(['plain', 'a,b', 'say "hi"', -5, 1.5e-7, true, null, undefined, { a: '=1' }])).toBe(
      'plain,"a,b","say ""hi""",-5,1.5e-7,true,,,"{""a"":""=1""}"\r\n',
    );
    // Not finite: no JSON number is, and "-Infinity" would read as a formula.
    expect(csvCell(-Infinity)).toBe(`"'-Infinity"`);
  });
});
