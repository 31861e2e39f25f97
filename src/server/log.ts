/**
 * The server's one logger and the context of the request being served.
 *
 * Logs are pino's JSON, one object per line on stdout, at `LOG_LEVEL` (default `info`). Fields
 * that may carry a secret — `authorization`, `cookie`, `set-cookie`, `password`, `token` at any
 * of the depths we log — are replaced by `[redacted]` before a line is written, so a careless
 * `log.info({ headers })` cannot leak a session.
 *
 * Like the queue, the state lives on `globalThis`: the server entry (run from source) and the
 * built site (bundled by Astro) each load this module, and a request's id set by one must be
 * read by the other.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { pino, type Logger } from 'pino';

const SECRET_FIELDS = ['authorization', 'cookie', 'set-cookie', 'password', 'token', 'sessionToken', 'uploadToken'];

/** Every secret field at the top level and up to three objects down (`req.headers.cookie`). */
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => {
  const key = /^[a-z]+$/i.test(field) ? field : `["${field}"]`;
  const join = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key, join('*'), join('*.*'), join('*.*.*')];
});

/** What the server knows about the request it is serving, for logs, metrics and error pages. */
export interface RequestContext {
  /** The id in `X-Request-Id`, on every log line of the request and on its 500 page. */
  id: string;
  /** The route pattern (`/d-[id]`, `/api/project/list`), never the raw path; set once known. */
  route?: string;
  /** The signed-in member, once the session has been read. */
  userId?: number | null;
}

interface LogState {
  logger?: Logger;
  requests?: AsyncLocalStorage<RequestContext>;
}
const state: LogState = ((globalThis as { [key: symbol]: LogState })[Symbol.for('copperhub.log')] ??= {});

function createLogger(): Logger {
  return pino({
    level: process.env.LOG_LEVEL || 'info',
    base: { app: 'copperhub' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // Each line names the request it belongs to, whoever logs it.
    mixin: () => {
      const request = state.requests?.getStore();
      return request ? { requestId: request.id } : {};
    },
  });
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
