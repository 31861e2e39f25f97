/**
 * The server's one logger and the context of the request being served.
 *
 * Logs are pino's JSON, one object per line on stdout, at `LOG_LEVEL` (default `info`). Fields
 * that may carry a secret — `authorization`, `cookie`, `set-cookie`, `password`, `token` at any
 * of the depths we log — are replaced by `[redacted]` before a line is written (`redactSecrets`),
 * so a careless `log.info({ headers })` cannot leak a session.
 *
 * Like the queue, the state lives on `globalThis`: the server entry (run from source) and the
 * built site (bundled by Astro) each load this module, and a request's id set by one must be
 * read by the other.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

const SECRET_FIELDS = new Set(['authorization', 'cookie', 'set-cookie', 'password', 'token', 'sessionToken', 'uploadToken']);
/** The line itself and three objects down (`req.headers.cookie` of `{ err: { req } }`). */
const REDACT_DEPTH = 4;

/** Objects whose fields are looked into: plain ones, arrays and errors (their own fields are logged). */
function isWalkable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value) || value instanceof Error) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A copy to write a redacted field into: an error stays an error (pino writes its type and stack). */
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(value)) return [...value] as unknown as Record<string, unknown>;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null, Object.getOwnPropertyDescriptors(value)) as Record<string, unknown>;
  // V8 reads an error's stack from the error itself: the copy gets it as a plain value.
  if (value instanceof Error) Object.defineProperty(copy, 'stack', { value: value.stack, writable: true, configurable: true, enumerable: false });
  return copy;
}

/**
 * A log line with every secret field (`authorization`, `cookie`, `set-cookie`, `password`,
 * `token`, `sessionToken`, `uploadToken`) up to three objects down replaced by `[redacted]`; the
 * line itself when it has none (nothing is copied then). What pino's own `redact` did with
 * wildcard paths, at a tenth of the cost: those took 23 µs of every request's log line, a third of
 * what a cached page costs to serve.
 */
export function redactSecrets<T extends Record<string, unknown>>(line: T, depth = 1): T {
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(line)) {
    const value = line[key];
    let written = value;
    if (SECRET_FIELDS.has(key)) written = '[redacted]';
    else if (depth < REDACT_DEPTH && isWalkable(value)) written = redactSecrets(value, depth + 1);
    if (written === value) continue;
    copy ??= copyOf(line);
    copy[key] = written;
  }
  return (copy ?? line) as T;
}

/** What the server knows about the request it is serving, for logs, metrics and error pages. */
export interface RequestContext {
  /** The id in `X-Request-Id`, on every log line of the request and on its 500 page. */
  id: string;
  /** The route pattern (`/d-[id]`, `/api/project/list`), never the raw path; set once known. */
  route?: string;
  /** The signed-in member, once the session has been read. */
  userId?: number | null;
  /** The client's address, through trusted proxies (`requestClient`): what per-address limits count. */
  clientIp?: string;
  /** Whether the request came through a trusted proxy, whose `X-Forwarded-*` headers are then believed. */
  viaTrustedProxy?: boolean;
}

interface LogState {
  logger?: Logger;
  requests?: AsyncLocalStorage<RequestContext>;
}
const state: LogState = ((globalThis as { [key: symbol]: LogState })[Symbol.for('copperhub.log')] ??= {});

/** The server's logger, writing to stdout at `LOG_LEVEL` (or, in tests, to `destination` at `level`). */
export function createLogger(destination?: DestinationStream, level = process.env.LOG_LEVEL || 'info'): Logger {
  const options: LoggerOptions = {
    level,
    base: { app: 'copperhub' },
    formatters: { log: redactSecrets },
    // Each line names the request it belongs to, whoever logs it.
    mixin: () => {
      const request = state.requests?.getStore();
      return request ? { requestId: request.id } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The process's logger (`log.info({ …fields }, 'message')`; errors as `{ err }`, with their stack). */
export const log: Logger = (state.logger ??= createLogger());

const requests: AsyncLocalStorage<RequestContext> = (state.requests ??= new AsyncLocalStorage<RequestContext>());

/** The request being served on this async path, if any. */
export function currentRequest(): RequestContext | undefined {
  return requests.getStore();
}

/** Runs `fn` as part of `context`'s request: its logs, error pages and metrics see the id. */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return requests.run(context, fn);
}

/** An incoming id we repeat: short, and only characters that cannot forge a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * The request's id: a trusted proxy's `X-Request-Id` (with `TRUST_PROXY=1`, so one id follows the
 * request through the proxy's logs and ours) when it is sane, else a new UUID. From anyone else
 * the header is ignored: a client could otherwise make its requests look like another's.
 */
export function requestIdFor(req: http.IncomingMessage, trustProxy: boolean): string {
  const incoming = req.headers['x-request-id'];
  if (trustProxy && typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming)) return incoming;
  return randomUUID();
}
