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

const API_BASE: string = import.meta.env.PUBLIC_API_BASE ?? '';

/**
 * Whether the API lives on another origin than the page (`PUBLIC_API_BASE`). Islands authenticate
 * with the session cookie, which fetch sends by itself to the page's own origin; another origin
 * gets it only when asked for (`credentials: 'include'`), and only if that origin shares the
 * cookie's site and answers CORS with credentials for the page.
 */
export function isCrossOrigin(base: string, pageOrigin = typeof location === 'undefined' ? null : location.origin): boolean {
  if (!/^https?:\/\//i.test(base)) return false;
  return pageOrigin === null || new URL(base).origin !== pageOrigin;
}

/**
 * The one ofetch instance of the islands: API base from `PUBLIC_API_BASE`, the session cookie sent
 * by the browser (no token in page JavaScript; `Authorization: Bearer` is for apps and scripts).
 */
export const api = ofetch.create({
  baseURL: `${API_BASE}/api`,
  ignoreResponseError: true,
  onRequest({ options }) {
    if (isCrossOrigin(API_BASE)) options.credentials = 'include';
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
