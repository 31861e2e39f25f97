import type { TFunction } from 'i18next';

/**
 * The one error contract of the site, shared by the server and the islands: every `errorKey` an
 * answer may carry, each with the HTTP status it always comes with. The union is closed so the
 * compiler finds a key without a status, and a unit test finds a key without a translation
 * (`errors.<key>` in both locales).
 */
export const ERROR_STATUS = {
  bad_request: 400,
  validation: 400,
  too_many_images: 400,
  sso_unknown_site: 400,
  host_not_allowed: 400,
  token_invalid: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  account_suspended: 403,
  cross_site_request: 403,
  links_not_allowed_yet: 403,
  email_not_verified: 403,
  log_owner_only: 403,
  remix_not_allowed: 403,
  not_found: 404,
  unknown_endpoint: 404,
  project_not_found: 404,
  user_not_found: 404,
  tag_not_found: 404,
  comment_not_found: 404,
  message_not_found: 404,
  draft_not_found: 404,
  preview_not_found: 404,
  video_not_found: 404,
  upload_not_found: 404,
  report_not_found: 404,
  banner_not_found: 404,
  collection_not_found: 404,
  collection_project_duplicate: 409,
  collection_limit: 409,
  collection_full: 409,
  log_not_found: 404,
  version_not_found: 404,
  make_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  follow_self: 409,
  already_following: 409,
  not_following: 409,
  email_taken: 409,
  url_taken: 409,
  too_many_drafts: 409,
  duplicate_comment: 409,
  upload_incomplete: 409,
  upload_used: 409,
  report_closed: 409,
  version_name_taken: 409,
  same_version: 400,
  too_large: 413,
  donations_closed: 404,
  invalid_signature: 400,
  unsupported_type: 415,
  rate_limited: 429,
  internal: 500,
  database_unavailable: 503,
  storage_unavailable: 503,
} as const satisfies Record<string, number>;

/** A key the server answers with. */
export type ServerErrorKey = keyof typeof ERROR_STATUS;

/**
 * Keys that only the browser produces: the request never reached the server (`network`) or the
 * user cancelled it (`aborted`). They travel in the same `ApiError` so islands handle one shape.
 */
export const CLIENT_ERROR_KEYS = ['network', 'aborted'] as const;

export type ClientErrorKey = (typeof CLIENT_ERROR_KEYS)[number];

/** Every key an island may have to show. */
export type ErrorKey = ServerErrorKey | ClientErrorKey;

/** Every error key, for the translation test and for narrowing unknown input. */
export const ERROR_KEYS: readonly ErrorKey[] = [...(Object.keys(ERROR_STATUS) as ServerErrorKey[]), ...CLIENT_ERROR_KEYS];

export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && (ERROR_KEYS as readonly string[]).includes(value);
}

/** The HTTP status that always comes with `key`. */
export function statusOf(key: ServerErrorKey): number {
  return ERROR_STATUS[key];
}

/** Field errors: field path → a key translated as `validation.<key>`. */
export type FieldErrors = Record<string, string>;

/** The error envelope of every API answer that is not `retCode: 0`. */
export interface ErrorEnvelope {
  retCode: number;
  message: string;
  errorKey: ErrorKey;
  fields?: FieldErrors;
  /** On an internal error (500) or with the database away (503): the request’s id (`X-Request-Id`), for the member to quote. */
  requestId?: string;
}

/** What `errorMessage` needs of an error: the shape of `ApiError` without importing the client. */
interface KeyedError {
  errorKey: string;
  fields?: FieldErrors | undefined;
}

type Translate = TFunction;

/**
 * The one way islands turn a failure into words: `errors.<errorKey>` in the user's language,
 * `errors.internal` for anything unknown (a thrown bug, a key from a newer server).
 */
export function errorMessage(error: unknown, t: Translate): string {
  const key = (error as KeyedError | null)?.errorKey;
  return isErrorKey(key) ? t(`errors.${key}`) : t('errors.internal');
}

/** The translated message of one field error (`validation.<key>`), or `validation.invalid` when unknown. */
export function fieldMessage(key: string, t: Translate): string {
  return t(`validation.${key}`, { defaultValue: t('validation.invalid') });
}
