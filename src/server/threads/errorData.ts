/**
 * Errors crossing a thread boundary: structured clone keeps neither the class nor the fields
 * `toErrorResponse` needs, so an error is sent as data and rebuilt as the same kind of error
 * (an ApiError keeps its status and extra fields, a ValidationError its issues, an SQLite error
 * its code).
 */
import type { ValidationIssue } from '../../contract/errors.js';
import * as errorClasses from '../errors.js';
import { ApiError, ValidationError } from '../errors.js';
import type { ErrorData } from './messages.js';

export function toErrorData(err: unknown): ErrorData {
  if (err instanceof ValidationError) return { message: err.message, name: err.name, status: 422, issues: err.issues };
  if (err instanceof ApiError) return { message: err.message, name: err.name, status: err.status, extra: err.extra, headers: err.headers };
  if (err instanceof Error) return { message: err.message, name: err.name, code: (err as { code?: string }).code };
  return { message: String(err) };
}

export function fromErrorData(data: ErrorData): Error {
  if (data.issues) return new ValidationError(data.issues as ValidationIssue[]);
  if (data.status !== undefined) {
    const err = new ApiError(data.status, data.message, data.extra ?? {}, { headers: data.headers ?? {} });
    if (data.name) err.name = data.name;
    // The same class again (UnauthorizedError, NotFoundError, ...), so `instanceof` checks on
    // this side (domain/accounts/sessions.ts turns an UnauthorizedError into "current password is wrong") hold.
    const cls = (errorClasses as Record<string, unknown>)[data.name ?? ''];
    if (typeof cls === 'function' && cls.prototype instanceof ApiError) Object.setPrototypeOf(err, cls.prototype as object);
    return err;
  }
  const err = new Error(data.message) as Error & { code?: string };
  if (data.name) err.name = data.name;
  if (data.code) err.code = data.code;
  return err;
}
