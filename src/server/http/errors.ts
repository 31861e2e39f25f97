/** Stable error keys of the API; islands translate them as `errors.<key>`. */
export type ErrorKey =
  | 'bad_request'
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'project_not_found'
  | 'user_not_found'
  | 'tag_not_found'
  | 'conflict'
  | 'too_large'
  | 'unsupported_type'
  | 'rate_limited'
  | 'internal'
  | 'method_not_allowed'
  | 'unknown_endpoint'
  | (string & {});

/**
 * The one error type of the server. Thrown anywhere, it becomes the
 * `{ retCode, message, errorKey, fields? }` envelope (and the same HTTP status) in one place.
 */
export class AppError extends Error {
  readonly errorKey: ErrorKey;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;

  constructor(errorKey: ErrorKey, status: number, fields?: Record<string, string>) {
    super(errorKey);
    this.name = 'AppError';
    this.errorKey = errorKey;
    this.status = status;
    this.fields = fields;
  }
}

export const notFound = (key: ErrorKey = 'not_found') => new AppError(key, 404);
export const forbidden = (key: ErrorKey = 'forbidden') => new AppError(key, 403);
export const unauthorized = () => new AppError('unauthorized', 401);
export const badRequest = (key: ErrorKey = 'bad_request', fields?: Record<string, string>) =>
  new AppError(key, 400, fields);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * Input PostgreSQL refuses as text (a NUL character, invalid UTF-8: SQLSTATE 22021) is the
 * client's mistake, not a server error. Drizzle wraps the driver's error in `cause`.
 */
export function isInvalidTextInput(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth += 1) {
    if ((current as { code?: unknown }).code === '22021') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
