/**
 * Lighter web Requests and Responses for a request thread (requestWorker.ts). The app is Hono,
 * which takes a web Request and answers a web Response; undici's cost ~17 µs of CPU to build a
 * Request with a signal, and ~9 µs to build a Response and read its body back out of its
 * stream, per request whose own work is ~150 µs (an evaluation's score: read the prediction,
 * write the call and its feedback). @hono/node-server does the same on the main thread (its
 * "lightweight" Request and Response); these do it in the threads, which get their requests as
 * messages rather than from a socket.
 *
 * - `threadRequest` answers url, method, headers and signal itself, and builds the real
 *   undici Request only if anything else is asked for (no route reads the body from it: the
 *   body arrives as bytes, http/bodyLimit.ts).
 * - `LightResponse` replaces the thread's global `Response` (installLightResponse), so Hono's
 *   `c.json()` and our `Response.json()` make one. It keeps a text or byte body as it is, and
 *   `wholeBody` hands it to the thread's message unread; anything else (a stream, a form, a
 *   property only undici has) builds the real Response, which then answers for it.
 */

const UndiciResponse = globalThis.Response;

const FIELDS = Symbol('fields');
const REAL = Symbol('real');

interface RequestFields {
  url: string;
  method: string;
  pairs: [string, string][];
  signal: AbortSignal;
  headers?: Headers;
}

type LightRequest = Request & { [FIELDS]: RequestFields; [REAL]?: Request };

function realRequest(req: LightRequest): Request {
  const f = req[FIELDS];
  return (req[REAL] ??= new Request(f.url, { method: f.method, headers: req.headers, signal: f.signal }));
}

const requestPrototype: object = Object.create(Request.prototype, {
  url: {
    get: function (this: LightRequest) {
      return this[FIELDS].url;
    },
  },
  method: {
    get: function (this: LightRequest) {
      return this[FIELDS].method;
    },
  },
  signal: {
    get: function (this: LightRequest) {
      return this[FIELDS].signal;
    },
  },
  headers: {
    get: function (this: LightRequest) {
      const f = this[FIELDS];
      return (f.headers ??= new Headers(f.pairs));
    },
  },
});
for (const key of [
  'body',
  'bodyUsed',
  'cache',
  'credentials',
  'destination',
  'duplex',
  'integrity',
  'keepalive',
  'mode',
  'redirect',
  'referrer',
  'referrerPolicy',
])
  Object.defineProperty(requestPrototype, key, {
    get: function (this: LightRequest) {
      return (realRequest(this) as unknown as Record<string, unknown>)[key];
    },
  });
for (const key of ['arrayBuffer', 'blob', 'bytes', 'clone', 'formData', 'json', 'text'])
  Object.defineProperty(requestPrototype, key, {
    value: function (this: LightRequest) {
      const real = realRequest(this) as unknown as Record<string, () => unknown>;
      return real[key]!.call(real);
    },
  });

/** A Request of `method` for `url` with these headers and this signal, and no body. */
export function threadRequest(url: string, method: string, pairs: [string, string][], signal: AbortSignal): Request {
  const req = Object.create(requestPrototype) as LightRequest;
  req[FIELDS] = { url, method, pairs, signal };
  return req;
}

/** A body kept as it is: text, bytes, or none. */
type Kept = string | Uint8Array | null;

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const isKept = (body: unknown): body is Kept =>
  body === null || body === undefined || typeof body === 'string' || body instanceof Uint8Array;

export class LightResponse {
  #kept: { body: Kept; status: number; statusText: string; headers: Headers } | null = null;
  #real: Response | null = null;

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    // Another Response as the init (`new Response(res.body, res)`) is undici's to copy.
    if (!isKept(body) || init instanceof UndiciResponse) {
      this.#real = new UndiciResponse(body, init);
      return;
    }
    const status = init?.status ?? 200;
    // undici's checks, so a bad status fails here as it would there.
    if (!Number.isInteger(status) || status < 200 || status > 599)
      throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
    if (body != null && NULL_BODY_STATUSES.has(status)) throw new TypeError(`Response with null body status ${status} cannot have body`);
    const headers = new Headers(init?.headers);
    if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    this.#kept = { body: body ?? null, status, statusText: init?.statusText ?? '', headers };
  }

  static json(data: unknown, init?: ResponseInit): Response {
    const headers = new Headers(init?.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new LightResponse(JSON.stringify(data), { ...init, headers }) as unknown as Response;
  }

  /** `x instanceof Response` holds for undici's own Responses too (fetch's, Response.error()'s). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof UndiciResponse;
  }

  /** A LightResponse, as opposed to undici's (which `instanceof` also accepts, above). */
  static is(value: unknown): value is LightResponse {
    return typeof value === 'object' && value !== null && #real in value;
  }

  get status(): number {
    return this.#kept ? this.#kept.status : this.#real!.status;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get statusText(): string {
    return this.#kept ? this.#kept.statusText : this.#real!.statusText;
  }

  get headers(): Headers {
    return this.#kept ? this.#kept.headers : this.#real!.headers;
  }

  /** The body as it was given, when nothing has read it: what `wholeBody` sends. */
  keptBody(): { body: Kept } | null {
    return this.#kept ? { body: this.#kept.body } : null;
  }

  /** The undici Response, from now on the one that answers (its headers are a copy of these). */
  real(): Response {
    if (!this.#real) {
      const k = this.#kept!;
      this.#real = new UndiciResponse(k.body as BodyInit | null, { status: k.status, statusText: k.statusText, headers: k.headers });
      this.#kept = null;
    }
    return this.#real;
  }
}
for (const key of ['body', 'bodyUsed', 'redirected', 'trailers', 'type', 'url'])
  Object.defineProperty(LightResponse.prototype, key, {
    get: function (this: LightResponse) {
      return (this.real() as unknown as Record<string, unknown>)[key];
    },
  });
for (const key of ['arrayBuffer', 'blob', 'bytes', 'clone', 'formData', 'json', 'text'])
  Object.defineProperty(LightResponse.prototype, key, {
    value: function (this: LightResponse) {
      const real = this.real() as unknown as Record<string, () => unknown>;
      return real[key]!.call(real);
    },
  });
Object.setPrototypeOf(LightResponse.prototype, UndiciResponse.prototype);
Object.setPrototypeOf(LightResponse, UndiciResponse);

/** Makes `Response` in this thread a LightResponse (once; the thread runs nothing but the app). */
export function installLightResponse(): void {
  if (globalThis.Response !== (LightResponse as unknown as typeof Response))
    Object.defineProperty(globalThis, 'Response', { value: LightResponse, writable: true, configurable: true });
}

/**
 * The whole answer of a response whose body was given as text or bytes and never read: status,
 * headers and body bytes, without a stream. Null for any other response (stream it).
 */
export function wholeBody(res: Response): { status: number; headers: [string, string][]; body: Uint8Array | null } | null {
  if (!LightResponse.is(res)) return null;
  const kept = res.keptBody();
  if (!kept) return null;
  const { body } = kept;
  return {
    status: res.status,
    headers: [...res.headers],
    // Bytes the app gave may be kept elsewhere (a cache): the thread transfers a copy.
    body: body === null ? null : typeof body === 'string' ? encoder.encode(body) : body.slice(),
  };
}

const encoder = new TextEncoder();
