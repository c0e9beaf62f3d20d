/** The one place errors become HTTP answers. 4xx is logged at warn, 5xx at error with the cause. */
import { ApiError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { fromEngineError } from './engineErrors.js';

export function toErrorResponse(thrown: unknown, log: Logger, where: string): Response {
  const err = fromEngineError(thrown) ?? thrown;
  if (err instanceof ValidationError) {
    log.warn(`${where} 422 ${err.message}`);
    return Response.json({ detail: err.issues }, { status: 422 });
  }
  if (err instanceof ApiError) {
    if (err.status >= 500) log.error(`${where} ${err.status} ${err.message}`, err);
    else log.warn(`${where} ${err.status} ${err.message}`);
    const headers: Record<string, string> = {};
    if (err.status === 401) headers['www-authenticate'] = 'Basic realm="weft", charset="UTF-8"';
    return Response.json({ reason: err.message, ...err.extra }, { status: err.status, headers });
  }
  log.error(`${where} 500`, err);
  return Response.json({ reason: 'Internal server error' }, { status: 500 });
}
