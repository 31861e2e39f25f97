import { describe, expect, it } from 'vitest';
import { toAppError } from '../../src/server/http/envelope.ts';

/** What a caller is told when the database cannot be reached: try again soon, not "something broke". */
describe('a database out of reach', () => {
  const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

  it('is 503 database_unavailable with a Retry-After, however the driver says it', () => {
    for (const cause of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      new Error('Connection terminated unexpectedly'),
    ]) {
      const error = toAppError(wrapped(cause));
      expect(error.errorKey, cause.message).toBe('database_unavailable');
      expect(error.status).toBe(503);
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
    }
  });

  it('is not what other failures become', () => {
    expect(toAppError(wrapped(Object.assign(new Error('duplicate key'), { code: '23505' }))).errorKey).toBe('internal');
    // A visitor closing their connection mid-request is not the database going away.
    expect(toAppError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })).errorKey).toBe('bad_request');
    expect(toAppError(new TypeError('x is undefined')).errorKey).toBe('internal');
  });
});
