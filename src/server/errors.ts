/**
 * Typed errors. Handlers, domain code and stores throw these; `toErrorResponse` in
 * `http/respond.ts` is the one place that turns them into HTTP answers (`{"reason": ...}`, or
 * 422 `{"detail": [...]}`). They live beside the server, not in `http/`, so that domain and
 * store code can throw them without depending on the HTTP layer. `cause` keeps the underlying
 * error (an engine or upstream failure) for the log, as hono's HTTPException does; it is never
 * sent to the caller.
 */
import type { ValidationIssue } from '../contract/errors.js';

/** An error with an HTTP status and a message safe to show the caller. */
export class ApiError extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  /** Response headers the answer must carry (`Retry-After` on 429/503). */
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    reason: string,
    extra: Record<string, unknown> = {},
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(reason, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.extra = extra;
    this.headers = options?.headers ?? {};
  }
}

/** 400: the request is well-formed but cannot be done. */
export class BadRequestError extends ApiError {
  constructor(reason: string) {
    super(400, reason);
  }
}

/**
 * 400: an object id already names live versions of another base class (the newest reference's
 * ObjectNameTypeCollision: refs carry no type, so one name holds one type per project). Message
 * and body fields as its error registry formats them.
 */
export class ObjectNameTypeCollisionError extends ApiError {
  constructor(req: { objectId: string; kind: string; newBaseObjectClass: string | null; existingBaseObjectClasses: (string | null)[] }) {
    const describe = (c: string | null) => (c === null ? 'a generic (untyped) object' : `a ${c}`);
    const existing = [...new Set(req.existingBaseObjectClasses.map(describe))].join(' or ');
    super(
      400,
      `Cannot publish ${pythonRepr(req.objectId)} as ${describe(req.newBaseObjectClass)}: that name is already used by ${existing} in this project. ` +
        'Object versions cannot share types, publish this object under a different name.',
      {
        error_type: 'ObjectNameTypeCollision',
        object_id: req.objectId,
        kind: req.kind,
        new_base_object_class: req.newBaseObjectClass,
        existing_base_object_classes: req.existingBaseObjectClasses,
        object_name: null,
      },
    );
  }
}

/** A string as Python's repr() prints it (the reference formats the id with `!r`). */
function pythonRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  return quote + s.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`) + quote;
}

/** 401: no or wrong credentials. */
export class UnauthorizedError extends ApiError {
  constructor(
    reason = 'Authentication required: sign in to the dashboard, or send HTTP Basic credentials (user:password, or api:<api key>) or `Authorization: Bearer <api key>`',
  ) {
    super(401, reason);
  }
}

/** 403: the caller may not touch this project. */
export class ForbiddenError extends ApiError {
  constructor(reason: string) {
    super(403, reason);
  }
}

/**
 * 422: a query or sort names a field calls do not have. The newest reference's error registry
 * maps its InvalidFieldError to 422 (it was 403, which clients read as "no access"). The body
 * keeps the reference's `reason` and `error_type` (its Python client rebuilds the exception from
 * them) and adds Weft's usual 422 `detail`, so either kind of client finds a clear message.
 */
export class InvalidFieldError extends ApiError {
  constructor(field: string, reason: string) {
    super(422, reason, {
      error_type: 'InvalidFieldError',
      detail: [{ loc: ['body', 'field', field], msg: reason, type: 'invalid_field' }],
    });
  }
}

/** 404: the thing asked for does not exist (or was deleted: pass `deleted_at`). */
export class NotFoundError extends ApiError {
  constructor(reason: string, extra: Record<string, unknown> = {}) {
    super(404, reason, extra);
  }
}

/**
 * 404: a queue item that is not live in its queue. Its own class so an endpoint can answer it
 * otherwise (progress updates answer 400, as the reference does).
 */
export class QueueItemNotFoundError extends NotFoundError {}

/** 409: the request conflicts with what is stored. */
export class ConflictError extends ApiError {
  constructor(reason: string) {
    super(409, reason);
  }
}

/** 413: the request is larger than the server accepts. */
export class TooLargeError extends ApiError {
  constructor(reason = 'Request too large') {
    super(413, reason);
  }
}

/** 422: the request does not match the contract. */
export class ValidationError extends ApiError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super(422, issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.issues = issues;
  }
}

/** 415: the body's Content-Type is one this endpoint does not read. */
export class UnsupportedMediaTypeError extends ApiError {
  constructor(reason: string) {
    super(415, reason);
  }
}

/** 429: too many attempts; `Retry-After` says when to try again. */
export class TooManyRequestsError extends ApiError {
  constructor(reason: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, reason, { retry_after: seconds }, { headers: { 'retry-after': String(seconds) } });
  }
}

/** 503: the server is busy with this kind of work right now; `Retry-After` says when to try again. */
export class ServiceUnavailableError extends ApiError {
  constructor(reason: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(503, reason, { retry_after: seconds }, { headers: { 'retry-after': String(seconds) } });
  }
}
