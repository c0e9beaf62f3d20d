/** Errors that cross between a request thread and the main thread keep their class, status and headers. */
import { describe, expect, it } from 'vitest';
import { TooManyRequestsError, UnauthorizedError, ValidationError } from '../errors.js';
import { fromErrorData, toErrorData } from './errorData.js';

const roundTrip = (err: unknown) => fromErrorData(structuredClone(toErrorData(err)));

describe('errors across threads', () => {
  it('rebuilds the same ApiError class, so instanceof checks on the other side hold', () => {
    const err = roundTrip(new UnauthorizedError('Wrong username or password'));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as UnauthorizedError).status).toBe(401);
    expect(err.message).toBe('Wrong username or password');
  });

  it('keeps Retry-After and the extra fields of a 429', () => {
    const err = roundTrip(new TooManyRequestsError('Too many failed sign-ins', 42)) as TooManyRequestsError;
    expect(err).toBeInstanceOf(TooManyRequestsError);
    expect(err.headers).toEqual({ 'retry-after': '42' });
    expect(err.extra).toEqual({ retry_after: 42 });
  });

  it("keeps a validation error's issues", () => {
    const issues = [{ loc: ['body', 'x'], msg: 'bad', type: 'value_error' }];
    const err = roundTrip(new ValidationError(issues));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual(issues);
  });
});
