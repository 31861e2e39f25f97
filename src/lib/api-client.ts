import { ofetch, type FetchOptions } from 'ofetch';
import type { ApiEnvelope } from './api-types.ts';
import type { ErrorKey, FieldErrors } from './contract/errors.ts';

/** A failed API call: the server's `retCode`, stable `errorKey`, translated message and field errors. */
export class ApiError extends Error {
  readonly retCode: number;
  readonly errorKey: ErrorKey;
  readonly fields: FieldErrors | undefined;

  constructor(retCode: number, errorKey: ErrorKey, message: string, fields?: FieldErrors) {
    super(message);
    this.name = 'ApiError';
    this.retCode = retCode;
    this.errorKey = errorKey;
    this.fields = fields;
  }
}

let tokenSource: () => string | null = () => null;

/** Lets the auth store supply the token that every call sends (set once by `$auth`). */
export function setTokenSource(source: () => string | null): void {
  tokenSource = source;
}

/** The one ofetch instance of the islands: API base from `PUBLIC_API_BASE`, bearer token added. */
export const api = ofetch.create({
  baseURL: `${import.meta.env.PUBLIC_API_BASE ?? ''}/api`,
  ignoreResponseError: true,
  onRequest({ options }) {
    const token = tokenSource();
    if (token) {
      const headers = new Headers(options.headers as HeadersInit | undefined);
      headers.set('authorization', `Bearer ${token}`);
      options.headers = headers;
    }
  },
});

/**
 * POSTs `body` to `/api/<path>` and returns `result`, or throws `ApiError` (network failures
 * become `retCode` 0 with `errorKey` `network`).
 */
export async function apiCall<T>(path: string, body?: Record<string, unknown> | FormData, options: FetchOptions<'json'> = {}): Promise<T> {
  let envelope: ApiEnvelope<T>;
  try {
    envelope = await api<ApiEnvelope<T>>(path, { method: 'POST', body, ...options });
  } catch (error) {
    throw new ApiError(0, 'network', error instanceof Error ? error.message : String(error));
  }
  if (!envelope || typeof envelope !== 'object' || !('retCode' in envelope)) throw new ApiError(500, 'internal', 'Unexpected answer');
  if (envelope.retCode === 0) return (envelope as { result: T }).result;
  const failure = envelope as Exclude<ApiEnvelope<T>, { retCode: 0 }>;
  throw new ApiError(failure.retCode, failure.errorKey, failure.message, failure.fields);
}
