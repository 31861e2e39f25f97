import type { Translate } from '../../lib/i18n.ts';
import { AppError, isAppError, isInvalidTextInput } from './errors.ts';

export interface SuccessEnvelope<T> {
  retCode: 0;
  result: T;
}

export interface ErrorEnvelope {
  retCode: number;
  message: string;
  errorKey: string;
  fields?: Record<string, string>;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** A `{ retCode: 0, result }` answer. */
export function ok<T>(result: T, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify({ retCode: 0, result } satisfies SuccessEnvelope<T>), {
    ...init,
    headers: { ...JSON_HEADERS, ...(init.headers as Record<string, string> | undefined) },
  });
}

/** Turns any thrown value into the error envelope; unexpected errors are logged, never shown. */
export function errorResponse(error: unknown, t: Translate): Response {
  const appError = isAppError(error) ? error : isInvalidTextInput(error) ? new AppError('bad_request', 400) : new AppError('internal', 500);
  if (appError.status === 500) console.error('[api] unexpected error', error);
  const body: ErrorEnvelope = {
    retCode: appError.status,
    message: t(`errors.${appError.errorKey}`, { defaultValue: t('errors.internal') }),
    errorKey: appError.errorKey,
  };
  if (appError.fields) body.fields = appError.fields;
  return new Response(JSON.stringify(body), { status: appError.status, headers: JSON_HEADERS });
}
