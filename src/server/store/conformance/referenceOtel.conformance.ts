/**
 * The reference's own tests of OTLP trace export, re-sent over HTTP for every backend:
 * tests/trace/test_otel.py (public wandb/weave). The reference builds protobuf spans and calls
 * `otel_export` in process; here the same spans go to POST /otel/v1/traces as OTLP/JSON (the
 * encoding the OTel HTTP exporters also send) and the calls are read back through
 * /calls/stream_query. Its unit tests of attribute helpers are ported as what the span becomes
 * (call attributes, inputs, output, usage, times). What differs is in docs/reference/coverage.md.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../testing/serverSuite.js';
import type { TestBackend } from '../../testing/tempStore.js';
import { pyCallsQueryReq, type PyJson } from '../../testing/pythonClient.js';
import { referenceHttp } from './referenceHttp.js';

/** An OTLP/JSON AnyValue for a JS value: integers as intValue, other numbers as doubleValue. */
type Any = Record<string, unknown>;
function anyValue(v: unknown): Any {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  if (v && typeof v === 'object') return { kvlistValue: { values: kvs(v as Record<string, unknown>) } };
  throw new Error(`no AnyValue for ${String(v)}`);
}
const kvs = (o: Record<string, unknown>) => Object.entries(o).map(([key, value]) => ({ key, value: anyValue(value) }));
const doubleKv = (key: string, value: number) => ({ key, value: { doubleValue: value } });

let seq = 0;
const hex = (bytes: number) =>
  createHash('sha256')
    .update(`otel-${++seq}`)
    .digest('hex')
    .slice(0, bytes * 2);

interface SpanOver {
  name?: string;
  attributes?: { key: string; value: Any }[];
  events?: { name: string; attributes: Record<string, unknown> }[];
  status?: { code: number; message?: string };
  start?: bigint;
}

/** `create_test_span()`: an INTERNAL span of one second, status OK "Success", four attributes. */
function testSpan(over: SpanOver = {}) {
  const start = over.start ?? 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z
  return {
    traceId: hex(16),
    spanId: hex(8),
    name: over.name ?? 'test_span',
    kind: 1,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 1_000_000_000n),
    attributes: over.attributes ?? [
      ...kvs({ 'test.attribute': 'test_value', 'test.number': 42, 'test.nested.value': 'nested_test_value' }),
      { key: 'test.array', value: anyValue(['value1', 'value2']) },
    ],
    events: (over.events ?? []).map((e) => ({ name: e.name, timeUnixNano: String(start), attributes: kvs(e.attributes) })),
    status: over.status ?? { code: 1, message: 'Success' },
  };
}

/** `create_test_export_request()`: spans under resource service.name=test_service and a scope. */
const exportRequest = (...groups: ReturnType<typeof testSpan>[][]) => ({
  resourceSpans: groups.map((spans) => ({
    resource: { attributes: kvs({ 'service.name': 'test_service' }) },
    scopeSpans: [{ scope: { name: 'test_instrumentation', version: '1.0.0' }, spans }],
  })),
});

/** `get_attribute`: a dotted path into the nested attributes. */
const at = (tree: PyJson, path: string): unknown => path.split('.').reduce((o: PyJson, k) => (o == null ? undefined : o[k]), tree);

export function describeReferenceOtelConformance(backend: TestBackend): void {
  describe('reference tests: otel export', () => {
    const t = useTestServer({ env: backend.serverEnv });
    const http = referenceHttp(t);

    /** Posts the request as OTLP/JSON to the project; the parsed 200 answer. */
    const exportTo = async (P: string, body: unknown) => {
      const res = await t.fetch('/otel/v1/traces', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { authorization: t.alice.authHeader, 'content-type': 'application/json', project_id: P },
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      return JSON.parse(text) as PyJson;
    };
    const calls = async (P: string, over: Record<string, unknown> = {}) =>
      (await http.ok('/calls/stream_query', pyCallsQueryReq({ project_id: P, ...over }))) as PyJson[];
    /** Exports one span (test_span's defaults, `over` applied) and reads back its one call. */
    const one = async (over: SpanOver = {}, query: Record<string, unknown> = {}) => {
      const P = http.project('otel');
      const span = testSpan(over);
      expect(await exportTo(P, exportRequest([span]))).toEqual({ partial_success: null });
      const got = await calls(P, query);
      expect(got).toHaveLength(1);
      return { P, span, call: got[0] };
    };

    it('test_otel_export_clickhouse: one call, hex ids, every attribute at its path; deleted by span id', async () => {
      const { P, span, call } = await one();
      expect(call.id).toBe(span.spanId);
      expect(call.trace_id).toBe(span.traceId);
      expect(at(call.attributes, 'test.attribute')).toBe('test_value');
      expect(at(call.attributes, 'test.number')).toBe(42);
      expect(at(call.attributes, 'test.nested.value')).toBe('nested_test_value');
      expect(at(call.attributes, 'test.array')).toEqual(['value1', 'value2']);

      await http.ok('/calls/delete', { project_id: P, call_ids: [span.spanId], wb_user_id: null });
      expect(await calls(P)).toEqual([]);
    });

    it('test_otel_export_multiple_processed_spans: spans of two resources both stored, no partial success', async () => {
      const P = http.project('otel');
      const spans = [0, 1].map((i) => testSpan({ name: `span_${i}` }));
      expect(await exportTo(P, exportRequest([spans[0]!], [spans[1]!]))).toEqual({ partial_success: null });
      const got = await calls(P);
      expect(got.map((c) => c.id).sort()).toEqual(spans.map((s) => s.spanId).sort());
      // The reference's ClickHouse server names each op by a ref; Weft keeps the span name, as its SQLite server does.
      expect(got.map((c) => c.op_name).sort()).toEqual(['span_0', 'span_1']);
    });

    const turnThread = (attrs: Record<string, unknown>) => [...testSpan().attributes, ...kvs(attrs)];

    it('test_otel_export_with_turn_and_thread: turn_id is the call id, thread_id kept', async () => {
      const { call } = await one({ attributes: turnThread({ 'wandb.is_turn': true, 'wandb.thread_id': 'thread-a' }) });
      expect(call.turn_id).toBe(call.id);
      expect(call.thread_id).toBe('thread-a');
    });

    it('test_otel_export_with_turn_no_thread: is_turn without a thread sets neither', async () => {
      const { call } = await one({ attributes: turnThread({ 'wandb.is_turn': true }) });
      expect(call.turn_id).toBeNull();
      expect(call.thread_id).toBeNull();
    });

    it('test_span_to_call_with_turn_and_thread: is_turn false or absent leaves turn_id null, thread kept', async () => {
      const off = await one({ attributes: turnThread({ 'wandb.is_turn': false, 'wandb.thread_id': 'thread-b' }) });
      expect(off.call).toMatchObject({ turn_id: null, thread_id: 'thread-b' });
      const absent = await one({ attributes: turnThread({ 'wandb.thread_id': 'thread-c' }) });
      expect(absent.call).toMatchObject({ turn_id: null, thread_id: 'thread-c' });
    });

    it('test_span_to_call and test_span_to_call_long_name: op name shortened with a hash, the span kept whole', async () => {
      const longName = 'a'.repeat(128 + 10);
      const { span, call } = await one({ name: longName });
      // No delimiter: the first 123 characters, then ":" and the name's sha256 prefix.
      const expected = `${'a'.repeat(123)}:${createHash('sha256').update(longName).digest('hex').slice(0, 4)}`;
      expect(call.op_name).toBe(expected);
      expect(call.op_name.length).toBeLessThanOrEqual(128);
      expect(call.attributes.test).toEqual({
        attribute: 'test_value',
        number: 42,
        nested: { value: 'nested_test_value' },
        array: ['value1', 'value2'],
      });
      expect(call.attributes.otel_span).toMatchObject({ name: longName, context: { trace_id: span.traceId, span_id: span.spanId } });
      expect(call).toMatchObject({ id: span.spanId, trace_id: span.traceId, exception: null });
      expect(Date.parse(call.started_at)).toBe(Date.UTC(2026, 0, 1));
      expect(Date.parse(call.ended_at)).toBe(Date.UTC(2026, 0, 1, 0, 0, 1));

      const short = await one({ name: 'short_span' });
      expect(short.call.op_name).toBe('short_span');
    });

    it('test_otel_span_wandb_attributes_and_data_routing: custom attributes, model, provider, otel_span, inputs, output', async () => {
      const { span, call } = await one({
        attributes: [
          { key: 'wandb.attributes', value: anyValue({ custom_tag: 'production', environment: 'staging', priority: 42 }) },
          ...kvs({
            'gen_ai.prompt.0.role': 'user',
            'gen_ai.prompt.0.content': 'What is quantum computing?',
            'gen_ai.completion.0.role': 'assistant',
            'gen_ai.completion.0.content': 'Quantum computing is a type of computing that uses quantum mechanics.',
            'gen_ai.response.model': 'gpt-4',
            'llm.provider': 'openai',
          }),
        ],
      });
      expect(call.attributes).toMatchObject({
        custom_tag: 'production',
        environment: 'staging',
        priority: 42,
        model: 'gpt-4',
        provider: 'openai',
      });
      const otel = call.attributes.otel_span;
      expect(otel).toMatchObject({ name: 'test_span', context: { trace_id: span.traceId, span_id: span.spanId }, status: { code: 'OK' } });
      expect(otel.start_time).toBeTruthy();
      expect(otel.end_time).toBeTruthy();
      expect(Object.keys(otel.attributes.wandb)).toContain('attributes');
      expect(Object.keys(otel.attributes.gen_ai)).toEqual(expect.arrayContaining(['prompt', 'completion', 'response']));
      expect(otel.attributes.gen_ai.response.model).toBe('gpt-4');
      expect(otel.attributes.llm.provider).toBe('openai');
      expect(call.inputs['gen_ai.prompt']).toEqual([{ role: 'user', content: 'What is quantum computing?' }]);
      expect(call.output['gen_ai.completion']).toEqual([
        { role: 'assistant', content: 'Quantum computing is a type of computing that uses quantum mechanics.' },
      ]);
      for (const routed of ['gen_ai.prompt', 'gen_ai.completion']) expect(call.attributes[routed]).toBeUndefined();
    });

    it('test_otel_export_partial_success_on_attribute_conflict: the clashing span rejected, naming the key', async () => {
      const P = http.project('otel');
      const good = testSpan();
      const bad = testSpan({ attributes: [...kvs({ 'gen_ai.prompt': true, 'gen_ai.prompt.content': 'Hello' })] });
      const res = await exportTo(P, exportRequest([good, bad]));
      expect(res.partial_success.rejected_spans).toBe(1);
      expect(res.partial_success.error_message).toContain('gen_ai.prompt');
      expect((await calls(P)).map((c) => c.id)).toEqual([good.spanId]);
    });

    describe('TestSemanticConventionParsing', () => {
      it('test_openinference_attributes_extraction: system, provider, model, kind, invocation parameters', async () => {
        const { call } = await one({
          attributes: kvs({
            'llm.system': 'This is a system prompt',
            'llm.provider': 'test-provider',
            'llm.model_name': 'test-model',
            'openinference.span.kind': 'llm',
            'llm.invocation_parameters': JSON.stringify({ temperature: 0.7, max_tokens: 100 }),
          }),
        });
        expect(call.attributes).toMatchObject({
          system: 'This is a system prompt',
          provider: 'test-provider',
          model: 'test-model',
          kind: 'llm',
          model_parameters: { max_tokens: 100, temperature: 0.7 },
        });
      });

      it('test_wandb_attributes_extraction: wandb.display_name is the display name', async () => {
        const { call } = await one({ attributes: kvs({ 'wandb.display_name': 'My Custom Display Name' }) });
        expect(call.display_name).toBe('My Custom Display Name');
        const plain = await one();
        expect(plain.call.display_name).toBeNull();
      });

      it('test_openinference_inputs_extraction and _outputs_extraction: text kept, JSON parsed', async () => {
        const text = await one({
          attributes: kvs({
            'input.value': 'What is machine learning?',
            'input.mime_type': 'text/plain',
            'output.value': 'Machine learning is a field of AI...',
            'output.mime_type': 'text/plain',
          }),
        });
        expect(text.call.inputs).toEqual({ 'input.value': 'What is machine learning?' });
        expect(text.call.output).toEqual({ 'output.value': 'Machine learning is a field of AI...' });

        const messages = {
          messages: [
            { role: 'system', content: 'You are an assistant' },
            { role: 'user', content: 'What is machine learning?' },
          ],
        };
        const response = { response: { role: 'assistant', content: 'Machine learning is a field of AI...' } };
        const json = await one({
          attributes: kvs({
            'input.value': JSON.stringify(messages),
            'input.mime_type': 'application/json',
            'output.value': JSON.stringify(response),
            'output.mime_type': 'application/json',
          }),
        });
        expect(json.call.inputs).toEqual({ 'input.value': messages });
        expect(json.call.output).toEqual({ 'output.value': response });
      });

      /** The one usage entry of the call (keyed by model, when the span names one). */
      const usageOf = (call: PyJson) => {
        const entries = Object.values(call.summary.usage as Record<string, PyJson>);
        expect(entries).toHaveLength(1);
        return entries[0];
      };

      it('test_openinference_usage_extraction: llm.token_count.*', async () => {
        const { call } = await one({
          attributes: kvs({ 'llm.token_count.prompt': 10, 'llm.token_count.completion': 20, 'llm.token_count.total': 30 }),
        });
        expect(usageOf(call)).toMatchObject({ prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 });
      });

      it('test_opentelemetry_attributes_extraction: gen_ai.system, request.max_tokens, traceloop kind, response model', async () => {
        const { call } = await one({
          attributes: kvs({
            'gen_ai.system': 'You are a helpful assistant',
            'gen_ai.request.max_tokens': 150,
            'traceloop.span.kind': 'llm',
            'gen_ai.response.model': 'gpt-4',
          }),
        });
        expect(call.attributes).toMatchObject({
          system: 'You are a helpful assistant',
          model_parameters: { max_tokens: 150 },
          kind: 'llm',
          model: 'gpt-4',
        });
      });

      it('test_opentelemetry_inputs_extraction and _outputs_extraction: indexed prompts and completions become lists', async () => {
        const { call } = await one({
          attributes: kvs({
            'gen_ai.prompt.0.role': 'system',
            'gen_ai.prompt.0.content': 'You are an expert in quantum physics',
            'gen_ai.prompt.1.role': 'user',
            'gen_ai.prompt.1.content': 'Tell me about quantum computing',
            'gen_ai.completion.0.role': 'assistant',
            'gen_ai.completion.0.content': 'Quantum computing uses quantum mechanics...',
          }),
        });
        expect(call.inputs).toEqual({
          'gen_ai.prompt': [
            { role: 'system', content: 'You are an expert in quantum physics' },
            { role: 'user', content: 'Tell me about quantum computing' },
          ],
        });
        expect(call.output).toEqual({
          'gen_ai.completion': [{ role: 'assistant', content: 'Quantum computing uses quantum mechanics...' }],
        });
      });

      it('test_opentelemetry_usage_extraction and _output_tokens_*: counts read, total computed unless given', async () => {
        const named = await one({
          attributes: kvs({ 'gen_ai.usage.prompt_tokens': 15, 'gen_ai.usage.completion_tokens': 25, 'llm.usage.total_tokens': 40 }),
        });
        expect(usageOf(named.call)).toMatchObject({ prompt_tokens: 15, completion_tokens: 25, total_tokens: 40 });
        const computed = await one({ attributes: kvs({ 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 20 }) });
        expect(usageOf(computed.call)).toMatchObject({ input_tokens: 10, output_tokens: 20, total_tokens: 30 });
        const explicit = await one({
          attributes: kvs({ 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 20, 'llm.usage.total_tokens': 35 }),
        });
        expect(usageOf(explicit.call)).toMatchObject({ input_tokens: 10, output_tokens: 20, total_tokens: 35 });
      });

      it('test_opentelemetry_cost_calculation: gpt-4 priced at the default rates with include_costs, no costs without', async () => {
        const attributes = kvs({
          'gen_ai.request.model': 'gpt-4',
          'gen_ai.usage.prompt_tokens': 1_000_000,
          'gen_ai.usage.completion_tokens': 2_000_000,
        });
        const { P, call } = await one({ name: 'llm_call_gpt4', attributes }, { include_costs: true });
        const { effective_date, created_at, ...cost } = call.summary.weave.costs['gpt-4'];
        expect(effective_date).toBeTruthy();
        expect(created_at).toBeTruthy();
        // The newest reference's entries also carry the cache-token fields (0 here); Weft's do too.
        expect(cost).toMatchObject({
          prompt_tokens: 1_000_000,
          completion_tokens: 2_000_000,
          requests: 0,
          total_tokens: 3_000_000,
          prompt_tokens_total_cost: expect.closeTo(30, 6),
          completion_tokens_total_cost: expect.closeTo(120, 6),
          prompt_token_cost: 3e-5,
          completion_token_cost: 6e-5,
          prompt_token_cost_unit: 'USD',
          completion_token_cost_unit: 'USD',
          provider_id: 'openai',
          pricing_level: 'default',
          pricing_level_id: 'default',
          created_by: 'system',
        });
        const [plain] = await calls(P);
        expect(plain.summary.weave?.costs).toBeUndefined();
      });

      it('test_bedrock_agent_event_input_output_and_tools: span events hydrate inputs and output', async () => {
        const question = 'How to see configs of runs in W&B Models?';
        const answer = 'Based on the search results, I can now provide you with information...';
        const { call } = await one({
          attributes: kvs({
            system_prompt: 'You are a helpful documentation assistant for W&B Weave.',
            'gen_ai.agent.tools': ['SearchWeightsBiasesDocumentation', 'http_request'],
            'gen_ai.agent.name': 'Strands Agents',
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.request.model': 'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
          }),
          events: [
            { name: 'gen_ai.user.message', attributes: { content: [{ text: question }] } },
            { name: 'gen_ai.choice', attributes: { message: answer, finish_reason: 'end_turn' } },
          ],
        });
        const asked = call.inputs['events.gen_ai.user.message'];
        expect(Array.isArray(asked)).toBe(true);
        expect(asked[0].content[0].text).toBe(question);
        const chosen = call.output['events.gen_ai.choice'];
        expect(Array.isArray(chosen)).toBe(true);
        expect(chosen[0].message).toBe(answer);
        expect(call.attributes).toMatchObject({
          system: 'You are a helpful documentation assistant for W&B Weave.',
          tools: ['SearchWeightsBiasesDocumentation', 'http_request'],
          agent: 'Strands Agents',
          operation: 'invoke_agent',
          model: 'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
        });
      });
    });

    describe('TestSpanOverrides', () => {
      it('test_get_span_overrides: langfuse ISO start and end times replace the span times', async () => {
        const { call } = await one({
          attributes: kvs({
            'langfuse.startTime': '2023-01-01T10:00:00',
            'langfuse.endTime': '2023-01-01T10:01:30',
            'other.attribute': 'value',
          }),
        });
        expect(Date.parse(call.started_at)).toBe(Date.UTC(2023, 0, 1, 10));
        expect(Date.parse(call.ended_at)).toBe(Date.UTC(2023, 0, 1, 10, 1, 30));
      });

      it('test_get_span_overrides_with_timestamps: nanoseconds (int) and seconds (double) since the epoch', async () => {
        const { call } = await one({
          attributes: [
            { key: 'langfuse.startTime', value: { intValue: '1672574400000000000' } },
            doubleKv('langfuse.endTime', 1_672_574_460.0),
          ],
        });
        expect(Date.parse(call.started_at)).toBe(Date.UTC(2023, 0, 1, 12));
        expect(Math.abs(Date.parse(call.ended_at) - Date.parse(call.started_at) - 60_000)).toBeLessThan(1000);
      });

      it('test_get_span_overrides_with_missing_attributes: the span times stand', async () => {
        const { call } = await one({ attributes: kvs({ 'some.attribute': 'value', 'other.attribute': 123 }) });
        expect(Date.parse(call.started_at)).toBe(Date.UTC(2026, 0, 1));
        expect(Date.parse(call.ended_at)).toBe(Date.UTC(2026, 0, 1, 0, 0, 1));
      });
    });
  });
}
