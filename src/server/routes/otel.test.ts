import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallSchema } from '../../contract/calls.js';
import { OtelExportRes } from '../../contract/otel.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

type ProtoConfig = NonNullable<ConstructorParameters<typeof OtlpProtoExporter>[0]>;

/** Wraps an exporter to keep the result of each export. */
function recording(exporter: SpanExporter) {
  const results: { code: number; error?: Error }[] = [];
  const wrapped: SpanExporter = {
    export: (spans, done) => exporter.export(spans, (r) => (results.push(r), done(r))),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
  return { wrapped, results };
}

/** Sends the spans `emit` makes through one exporter, and asserts the export succeeded. */
async function send(
  exporter: SpanExporter,
  resource: Record<string, string>,
  emit: (tracer: ReturnType<BasicTracerProvider['getTracer']>) => void,
) {
  const { wrapped, results } = recording(exporter);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(resource),
    spanProcessors: [new BatchSpanProcessor(wrapped)],
  });
  emit(provider.getTracer('weft-test'));
  await provider.forceFlush();
  await provider.shutdown();
  expect(results.map((r) => r.error?.message ?? r.code)).toEqual([0]);
}

async function callsOf(projectId: string, extra: { include_costs?: boolean } = {}): Promise<Record<string, CallSchema>> {
  const byOp: Record<string, CallSchema> = {};
  for await (const call of t.alice.client.callsStreamQuery({ project_id: projectId, ...extra })) byOp[call.op_name] = call;
  return byOp;
}

const childOf = (parent: Span) => trace.setSpan(context.active(), parent);

describe('POST /otel/v1/traces', () => {
  it('turns spans from the official protobuf exporter into calls, GenAI attributes mapped', async () => {
    const P = `${t.alice.entity}/otel-proto`;
    const ids: Record<string, { spanId: string; traceId: string }> = {};
    await send(
      new OtlpProtoExporter({ url: `${t.url}/otel/v1/traces`, headers: { authorization: t.alice.authHeader } }),
      { 'wandb.entity': t.alice.entity, 'wandb.project': 'otel-proto', 'service.name': 'bot' },
      (tracer) => {
        const root = tracer.startSpan('agent.run', { attributes: { 'app.user': 'u1', 'app.flags.beta': true } });
        const chat = tracer.startSpan(
          'chat gpt-4o-mini',
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'gen_ai.system': 'openai',
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o-mini',
              'gen_ai.request.temperature': 0.2,
              'gen_ai.usage.input_tokens': 12,
              'gen_ai.usage.output_tokens': 30,
              'gen_ai.prompt.0.role': 'user',
              'gen_ai.prompt.0.content': 'Hi there',
              'gen_ai.completion.0.role': 'assistant',
              'gen_ai.completion.0.content': 'Hello!',
            },
          },
          childOf(root),
        );
        const tool = tracer.startSpan('tool.search', { attributes: { 'input.value': '{"q": "weather"}' } }, childOf(root));
        tool.setStatus({ code: SpanStatusCode.ERROR, message: 'search backend down' });
        for (const [name, span] of Object.entries({ root, chat, tool })) ids[name] = span.spanContext();
        tool.end();
        chat.end();
        root.end();
      },
    );

    const calls = await callsOf(P, { include_costs: true });
    const { 'agent.run': root, 'chat gpt-4o-mini': chat, 'tool.search': tool } = calls;
    expect(Object.keys(calls).sort()).toEqual(['agent.run', 'chat gpt-4o-mini', 'tool.search']);
    expect(chat).toMatchObject({ id: ids.chat!.spanId, trace_id: ids.chat!.traceId, parent_id: ids.root!.spanId, wb_user_id: 'alice' });
    expect(root).toMatchObject({ id: ids.root!.spanId, parent_id: null, exception: null });
    expect(chat!.inputs).toEqual({ 'gen_ai.prompt': [{ role: 'user', content: 'Hi there' }] });
    expect(chat!.output).toEqual({ 'gen_ai.completion': [{ role: 'assistant', content: 'Hello!' }] });
    expect(chat!.attributes).toMatchObject({
      system: 'openai',
      model: 'gpt-4o-mini',
      operation: 'chat',
      model_parameters: { model: 'gpt-4o-mini', temperature: 0.2 },
    });
    const summary = chat!.summary as {
      usage: Record<string, unknown>;
      weave: { status: string; costs: Record<string, { prompt_tokens: number }> };
    };
    expect(summary.usage).toEqual({ 'gpt-4o-mini': { input_tokens: 12, output_tokens: 30, total_tokens: 42 } });
    expect(summary.weave.status).toBe('success');
    expect(summary.weave.costs['gpt-4o-mini']).toMatchObject({ prompt_tokens: 12, completion_tokens: 30, pricing_level: 'default' });
    expect(Date.parse(chat!.ended_at!)).toBeGreaterThanOrEqual(Date.parse(chat!.started_at));
    // Nothing recognised on the root span: its whole attribute tree is kept.
    expect(root!.attributes).toMatchObject({ app: { user: 'u1', flags: { beta: true } } });
    expect(tool!.inputs).toEqual({ 'input.value': { q: 'weather' } });
    expect(tool!.exception).toBe('search backend down');
    expect((tool!.summary as { weave: { status: string } }).weave.status).toBe('error');
    const otelSpan = chat!.attributes.otel_span as Record<string, unknown>;
    expect(otelSpan).toMatchObject({ name: 'chat gpt-4o-mini', kind: 'CLIENT', parent_id: ids.root!.spanId, status: { code: 'UNSET' } });
    expect(otelSpan.resource).toMatchObject({ attributes: { service: { name: 'bot' }, wandb: { project: 'otel-proto' } } });
  });

  it('accepts OTLP/JSON from the official HTTP exporter, the project_id header and a wandb-api-key', async () => {
    const P = `${t.alice.entity}/otel-json`;
    await send(
      new OtlpHttpJsonExporter({ url: `${t.url}/otel/v1/traces`, headers: { 'wandb-api-key': t.alice.apiKey, project_id: P } }),
      { 'service.name': 'bot' },
      (tracer) => {
        const turn = tracer.startSpan('turn', {
          attributes: {
            'wandb.thread_id': 'thread-9',
            'wandb.is_turn': true,
            'wandb.display_name': 'First turn',
            'wandb.attributes': '{"env": "prod"}',
            'llm.model_name': 'claude-3-5-haiku-20241022',
            'llm.token_count.prompt': 100,
            'llm.token_count.completion': 20,
            'output.value': 'done',
          },
        });
        turn.end();
      },
    );
    const { turn } = await callsOf(P);
    expect(turn).toMatchObject({
      thread_id: 'thread-9',
      turn_id: turn!.id,
      display_name: 'First turn',
      output: { 'output.value': 'done' },
    });
    expect(turn!.attributes).toMatchObject({ model: 'claude-3-5-haiku-20241022', env: 'prod' });
    expect((turn!.summary as { usage: unknown }).usage).toEqual({
      'claude-3-5-haiku-20241022': { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    });
  });

  it('reads gzip-compressed protobuf', async () => {
    const P = `${t.alice.entity}/otel-gzip`;
    const config: ProtoConfig = {
      url: `${t.url}/otel/v1/traces`,
      headers: { authorization: t.alice.authHeader, project_id: P },
      compression: 'gzip' as ProtoConfig['compression'],
    };
    await send(new OtlpProtoExporter(config), {}, (tracer) => tracer.startSpan('compressed').end());
    expect(Object.keys(await callsOf(P))).toEqual(['compressed']);
  });

  const jsonSpan = (name: string, attributes: { key: string; value: Record<string, unknown> }[] = []) => ({
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: `eee19b7ec3c1b17${name.length % 10}`,
    name,
    startTimeUnixNano: '1704067200000000000',
    endTimeUnixNano: '1704067201500000000',
    attributes,
  });
  const exportJson = (body: unknown, headers: Record<string, string> = {}) =>
    t.fetch('/otel/v1/traces', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

  it('reports spans with clashing attribute keys in partial_success and stores the others', async () => {
    const P = `${t.alice.entity}/otel-partial`;
    const res = await exportJson(
      {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  jsonSpan('good', [{ key: 'gen_ai.system', value: { stringValue: 'openai' } }]),
                  jsonSpan('clash', [
                    { key: 'a.b', value: { intValue: '1' } },
                    { key: 'a.b.c', value: { intValue: '2' } },
                  ]),
                ],
              },
            ],
          },
        ],
      },
      { project_id: P },
    );
    expect(res.status).toBe(200);
    const body = OtelExportRes.parse(await res.json());
    expect(body.partial_success).toMatchObject({ rejected_spans: 1, error_message: expect.stringMatching(/a\.b\.c/) });
    const { good } = await callsOf(P);
    expect(good).toMatchObject({
      started_at: '2024-01-01T00:00:00Z',
      ended_at: '2024-01-01T00:00:01.500000Z',
      attributes: { system: 'openai' },
    });
    expect((good!.summary as { weave: { latency_ms: number } }).weave.latency_ms).toBe(1500);
    expect(Object.keys(await callsOf(P))).toEqual(['good']);
  });

  it('answers partial_success null when every span is stored, and for an empty export', async () => {
    const res = await exportJson({ resourceSpans: [] }, { project_id: `${t.alice.entity}/otel-empty` });
    expect(await res.json()).toEqual({ partial_success: null });
    const deflated = await t.fetch('/otel/v1/traces', {
      method: 'POST',
      body: gzipSync(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [jsonSpan('zipped')] }] }] })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', project_id: `${t.alice.entity}/otel-empty` },
    });
    expect(await deflated.json()).toEqual({ partial_success: null });
  });

  it('answers 403 for a project of another entity and writes nothing', async () => {
    const body = {
      resourceSpans: [
        {
          resource: {
            attributes: [
              { key: 'wandb.entity', value: { stringValue: t.bob.entity } },
              { key: 'wandb.project', value: { stringValue: 'p' } },
            ],
          },
          scopeSpans: [{ spans: [jsonSpan('x')] }],
        },
      ],
    };
    expect((await exportJson(body)).status).toBe(403);
    const bobs = [];
    for await (const call of t.bob.client.callsStreamQuery({ project_id: `${t.bob.entity}/p` })) bobs.push(call);
    expect(bobs).toEqual([]);
  });

  it('answers 401 without credentials, 400 without a project or for an undecodable body, 415 for an unknown encoding', async () => {
    const one = { resourceSpans: [{ scopeSpans: [{ spans: [jsonSpan('x')] }] }] };
    expect((await exportJson(one, { authorization: '' })).status).toBe(401);
    const noProject = await exportJson(one);
    expect(noProject.status).toBe(400);
    expect(((await noProject.json()) as { reason: string }).reason).toMatch(/wandb\.entity/);
    const garbage = await t.fetch('/otel/v1/traces', {
      method: 'POST',
      body: new Uint8Array([0xff, 0xff, 0xff]),
      headers: { 'content-type': 'application/x-protobuf', project_id: `${t.alice.entity}/x` },
    });
    expect(garbage.status).toBe(400);
    const brotli = await t.fetch('/otel/v1/traces', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'br', project_id: `${t.alice.entity}/x` },
    });
    expect(brotli.status).toBe(415);
  });
});
