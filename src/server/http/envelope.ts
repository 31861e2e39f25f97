import type { ErrorEnvelope } from '../../lib/contract/errors.ts';
import type { Translate } from '../../lib/i18n.ts';
import { AppError, isAppError, isClientAbort, isDatabaseUnreachable, isInvalidTextInput } from './errors.ts';
import { currentRequest, log } from '../log.ts';

export interface SuccessEnvelope<T> {
  retCode: 0;
  result: T;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** A `{ retCode: 0, result }` answer. */
export function ok<T>(result: T, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify({ retCode: 0, result } satisfies SuccessEnvelope<T>), {
    ...init,
    headers: { ...JSON_HEADERS, ...(init.headers as Record<string, string> | undefined) },
  });
}

/** How soon a client may try again while the database is out of reach (`Retry-After`). */
const DATABASE_RETRY_SECONDS = 5;

/**
 * Any thrown value as an `AppError`: text PostgreSQL refuses is a bad request, the database out of
 * reach is `database_unavailable`, anything else unknown is internal.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  // Text PostgreSQL refuses, and a body its client stopped sending: the request's fault, nobody to tell.
  if (isInvalidTextInput(error) || isClientAbort(error)) return new AppError('bad_request');
  // For a moment, not a fault (the log has it as a warning).
  if (isDatabaseUnreachable(error)) return new AppError('database_unavailable', undefined, { retryAfterSeconds: DATABASE_RETRY_SECONDS });
  return new AppError('internal');
}

/**
 * The error envelope of `appError`, its message in the language of `t`. `retCode` is the answer's
 * HTTP status: the key's own, unless a protocol answers with another (tus refuses an unknown
 * upload 403 at creation and 404 afterwards).
 */
export function errorEnvelope(appError: AppError, t: Translate, status: number = appError.status): ErrorEnvelope {
  const body: ErrorEnvelope = {
    retCode: status,
    message: t(`errors.${appError.errorKey}`),
    errorKey: appError.errorKey,
  };
  if (appError.fields) body.fields = appError.fields;
  return body;
}

/** Turns any thrown value into the error envelope; unexpected errors are logged, never shown. */
export function errorResponse(error: unknown, t: Translate): Response {
  const appError = toAppError(error);
  const body = errorEnvelope(appError, t);
  if (appError.errorKey === 'database_unavailable') log.warn({ err: error }, 'the database is out of reach');
  if (appError.status === 500) log.error({ err: error }, 'unexpected API error');
  if (appError.status === 500 || appError.errorKey === 'database_unavailable') {
    // The stack goes to the log; the member gets the id to quote.
    const requestId = currentRequest()?.id;
    if (requestId) body.requestId = requestId;
  }
  const headers = appError.retryAfterSeconds === undefined ? JSON_HEADERS : { ...JSON_HEADERS, 'retry-after': String(appError.retryAfterSeconds) };
  return new Response(JSON.stringify(body), { status: appError.status, headers });
}
