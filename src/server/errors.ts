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
  constructor(status: number, reason: string, extra: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = new.target.name;
    this.status = status;
    this.extra = extra;
  }
}

/** 400: the request is well-formed but cannot be done. */
export class BadRequestError extends ApiError {
  constructor(reason: string) {
    super(400, reason);
  }
}

/** 401: no or wrong credentials. */
export class UnauthorizedError extends ApiError {
  constructor(reason = 'Authentication required: send HTTP Basic credentials (user:password, or api:<api key>)') {
    super(401, reason);
  }
}

/** 403: the caller may not touch this project, or the query names a forbidden field. */
export class ForbiddenError extends ApiError {
  constructor(reason: string) {
    super(403, reason);
  }
}

/** 404: the thing asked for does not exist (or was deleted: pass `deleted_at`). */
export class NotFoundError extends ApiError {
  constructor(reason: string, extra: Record<string, unknown> = {}) {
    super(404, reason, extra);
  }
}

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
