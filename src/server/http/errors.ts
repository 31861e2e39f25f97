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
  /** For `rate_limited` and `database_unavailable`: seconds until a retry can succeed, sent as `Retry-After`. */
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
  return causeCodes(error).includes('22021');
}

/** The `code` of an error and of its causes (Drizzle wraps the driver's error in `cause`). */
function causeCodes(error: unknown): unknown[] {
  const codes: unknown[] = [];
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth += 1) {
    codes.push((current as { code?: unknown }).code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/**
 * The network's and PostgreSQL's own ways of saying the database cannot be reached now: refused or
 * dropped connections, a server shutting down or starting (SQLSTATE class 08, 57P01–57P03).
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '08P01']);

/**
 * Whether `error` is the database being out of reach (restarting, down, the network between),
 * rather than a fault of the request or of the code: answered 503, to be tried again, not 500.
 * node-postgres says a dropped connection only in words.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (causeCodes(error).some((code) => typeof code === 'string' && UNREACHABLE.has(code))) return true;
  for (let current = error, depth = 0; current instanceof Error && depth < 3; depth += 1) {
    if (/^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error|is not currently accepting connections$/.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
