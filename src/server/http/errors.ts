import { statusOf, type FieldErrors, type ServerErrorKey } from '../../lib/contract/errors.ts';

export type { ServerErrorKey as ErrorKey } from '../../lib/contract/errors.ts';

/**
 * The one error type of the server. Thrown anywhere, it becomes the
 * `{ retCode, message, errorKey, fields? }` envelope in one place; its HTTP status follows from
 * the key, so no throw site can disagree with another about it.
 */
export class AppError extends Error {
  readonly errorKey: ServerErrorKey;
  readonly status: number;
  readonly fields: FieldErrors | undefined;
  /** For `rate_limited`: seconds until a retry can succeed, sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(errorKey: ServerErrorKey, fields?: FieldErrors, options: { retryAfterSeconds?: number } = {}) {
    super(errorKey);
    this.name = 'AppError';
    this.errorKey = errorKey;
    this.status = statusOf(errorKey);
    this.fields = fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

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
