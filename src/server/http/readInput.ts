/**
 * Input decoding for every endpoint: where an endpoint's fields come from (path, query string,
 * JSON body, multipart form), the body read within its size limit (gzip/deflate decoded for
 * binary and multipart bodies; a compressed JSON body is refused with 415), the request-size and JSON-depth checks, string coercion for path and
 * query values, and validation against the endpoint's request schema (422 on failure). The
 * JSON body text is kept for handlers that re-read it losslessly (digests tell `1.0` from `1`).
 * defineRoutes.ts calls `readInput` once per request, after authentication.
 */
import type { Context } from 'hono';
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import type { EndpointDef } from '../../contract/endpoints.js';
import { ApiError, BadRequestError, TooLargeError, ValidationError } from '../errors.js';
import type { Limits } from '../limits.js';
import { readLimitedBody, type BodyLimitKey } from './bodyLimit.js';
import { assertJsonContentType } from './contentType.js';
import { assertJsonDepth } from './jsonDepth.js';
import { assertRequestLimits } from './requestLimits.js';
import { coerceStrings, validate, type InputSource } from './validate.js';
import { requestHeader } from './requestHeader.js';

/** A request's decoded input. */
export interface DecodedInput<I> {
  /** The fields, validated against the endpoint's request schema. */
  input: I;
  /** The request bytes (after Content-Encoding) of `body: 'binary'` endpoints; null otherwise. */
  bytes: Uint8Array | null;
  /** The JSON body text as received; null for GET/DELETE, binary and multipart bodies. */
  text: string | null;
}

/**
 * A route's cheap parse of its input fields (RouteDef.fastInput): the fields as the schema would
 * give them, or null to have the schema parse them. It must never accept what the schema refuses.
 */
export type FastInput<I> = (raw: Record<string, unknown>) => I | null;

/** Reads, checks and validates the input of a request to `endpoint`. */
export async function readInput<I>(c: Context, endpoint: EndpointDef, limits: Limits, fastInput?: FastInput<I>): Promise<DecodedInput<I>> {
  const binary = endpoint.body === 'binary';
  const bytes = binary ? await readBinaryBody(c, limits, 'maxBodyBytes') : null;
  const fieldsFrom =
    binary || endpoint.method === 'GET' || endpoint.method === 'DELETE' ? 'query' : endpoint.body === 'multipart' ? 'form' : 'json';
  if (fieldsFrom === 'json') {
    assertJsonContentType(requestHeader(c, 'content-type'));
    assertIdentityEncoding(requestHeader(c, 'content-encoding'));
  }
  const { raw, sourceOf, text, body } = await readFields(c, fieldsFrom, limits);
  // Query sizes first: they are checked in time linear in the list lengths, before walking the whole body.
  assertRequestLimits(raw, limits);
  // The whole body, not just the fields taken from it: handlers may re-read the raw text.
  assertJsonDepth(body, limits);
  coerceStrings(endpoint.req, raw, (k) => sourceOf(k) !== 'body');
  const input = fastInput?.(raw) ?? (validate(endpoint.req, raw, sourceOf) as I);
  return { input, bytes, text };
}

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/**
 * The raw body of a `body: 'binary'` endpoint, gzip/deflate decoded per Content-Encoding.
 * The size limit holds before and after decoding, so a small compressed bomb is refused too.
 */
async function readBinaryBody(c: Context, limits: Limits, key: BodyLimitKey): Promise<Uint8Array> {
  const maxBytes = limits[key];
  const bytes = await readLimitedBody(c, limits, key);
  const encoding = (requestHeader(c, 'content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return bytes;
  const decode = encoding === 'gzip' || encoding === 'x-gzip' ? gunzipAsync : encoding === 'deflate' ? inflateAsync : null;
  if (!decode) throw new ApiError(415, `Unsupported Content-Encoding "${encoding}"; send gzip, deflate or none`);
  try {
    return new Uint8Array(await decode(bytes, { maxOutputLength: maxBytes }));
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new TooLargeError(
        `The ${encoding} body decodes to more than ${maxBytes} bytes; the limit is ${maxBytes} (${key === 'maxFileBytes' ? 'WEFT_MAX_FILE_BYTES' : 'WEFT_MAX_BODY_BYTES'})`,
      );
    }
    throw new BadRequestError(`Cannot decode the ${encoding} body: ${(err as Error).message}`);
  }
}

/**
 * JSON bodies are read as sent: no Weave client compresses them, and decoding them would let a
 * small compressed body on a path served on the main thread expand to the whole body limit
 * there. Refusing says so, where reading the compressed bytes as JSON would blame the JSON.
 * See docs/security/inputs.md.
 */
function assertIdentityEncoding(header: string | undefined): void {
  const encoding = (header ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return;
  throw new ApiError(
    415,
    `Content-Encoding "${encoding}" is not accepted for JSON bodies: send the JSON uncompressed (only the OTLP and file-upload endpoints decode gzip or deflate)`,
  );
}

/**
 * Path params, then the query string (GET/DELETE, binary bodies), the form fields (multipart)
 * or the JSON body, as one object; `text` is the JSON body text.
 */
async function readFields(c: Context, fieldsFrom: 'query' | 'json' | 'form', limits: Limits) {
  const sources = new Map<string, InputSource>();
  const raw: Record<string, unknown> = {};
  let text: string | null = null;
  let body: unknown = null;
  for (const [k, v] of Object.entries(c.req.param() as Record<string, string>)) {
    raw[k] = v;
    sources.set(k, 'path');
  }
  if (fieldsFrom === 'query') {
    for (const [k, values] of Object.entries(c.req.queries())) {
      if (sources.has(k)) continue;
      raw[k] = values.length === 1 ? values[0] : values;
      sources.set(k, 'query');
    }
  } else if (fieldsFrom === 'form') {
    for (const [k, v] of await readFormFields(c, limits)) if (!sources.has(k)) raw[k] = v;
  } else {
    text = await readBodyText(c, limits);
    body = text === null ? null : parseJson(text);
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      for (const [k, v] of Object.entries(body)) if (!sources.has(k)) raw[k] = v;
    } else if (body !== null) {
      throw new ValidationError([{ loc: ['body'], msg: 'Input should be a JSON object', type: 'model_attributes_type' }]);
    }
  }
  return {
    raw,
    text,
    body,
    sourceOf(key: string | number | undefined): InputSource {
      return sources.get(String(key)) ?? 'body';
    },
  };
}

/**
 * The fields of a multipart/form-data body (`body: 'multipart'` endpoints): text fields as
 * strings, file parts as `File`s, the last value winning. The size limit holds for the whole
 * body, read before parsing, so a body without Content-Length is bounded too.
 */
async function readFormFields(c: Context, limits: Limits): Promise<Map<string, FormDataEntryValue>> {
  const bytes = await readBinaryBody(c, limits, 'maxFileBytes');
  const contentType = requestHeader(c, 'content-type') ?? '';
  try {
    return new Map(await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData());
  } catch (err) {
    const msg = `Expected a multipart/form-data body: ${(err as Error).message}`;
    throw new ValidationError([{ loc: ['body'], msg, type: 'value_error' }]);
  }
}

/**
 * The body as UTF-8 text within the size limit, null when empty. It is read as JSON with no
 * Content-Type (the Python SDK sends none) or a JSON one; form types were refused before
 * (http/contentType.ts).
 */
async function readBodyText(c: Context, limits: Limits): Promise<string | null> {
  const bytes = await readLimitedBody(c, limits, 'maxBodyBytes');
  return bytes.byteLength === 0 ? null : new TextDecoder().decode(bytes);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ValidationError([{ loc: ['body'], msg: `JSON decode error: ${(err as Error).message}`, type: 'json_invalid' }]);
  }
}
