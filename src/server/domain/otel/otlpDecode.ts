/**
 * Reads an OTLP `ExportTraceServiceRequest`, protobuf or JSON, into one plain shape.
 *
 * The protobuf messages are declared inline below with the field numbers of
 * opentelemetry-proto (trace/v1/trace.proto, common/v1/common.proto, resource/v1/resource.proto,
 * collector/trace/v1/trace_service.proto); only what span → call needs is declared, and
 * protobuf skips the rest. Field names are the OTLP/JSON (lowerCamelCase) ones, so both
 * encodings go through the same normaliser. JSON ids are hex (OTLP/JSON), base64 is accepted
 * too; snake_case keys and enum names are accepted as the protobuf JSON mapping allows.
 */
import protobuf from 'protobufjs';
import { BadRequestError } from '../../errors.js';

/** An attribute value: bytes become base64 text, int64 a number (or text beyond 2^53). */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type KeyValue = [key: string, value: AttrValue];

export interface OtlpEvent {
  name: string;
  timeUnixNano: bigint;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

export interface OtlpLink {
  traceId: string;
  spanId: string;
  traceState: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  traceState: string;
  name: string;
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: KeyValue[];
  events: OtlpEvent[];
  links: OtlpLink[];
  status: { code: number; message: string };
}

export interface OtlpResourceSpans {
  resource: { attributes: KeyValue[]; droppedAttributesCount: number };
  spans: OtlpSpan[];
}

const f = (id: number, type: string, rule?: 'repeated') => (rule ? { id, type, rule } : { id, type });

const root = protobuf.Root.fromJSON({
  nested: {
    ExportTraceServiceRequest: { fields: { resourceSpans: f(1, 'ResourceSpans', 'repeated') } },
    ResourceSpans: { fields: { resource: f(1, 'Resource'), scopeSpans: f(2, 'ScopeSpans', 'repeated') } },
    Resource: { fields: { attributes: f(1, 'KeyValue', 'repeated'), droppedAttributesCount: f(2, 'uint32') } },
    ScopeSpans: { fields: { spans: f(2, 'Span', 'repeated') } },
    Span: {
      fields: {
        traceId: f(1, 'bytes'),
        spanId: f(2, 'bytes'),
        traceState: f(3, 'string'),
        parentSpanId: f(4, 'bytes'),
        name: f(5, 'string'),
        kind: f(6, 'int32'),
        startTimeUnixNano: f(7, 'fixed64'),
        endTimeUnixNano: f(8, 'fixed64'),
        attributes: f(9, 'KeyValue', 'repeated'),
        events: f(11, 'Event', 'repeated'),
        links: f(13, 'Link', 'repeated'),
        status: f(15, 'Status'),
      },
    },
    Event: {
      fields: {
        timeUnixNano: f(1, 'fixed64'),
        name: f(2, 'string'),
        attributes: f(3, 'KeyValue', 'repeated'),
        droppedAttributesCount: f(4, 'uint32'),
      },
    },
    Link: {
      fields: {
        traceId: f(1, 'bytes'),
        spanId: f(2, 'bytes'),
        traceState: f(3, 'string'),
        attributes: f(4, 'KeyValue', 'repeated'),
        droppedAttributesCount: f(5, 'uint32'),
      },
    },
    Status: { fields: { message: f(2, 'string'), code: f(3, 'int32') } },
    KeyValue: { fields: { key: f(1, 'string'), value: f(2, 'AnyValue') } },
    AnyValue: {
      oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
      fields: {
        stringValue: f(1, 'string'),
        boolValue: f(2, 'bool'),
        intValue: f(3, 'int64'),
        doubleValue: f(4, 'double'),
        arrayValue: f(5, 'ArrayValue'),
        kvlistValue: f(6, 'KeyValueList'),
        bytesValue: f(7, 'bytes'),
      },
    },
    ArrayValue: { fields: { values: f(1, 'AnyValue', 'repeated') } },
    KeyValueList: { fields: { values: f(1, 'KeyValue', 'repeated') } },
  },
});
const ExportRequest = root.lookupType('ExportTraceServiceRequest');

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A field by its OTLP/JSON name or its proto (snake_case) name. */
const pick = (o: Json, camel: string): unknown => o[camel] ?? o[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];

/** Hex id from OTLP/JSON hex, or base64 (protobuf bytes, older JSON senders); '' when absent. */
function toHexId(v: unknown, hexLength: number): string {
  if (typeof v !== 'string' || v === '') return '';
  if (v.length === hexLength && /^[0-9a-fA-F]+$/.test(v)) return v.toLowerCase();
  return Buffer.from(v, 'base64').toString('hex');
}

function toBigInt(v: unknown): bigint {
  try {
    return typeof v === 'string' || typeof v === 'number' ? BigInt(v) : 0n;
  } catch {
    return 0n;
  }
}

const toInt = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : 0);

/** Enum fields arrive as numbers, or as their names in JSON. */
function toEnum(v: unknown, names: string[]): number {
  if (typeof v === 'string' && !/^\d+$/.test(v)) return Math.max(0, names.indexOf(v));
  return toInt(v);
}
const SPAN_KINDS = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
];
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];

function anyValue(v: unknown): AttrValue {
  const o = obj(v);
  if ('stringValue' in o || 'string_value' in o) return String(pick(o, 'stringValue'));
  if ('boolValue' in o || 'bool_value' in o) return Boolean(pick(o, 'boolValue'));
  if ('intValue' in o || 'int_value' in o) {
    const n = toBigInt(pick(o, 'intValue'));
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
  }
  if ('doubleValue' in o || 'double_value' in o) return Number(pick(o, 'doubleValue'));
  if ('arrayValue' in o || 'array_value' in o) return list(obj(pick(o, 'arrayValue')).values).map(anyValue);
  if ('kvlistValue' in o || 'kvlist_value' in o) return Object.fromEntries(keyValues(obj(pick(o, 'kvlistValue')).values));
  if ('bytesValue' in o || 'bytes_value' in o) return String(pick(o, 'bytesValue'));
  return null;
}

const keyValues = (v: unknown): KeyValue[] => list(v).map((kv) => [String(obj(kv).key ?? ''), anyValue(obj(kv).value)]);

function span(v: unknown): OtlpSpan {
  const s = obj(v);
  const status = obj(s.status);
  return {
    traceId: toHexId(pick(s, 'traceId'), 32),
    spanId: toHexId(pick(s, 'spanId'), 16),
    parentSpanId: toHexId(pick(s, 'parentSpanId'), 16) || null,
    traceState: String(pick(s, 'traceState') ?? ''),
    name: String(s.name ?? ''),
    kind: toEnum(s.kind, SPAN_KINDS),
    startTimeUnixNano: toBigInt(pick(s, 'startTimeUnixNano')),
    endTimeUnixNano: toBigInt(pick(s, 'endTimeUnixNano')),
    attributes: keyValues(s.attributes),
    events: list(s.events).map((e) => ({
      name: String(obj(e).name ?? ''),
      timeUnixNano: toBigInt(pick(obj(e), 'timeUnixNano')),
      attributes: keyValues(obj(e).attributes),
      droppedAttributesCount: toInt(pick(obj(e), 'droppedAttributesCount')),
    })),
    links: list(s.links).map((l) => ({
      traceId: toHexId(pick(obj(l), 'traceId'), 32),
      spanId: toHexId(pick(obj(l), 'spanId'), 16),
      traceState: String(pick(obj(l), 'traceState') ?? ''),
      attributes: keyValues(obj(l).attributes),
      droppedAttributesCount: toInt(pick(obj(l), 'droppedAttributesCount')),
    })),
    status: { code: toEnum(status.code, STATUS_CODES), message: String(status.message ?? '') },
  };
}

/** The request in its JSON shape (both encodings) as resource spans, scopes flattened. */
function normalise(request: unknown): OtlpResourceSpans[] {
  return list(pick(obj(request), 'resourceSpans')).map((rs) => {
    const resource = obj(obj(rs).resource);
    return {
      resource: { attributes: keyValues(resource.attributes), droppedAttributesCount: toInt(pick(resource, 'droppedAttributesCount')) },
      spans: list(pick(obj(rs), 'scopeSpans')).flatMap((ss) => list(obj(ss).spans).map(span)),
    };
  });
}

/** Decodes the body by its content type: protobuf (the OTLP default) or JSON. */
export function decodeOtlp(body: Uint8Array, contentType: string | null): OtlpResourceSpans[] {
  const type = (contentType ?? 'application/x-protobuf').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') {
    try {
      return normalise(JSON.parse(new TextDecoder().decode(body)));
    } catch (err) {
      throw new BadRequestError(`Cannot read the OTLP/JSON body: ${(err as Error).message}`);
    }
  }
  if (type !== 'application/x-protobuf' && type !== 'application/protobuf') {
    throw new BadRequestError(`Unsupported Content-Type "${type}"; OTLP/HTTP sends application/x-protobuf or application/json`);
  }
  try {
    const message = ExportRequest.decode(body);
    return normalise(ExportRequest.toObject(message, { longs: String, bytes: String, enums: Number }));
  } catch (err) {
    throw new BadRequestError(`Cannot decode the OTLP protobuf body: ${(err as Error).message}`);
  }
}
