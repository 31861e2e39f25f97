import http from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkDatabase } from './db/client.ts';
import { applySecurityHeaders } from './http/security-headers.ts';
import { HSTS_VALUE, isSecureConnection } from './http/transport.ts';
import { requestClient } from './http/client-address.ts';
import { StandardReasonResponse } from './standard-reason.ts';
import { createStaticFiles, serveStoredFile, serveStoredVideo } from './static-files.ts';
import { isAppError } from './http/errors.ts';
import { handleTusRequest, isTusPath } from './http/tus-upload.ts';
import { resolveVideoStream } from './services/media/index.ts';
import { countProjectView, rememberListReads } from './services/projects/index.ts';
import { findMemberPageState } from './services/accounts/index.ts';
import { readConfig } from './config.ts';
import { CACHE_RENDER_HEADER, createPageCache, GUEST_PAGE_CACHE, type PageCacheOptions } from './page-cache/page-cache.ts';
import { listenForPagePurges, stopListeningForPagePurges } from './page-cache/tags.ts';
import { currentRequest, log, requestIdFor, runInRequest, type RequestContext } from './log.ts';
import { mayReadMetrics, observeRequest, readMetricsAccess, renderMetrics, watchPageCache } from './metrics.ts';
import { checkReadiness } from './readiness.ts';
import { matchRoute } from './routing/routes.ts';
import { desktopPathOf, isMobilePath } from '../lib/paths.ts';
import { isPrefetchRequest } from '../lib/prefetch.ts';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void, locals?: Partial<App.Locals>) => Promise<void>;

/**
 * How long a client may take, chosen for this site rather than Node's defaults. The headers of
 * any request come in one small packet from a real browser: 20 seconds is generous on a poor
 * mobile line and cuts a client that trickles them to hold a connection. A whole request may take
 * 10 minutes: the largest upload (a design archive) must still arrive on a slow line, and Node
 * has no per-path setting, so the one value serves uploads too. Idle keep-alive connections stay
 * open 65 seconds, longer than a load balancer's usual 60, so it never sends on a closed one.
 * Node looks for overdue requests every `connectionsCheckingInterval`: 5 seconds keeps the cuts
 * close to these values (its default, 30 seconds, would more than double the headers' limit).
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 20_000,
  requestTimeout: 10 * 60_000,
  keepAliveTimeout: 65_000,
  connectionsCheckingInterval: 5_000,
} as const;

/** Feeds and sitemaps have no phone version: their `/m` addresses lead to the one document. */
const MOBILE_FEEDS = /^\/m\/(rss\.xml|sitemap\.xml|sitemaps\/[^/]+\.xml|newest\/feed\.xml|user\/[^/]+\/feed\.xml|d-[^/]+\/feed\.xml)$/;

function plainAnswer(res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders = {}): void {
  const body = `${status} ${http.STATUS_CODES[status]}\n`;
  res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/** Whether every `%` escape of the path decodes to UTF-8 (`/%ff` and a cut `/%E0%A4` do not). */
function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** What escaped a request's own handling: logged with its stack, and a 500 (naming the request id) for this request alone. */
function failRequest(req: http.IncomingMessage, res: http.ServerResponse, _pathname: string, error: unknown): void {
  const request = currentRequest();
  log.error({ err: error, method: req.method, route: request?.route }, 'request failed');
  if (res.headersSent) return void res.destroy();
  // The id, never the error: a member quotes it and the operator finds the stack in the logs.
  const body = `500 Internal Server Error\nRequest id: ${request?.id ?? 'unknown'}\n`;
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * The route pattern a request is counted and logged under: one of the server's own paths, a
 * page of the route table (`/d-[id]`, `/m/user/[url]`, as Astro names them), or the pattern
 * Astro matched (API endpoints, feeds, the 404 page). Never the raw path: a label per project
 * would grow without bound.
 */
function routeLabel(pathname: string, request: RequestContext): string {
  // No path the server answers itself matches the route table, so the table goes first.
  const page = matchRoute(desktopPathOf(pathname));
  if (page) {
    const pattern = page.pattern.replace(/:([a-z]+)/g, '[$1]');
    return isMobilePath(pathname) ? (pattern === '/' ? '/m' : `/m${pattern}`) : pattern;
  }
  return request.route ?? 'unmatched';
}

/** The paths this server answers before Astro, by the route they are counted under. */
const OWN_ROUTES: Array<[(pathname: string) => boolean, string]> = [
  [(p) => p === '/healthz', '/healthz'],
  [(p) => p === '/readyz', '/readyz'],
  [(p) => p === '/metrics', '/metrics'],
  [(p) => p.startsWith('/_astro/'), '/_astro/[file]'],
  [(p) => p.startsWith('/files/'), '/files/[...key]'],
  [(p) => p.startsWith(VIDEO_STREAM_PREFIX), '/video/stream/[id].mp4'],
  [isTusPath, '/api/video/upload'],
];

/** `/metrics` for the allowed; a 404 for anyone else, so the endpoint is not even revealed. */
async function serveMetrics(req: http.IncomingMessage, res: http.ServerResponse, access: ReturnType<typeof readMetricsAccess>): Promise<void> {
  if (!mayReadMetrics(req, access)) return plainAnswer(res, 404);
  const { body, contentType } = await renderMetrics();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** `/readyz`: 200 when every check passes, 503 naming the one that failed. */
async function serveReadiness(res: http.ServerResponse): Promise<void> {
  const readiness = await checkReadiness();
  const body = JSON.stringify({ status: readiness.ready ? 'ready' : 'not_ready', ...readiness.checks, ...(readiness.pendingMigrations ? { pendingMigrations: readiness.pendingMigrations } : {}), purges: readiness.purges });
  res.writeHead(readiness.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}


const PROJECT_PAGE = /^(?:\/m)?\/d-([a-z0-9]+)$/;

/**
 * A view of a project page counts whether the page was rendered or came from the cache (a guest's
 * page, or a member's kept for them); a prefetch does not (the click after it revalidates the page
 * and counts then).
 */
function countCachedView(request: { path: string; client: string }, req: http.IncomingMessage, userId: number | null = null): void {
  const id = PROJECT_PAGE.exec(request.path.split('?')[0]!)?.[1];
  if (!id || request.client === 'crawler' || isPrefetchRequest((name) => req.headers[name])) return;
  const userAgent = req.headers['user-agent'] ?? null;
  countProjectView(id, { userId, ip: currentRequest()?.clientIp ?? req.socket.remoteAddress ?? null, userAgent });
}

const VIDEO_STREAM_PREFIX = '/video/stream/';

/**
 * `/video/stream/{id}.mp4?exp=…&sig=…[&scope=owner]`: a video's signed address (from
 * `video/getVideoUrl`), with Range for seeking. A tampered or expired address is 403; a deleted
 * video 404, and a hidden one too unless the address was issued to its owner or staff. Other
 * parameters (the player's `retry`, which makes the browser ask again) are not read.
 */
async function serveVideoStream(pathname: string, query: string | undefined, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const id = /^\/video\/stream\/([a-z0-9]+)\.mp4$/.exec(pathname)?.[1] ?? '';
  const params = new URLSearchParams(query ?? '');
  const address = { exp: params.get('exp'), sig: params.get('sig'), scope: params.get('scope') };
  try {
    const { key, cacheSeconds } = await resolveVideoStream(id, address);
    // Refused now (hidden, deleted, expired) ends the response; a check that failed is no answer.
    const mayGoOn = () => resolveVideoStream(id, address).then(() => true, (error: unknown) => !isAppError(error));
    serveStoredVideo(key, req, res, { cacheSeconds, mayGoOn });
  } catch (error) {
    if (!isAppError(error)) throw error;
    plainAnswer(res, error.status === 403 ? 403 : 404);
  }
}

/**
 * The site's HTTP server, not yet listening: `/healthz`, built assets, stored files (`/files/…`),
 * the tus endpoint of video uploads, signed video addresses and Astro's built handler (`@astrojs/node` in middleware mode, from `distDir`) for everything
 * else. Every response starts with the site's security headers; a page replaces the fallback
 * Content-Security-Policy with its own. The database must be reachable through `DATABASE_URL`. The server entry listens on the
 * configured port; tests listen on a free one in their own process.
 */
export async function createAppServer(options: { distDir: string; pageCache?: Partial<PageCacheOptions> | false }): Promise<http.Server> {
  const entry = pathToFileURL(path.join(options.distDir, 'server', 'entry.mjs')).href;
  const { handler } = (await import(entry)) as { handler: NodeHandler };
  const staticFiles = await createStaticFiles(path.join(options.distDir, 'client'));
  const cacheConfig = readConfig().pageCache;
  const pageCache =
    options.pageCache === false || !cacheConfig.enabled
      ? null
      : createPageCache((req, res, locals) => handler(req, res, undefined, locals), { ...GUEST_PAGE_CACHE, maxBytes: cacheConfig.maxBytes, onServed: countCachedView, memberState: findMemberPageState, ...options.pageCache });
  // Other instances' writes purge this one's pages too (and this one's purges reach them).
  if (pageCache) await listenForPagePurges();
  // Tag rows and lists' counts are remembered beside the pages, and forgotten by the same purges.
  rememberListReads(pageCache !== null);
  watchPageCache(pageCache ? () => ({ hit: pageCache.stats.hits, stale: pageCache.stats.stale, miss: pageCache.stats.misses, bypass: pageCache.stats.bypass, fill: pageCache.stats.fills, member_hit: pageCache.stats.memberHits, member_miss: pageCache.stats.memberMisses }) : null);
  const metricsAccess = readMetricsAccess();
  const proxyTrust = readConfig().trustProxy;

  const { headersTimeout, requestTimeout, connectionsCheckingInterval } = SERVER_TIMEOUTS;
  const server = http.createServer({ ServerResponse: StandardReasonResponse, headersTimeout, requestTimeout, connectionsCheckingInterval }, (req, res) => {
    // Every request gets an id (in `X-Request-Id`, on its log lines and on its 500 page) and one
    // log line with its duration when its answer is done.
    const startedAt = process.hrtime.bigint();
    const client = requestClient(req, proxyTrust);
    const request: RequestContext = { id: requestIdFor(req, client.viaTrustedProxy), clientIp: client.ip, viaTrustedProxy: client.viaTrustedProxy };
    res.setHeader('x-request-id', request.id);
    connections.startRequest(req.socket, res);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const pathname = (req.url ?? '/').split('?')[0]!;
      const route = routeLabel(pathname, request);
      const status = res.statusCode;
      observeRequest(route, req.method ?? 'GET', status, seconds);
      const line = { requestId: request.id, method: req.method, route, status, durationMs: Math.round(seconds * 1e4) / 10, userId: request.userId ?? null, ...(res.writableFinished ? {} : { aborted: true }) };
      if (status >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    });
    runInRequest(request, () => handleRequest(req, res, request));
  });
  const handleRequest = (req: http.IncomingMessage, res: http.ServerResponse, request: RequestContext): void => {
    applySecurityHeaders(res);
    const [pathname = '/', query] = (req.url ?? '/').split(/\?(.*)/s);
    // Over https (directly, or through a trusted TLS proxy) every answer tells browsers to stay on it.
    const encrypted = 'encrypted' in req.socket && Boolean(req.socket.encrypted);
    if (isSecureConnection({ protocol: encrypted ? 'https:' : 'http:', forwardedProto: req.headers['x-forwarded-proto'] }, request.viaTrustedProxy)) {
      res.setHeader('strict-transport-security', HSTS_VALUE);
    }
    request.route = OWN_ROUTES.find(([test]) => test(pathname))?.[1];
    if (pathname === '/metrics') return void serveMetrics(req, res, metricsAccess).catch((error: unknown) => failRequest(req, res, pathname, error));
    if (pathname === '/readyz') return void serveReadiness(res).catch((error: unknown) => failRequest(req, res, pathname, error));
    if (pathname === '/healthz') {
      void checkDatabase().then((up) => {
        res.writeHead(up ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down', uptime: Math.round(process.uptime()) }));
      });
      return;
    }
    // A malformed escape is the client's mistake: answered here, before Astro logs it as an error.
    if (!isDecodable(pathname)) return plainAnswer(res, 400);
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && MOBILE_FEEDS.test(pathname)) return plainAnswer(res, 301, { location: `${pathname.slice('/m'.length)}${query ? `?${query}` : ''}` });
    if (read && staticFiles.serve(pathname, req, res)) {
      // The site's public files (favicon, robots.txt): a few, counted together.
      request.route ??= '[static]';
      return;
    }
    if (read && pathname.startsWith('/files/')) return serveStoredFile(pathname.slice('/files/'.length), req, res);
    if (isTusPath(pathname)) return void handleTusRequest(req, res).catch((error: unknown) => failRequest(req, res, pathname, error));
    if (read && pathname.startsWith(VIDEO_STREAM_PREFIX)) return void serveVideoStream(pathname, query, req, res).catch((error: unknown) => failRequest(req, res, pathname, error));
    // Only the cache marks its own renders.
    delete req.headers[CACHE_RENDER_HEADER];
    const cacheable = pageCache?.match(req);
    if (pageCache && cacheable) return void pageCache.serve(req, res, cacheable).catch((error: unknown) => failRequest(req, res, pathname, error));
    // A member's page that differs from the guest page only in its places: filled in from it.
    const fillable = pageCache?.matchMember(req);
    if (pageCache && fillable) {
      return void pageCache
        .fill(req, res, fillable)
        .then((filled) => (filled || res.headersSent ? undefined : handler(req, res)))
        .catch((error: unknown) => failRequest(req, res, pathname, error));
    }
    // Astro answers its own errors; this catches what escapes it, for this request only.
    handler(req, res).catch((error: unknown) => failRequest(req, res, pathname, error));
  };
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
  const connections = trackConnections(server);
  servers.set(server, connections);
  server.on('close', () => {
    if (!pageCache) return;
    pageCache.close();
    rememberListReads(false);
    void stopListeningForPagePurges();
  });
  return server;
}

interface ConnectionTracker {
  startRequest(socket: Socket, res: http.ServerResponse): void;
  drain(timeoutMs: number): Promise<'drained' | 'cut'>;
}
const servers = new WeakMap<http.Server, ConnectionTracker>();

/**
 * Which connections are serving a request and which are idle between two, so that shutdown can
 * close the idle ones at once and each busy one right after its answer has gone out. Node's own
 * `closeIdleConnections` counts a connection as idle once its request has arrived, before a long
 * answer (a download to a slow client) has left, and would cut it.
 */
function trackConnections(server: http.Server): ConnectionTracker {
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
  });
  return {
    startRequest(socket, res) {
      busy.add(socket);
      // Once shutdown has begun, the answer says the connection closes after it.
      if (draining) res.shouldKeepAlive = false;
      // 'finish': the last byte is handed to the system; `end` still sends whatever is queued.
      res.once('finish', () => {
        busy.delete(socket);
        if (draining) socket.end();
      });
      res.once('close', () => busy.delete(socket));
    },
    drain(timeoutMs) {
      draining = true;
      return new Promise((resolve) => {
        const cut = setTimeout(() => {
          for (const socket of open) socket.destroy();
          resolve('cut');
        }, timeoutMs);
        server.close(() => {
          clearTimeout(cut);
          resolve('drained');
        });
        for (const socket of open) if (!busy.has(socket)) socket.destroy();
      });
    },
  };
}

/**
 * Stops `server` (made by `createAppServer`) gracefully: no new connections; idle keep-alive
 * connections closed now; requests in flight answered, each connection closed after its answer;
 * whatever still runs after `timeoutMs` cut. Resolves how it ended.
 */
export function drainServer(server: http.Server, timeoutMs: number): Promise<'drained' | 'cut'> {
  const tracker = servers.get(server);
  if (!tracker) throw new Error('drainServer: not a server made by createAppServer');
  return tracker.drain(timeoutMs);
}
