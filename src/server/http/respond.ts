/** The one place errors become HTTP answers. 4xx is logged at warn, 5xx at error with the cause. */
import { ApiError, ValidationError } from '../errors.js';
import type { LogFields, Logger } from '../logger.js';
import { fromEngineError } from './engineErrors.js';

/** `fields` name the request (http/requestId.ts requestFields), so the line can be found beside its access-log line. */
export function toErrorResponse(thrown: unknown, log: Logger, where: string, fields?: LogFields): Response {
  const err = fromEngineError(thrown) ?? thrown;
  if (err instanceof ValidationError) {
    log.warn(`${where} 422 ${err.message}`, fields);
    return Response.json({ detail: err.issues }, { status: 422 });
  }
  if (err instanceof ApiError) {
    if (err.status >= 500) log.error(`${where} ${err.status} ${err.message}`, err, fields);
    else log.warn(`${where} ${err.status} ${err.message}`, fields);
    // No `WWW-Authenticate: Basic` on 401: a browser that sees that challenge asks for a password
    // and then replays it on every request to this origin, cross-site form posts included (CSRF).
    // The SDKs (Python and npm `weave`) and OTel exporters send their credentials up front and
    // never wait for a challenge; the dashboard signs in with its own form.
    return Response.json({ reason: err.message, ...err.extra }, { status: err.status, headers: err.headers });
  }
  log.error(`${where} 500`, err, fields);
  return Response.json({ reason: 'Internal server error' }, { status: 500 });
}
