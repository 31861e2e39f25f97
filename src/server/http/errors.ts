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
  return causesOf(error).some((cause) => cause.code === '22021');
}

/** An error and its causes, three deep (Drizzle wraps the driver's error in `cause`). */
function causesOf(error: unknown): { code?: unknown; message?: unknown }[] {
  const causes: { code?: unknown; message?: unknown }[] = [];
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth += 1) {
    causes.push(current as { code?: unknown; message?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return causes;
}

/** Node's error for a request whose client closed the connection before its body had arrived. */
export function isClientAbort(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' && message === 'aborted';
}

/** The network's ways of saying a server cannot be reached: refused, reset, timed out, no route or name. */
export const NETWORK_UNREACHABLE: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** PostgreSQL's: a server shutting down or starting (57P01–57P03), a connection failure (class 08). */
const DATABASE_UNREACHABLE = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '08P01']);

/** What node-postgres says only in words: a dropped connection, a full pool, a database closed to connections. */
const DATABASE_UNREACHABLE_MESSAGE = /^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error|is not currently accepting connections$/;

/**
 * Whether `error` is the database being out of reach (restarting, down, the network between),
 * rather than a fault of the request or of the code: answered 503, to be tried again, not 500.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  // The visitor's own connection closing mid-request (Node's `aborted`) is reset too, by them.
  if (isClientAbort(error)) return false;
  return causesOf(error).some(
    ({ code, message }) =>
      (typeof code === 'string' && (NETWORK_UNREACHABLE.has(code) || DATABASE_UNREACHABLE.has(code))) || (typeof message === 'string' && DATABASE_UNREACHABLE_MESSAGE.test(message)),
  );
}
