/**
 * The guest page cache, in front of Astro's handler. Every guest sees the same page for the same
 * address, language and kind of client, so a page rendered once is kept (brotli and gzip made once,
 * an ETag for 304s) and served at nearly the rate of a static file until a write purges its tags
 * or it grows old: fresh for `freshMs`, then served while one refresh renders it again in the
 * background, for at most `staleMs` more. Anything that depends on the visitor (a cookie being
 * set, an error, a private page) is rendered for them alone and never kept; a member's page is
 * filled in from the guest page, and it and a member's own API answers are kept for that member
 * alone (`fill`).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { LOCALE_COOKIE } from '../../lib/i18n.ts';
import { preferredEncoding } from '../http/encoding.ts';
import { CapturingResponse, type CapturedPage, type Keepable } from './capture.ts';
import { apiBodyKey, CACHE_RENDER_HEADER, cacheableRequest, fillableRequest, DESKTOP_COOKIE, MAX_API_BODY_BYTES, PAGE_EXPIRES_HEADER, PAGE_TAGS_HEADER, varyFor, type CacheableRequest, type FillableRequest } from './key.ts';

export { CACHE_RENDER_HEADER };
import { hearsPurges, onPagePurge, pageTags } from './tags.ts';
import { fillTemplate, hasPlaces, readMarkedPage, splitPlaces, type PlaceCall, type PlacedTemplate } from './places.ts';
import { keepFirstMessageBlocks } from './messages.ts';
import { currentRequest, log } from '../log.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);


/**
 * Astro's handler: renders a request into a Node response (or the capture that stands in for one),
 * with `locals` to start from (a member's places: `locals.fill`).
 */
type Render = (req: http.IncomingMessage, res: http.ServerResponse, locals?: Partial<App.Locals>) => Promise<void>;

/** A member's session as the server reads it, handed on to the render of their places. */
type MemberSession = NonNullable<App.Locals['fill']>['session'];

export interface PageCacheOptions {
  /** Memory for pages, all encodings counted. */
  maxBytes: number;
  freshMs: number;
  staleMs: number;
  /**
   * Called for every guest page served with 200, or 304 to a browser that has it (views are
   * counted here for cached pages), and for every member's page served from what was kept for
   * them, with the member.
   */
  onServed?: (request: CacheableRequest, req: http.IncomingMessage, userId?: number) => void;
  /**
   * The member of a session cookie and a fingerprint of their own state (`findMemberPageState`),
   * or null: without it members' filled pages are made anew for every request.
   */
  memberState?: (token: string) => Promise<{ userId: number; fingerprint: string; session: MemberSession } | null>;
}

/** A kept body, and its brotli and gzip made when first asked for (`encodedBody`), then kept. */
interface Encodable {
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  compressing: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
  /** Encodings made quickly for the visitor whose visit rendered the page, made again better once it is read again. */
  quick: Partial<Record<'br' | 'gzip', true>>;
}

const encodable = (identity: Buffer): Encodable => ({ identity, br: null, gzip: null, compressing: {}, quick: {} });

/**
 * How hard a body is compressed (brotli quality, gzip level), measured on our pages (50–75 KB):
 * - `kept`, a guest page read again and again: brotli 8 and gzip 6, about 1 ms each, where brotli
 *   9 takes 10–13 ms for 0.3 % fewer bytes and gzip 9 half as long again as 6 for as much;
 * - `first`, the guest page for the visitor whose visit rendered it, who waits for it: brotli 3,
 *   a third of brotli 8's time for 14 % more bytes (0.1–0.3 ms; brotli 4 took 0.2–0.55), and
 *   gzip 2, a quarter to a half of gzip 6's time for 7–8 % more (0.08–0.3 ms; gzip 4 took
 *   0.15–0.4): most such pages, a crawler's walk, are never read again, and one that is is
 *   compressed at `kept` then, see `send`;
 * - `light`, a member's page, kept for one reader: brotli 1 makes about a fifth of the bytes in a
 *   quarter of a millisecond, less than sending the page as it is costs.
 */
const EFFORT = { kept: { br: 8, gzip: 6 }, first: { br: 3, gzip: 2 }, light: { br: 1, gzip: 1 } } as const;
type Effort = keyof typeof EFFORT;

/**
 * A member's filled page, kept for that member alone: valid while the guest page it was filled
 * from is the one kept, their fingerprint is unchanged and none of their writes came since, and
 * for at most the guest page's freshness (`freshMs`) whatever else changes.
 */
interface MemberEntry extends Encodable {
  guest: Entry;
}

/**
 * A member's answer to a public API read that holds their own flags (`comment/list` and their
 * likes), kept for that member alone: valid while none of its tags was purged since its render
 * began (`renderedAt`, a purge generation), their fingerprint is unchanged and none of their
 * writes came since, and for at most `freshMs`, as a guest's answer.
 */
interface MemberAnswer extends Entry {
  renderedAt: number;
}

interface Entry extends Encodable {
  /** A public API answer: sent with its own headers, uncompressed, exactly as the endpoint wrote it. */
  api: boolean;
  status: number;
  headers: [string, http.OutgoingHttpHeader][];
  etag: string;
  tags: string[];
  storedAt: number;
  /** When its content changes by itself (`ok(…, { expiresAt })`): never served from then on. */
  expiresAt: number;
  /** The page with its member places marked, when its route is `fillable`: members' pages are filled in from it. */
  template: PlacedTemplate | null;
}

/**
 * How long a guest page is served as rendered: 30 s fresh, then up to 10 minutes while one
 * background render replaces it. Writes purge the pages they change at once; what no write
 * announces (view counts, the relative ages of things) lags by at most the 30 s.
 */
export const GUEST_PAGE_CACHE = { freshMs: 30_000, staleMs: 10 * 60_000 } as const;

/** A page larger than this is passed through, never kept. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const KEPT_TYPES = /^(text\/html|application\/(rss\+|atom\+)?xml|text\/xml)\b/;
/** Headers of the render that are decided again for each answer. */
const PER_ANSWER = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'date', 'etag', 'vary', 'cache-control', 'keep-alive', PAGE_TAGS_HEADER, PAGE_EXPIRES_HEADER]);

/** Whether a render may be kept: a 200 or 404 page, for nobody in particular. */
function keepable(status: number, headers: http.OutgoingHttpHeaders): boolean {
  if (status !== 200 && status !== 404) return false;
  if (headers['set-cookie'] !== undefined) return false;
  // Encoded by its route for this visitor's Accept-Encoding (a sitemap too large to keep).
  if (headers['content-encoding'] !== undefined) return false;
  const cacheControl = String(headers['cache-control'] ?? '');
  if (/private|no-store/.test(cacheControl)) return false;
  return KEPT_TYPES.test(String(headers['content-type'] ?? ''));
}

/** Headers of an API answer that are decided again for each answer (its `cache-control` and `vary` are its own). */
const API_PER_ANSWER = new Set(['content-length', 'transfer-encoding', 'connection', 'date', 'keep-alive', PAGE_TAGS_HEADER, PAGE_EXPIRES_HEADER]);

/** Whether an API answer may be kept: a success its endpoint tagged, which it does only for the cache's own renders (a guest's, or a member's it asked for). */
function keepableApi(status: number, headers: http.OutgoingHttpHeaders): boolean {
  if (status !== 200 || headers['set-cookie'] !== undefined || headers['content-encoding'] !== undefined) return false;
  return headers[PAGE_TAGS_HEADER] !== undefined && /^application\/json\b/.test(String(headers['content-type'] ?? ''));
}

export type PageCache = ReturnType<typeof createPageCache>;

export function createPageCache(render: Render, options: PageCacheOptions) {
  const tagIndex = new Map<string, Set<string>>();
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    // A template holds about the page again: its marked bytes until its first fill, then text
    // (up to two bytes a character).
    // Brotli and gzip, made when first asked for, count as about a quarter of the page each.
    sizeCalculation: (entry) => Math.max(1, entry.identity.length * (entry.template ? 3 : 1) + (entry.api ? 0 : Math.ceil(entry.identity.length / 2)) + 512),
    dispose: (entry, key) => {
      for (const tag of entry.tags) {
        const keys = tagIndex.get(tag);
        keys?.delete(key);
        if (keys?.size === 0) tagIndex.delete(tag);
      }
    },
  });
  /**
   * Renders under way, by key, with the purge generation they started in: a visitor joins one only
   * if no purge came since (a render begun before a comment landed must not answer the visitor
   * who asks after it).
   */
  const inFlight = new Map<string, { render: Promise<Entry | null>; startedAt: number }>();
  // Counts purges, and when each tag was last purged: a render that began before a purge of one
  // of its tags must not keep what it saw. Past a bound the tags are forgotten and every render
  // then running counts as purged (`everythingAt`).
  let generation = 0;
  let everythingAt = 0;
  const purgedAt = new Map<string, number>();
  const stats = { hits: 0, stale: 0, misses: 0, bypass: 0, fills: 0, memberHits: 0, memberMisses: 0 };
  // Members' pages get a quarter of the guests' memory again, each kept no longer than a guest
  // page stays fresh: what no purge and no fingerprint tells of (a new entry in the Following
  // section, say) lags by no more than it does for guests.
  const memberEntries = new LRUCache<string, MemberEntry | MemberAnswer>({
    maxSize: Math.max(1, Math.floor(options.maxBytes / 4)),
    ttl: options.freshMs,
    // The page and, once asked for, its brotli or gzip (about a fifth of it each).
    sizeCalculation: (entry) => Math.max(1, Math.ceil(entry.identity.length * 1.4) + 512),
  });

  const stopListening = onPagePurge((tags) => {
    generation += 1;
    if (tags.includes('*') || purgedAt.size > 10_000) {
      purgedAt.clear();
      everythingAt = generation;
    }
    if (tags.includes('*')) {
      entries.clear();
      memberEntries.clear();
      return;
    }
    // A member's write drops the pages kept for them (their keys start with their tag).
    for (const tag of tags) {
      if (!tag.startsWith('member:')) continue;
      for (const key of [...memberEntries.keys()]) if (key.startsWith(`${tag} `)) memberEntries.delete(key);
    }
    for (const tag of tags) purgedAt.set(tag, generation);
    for (const tag of tags) for (const key of [...(tagIndex.get(tag) ?? [])]) entries.delete(key);
  });

  /** A render as the cache keeps it: its tags and headers read, a page's template taken apart. */
  function toEntry(page: CapturedPage, api: boolean): Entry {
    const tags = String(page.headers[PAGE_TAGS_HEADER] ?? '')
      .split(' ')
      .filter(Boolean);
    const perAnswer = api ? API_PER_ANSWER : PER_ANSWER;
    const headers = Object.entries(page.headers).filter(([name, value]) => !perAnswer.has(name) && value !== undefined) as Entry['headers'];
    // A page with member places is kept twice: marked (the template) and as guests get it; a page
    // with islands with the first block of each namespace of their messages.
    let body = page.body;
    let template: PlacedTemplate | null = null;
    if (!api && page.status === 200 && hasPlaces(body)) ({ guest: body, template } = readMarkedPage(body));
    if (!api) body = keepFirstMessageBlocks(body);
    return {
      ...encodable(body),
      api,
      status: page.status,
      headers,
      etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
      tags,
      storedAt: Date.now(),
      expiresAt: Number(page.headers[PAGE_EXPIRES_HEADER]) || Number.POSITIVE_INFINITY,
      template,
    };
  }

  function store(key: string, page: CapturedPage, renderedAt: number, api: boolean, wanted: 'br' | 'gzip' | 'identity'): Entry {
    const entry = toEntry(page, api);
    const { tags } = entry;
    // JSON is sent as the endpoint wrote it (it sets no encoding). A page is compressed for the
    // visitor whose visit rendered it now, in the other encoding when someone first asks for it.
    if (!api && wanted !== 'identity') encodedBody(entry, wanted, 'first');
    // Purged while rendering, or purges from other instances not heard just now: serve it once, keep nothing.
    if (purgedSince(renderedAt, tags) || !hearsPurges()) return entry;
    entries.set(key, entry);
    for (const tag of tags) {
      let keys = tagIndex.get(tag);
      if (!keys) tagIndex.set(tag, (keys = new Set()));
      keys.add(key);
    }
    return entry;
  }

  /** Whether a purge of any of `tags` (or of everything) came since the purge generation `since`. */
  function purgedSince(since: number, tags: string[]): boolean {
    return everythingAt > since || tags.some((tag) => (purgedAt.get(tag) ?? 0) > since);
  }

  /** A kept body's bytes in `encoding`: compressed once (with `effort`, see `EFFORT` and `compress`), when first asked for. */
  function encodedBody(entry: Encodable, encoding: 'br' | 'gzip' | 'identity', effort: Effort = 'kept'): Buffer | Promise<Buffer> {
    if (encoding === 'identity') return entry.identity;
    const done = entry[encoding];
    if (done) return done;
    return entry.compressing[encoding] ?? compress(entry, encoding, effort);
  }

  /**
   * Compresses `entry` into `encoding` (replacing what it had once done), answering the bytes: on
   * the event loop for a visitor who waits (`first`, `light`: a quarter of a millisecond or less),
   * where handing it to libuv's threads cost a millisecond more on this machine (waking a thread
   * and the loop again, through zlib's stream); in the threads for `kept`, made after an answer.
   */
  function compress(entry: Encodable, encoding: 'br' | 'gzip', effort: Effort): Buffer | Promise<Buffer> {
    const level = EFFORT[effort][encoding];
    const done = (bytes: Buffer) => {
      entry[encoding] = bytes;
      if (effort === 'first') entry.quick[encoding] = true;
      else delete entry.quick[encoding];
      delete entry.compressing[encoding];
      return bytes;
    };
    const brotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: level, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: entry.identity.length } };
    if (effort !== 'kept') return done(encoding === 'br' ? zlib.brotliCompressSync(entry.identity, brotliOptions) : zlib.gzipSync(entry.identity, { level }));
    const pending = (encoding === 'br' ? brotli(entry.identity, brotliOptions) : gzip(entry.identity, { level })).then(done, (error: unknown) => {
      delete entry.compressing[encoding];
      throw error;
    });
    entry.compressing[encoding] = pending;
    return pending;
  }

  /**
   * Renders `req` for the key; the visitor's `res`, when given, receives anything that cannot be
   * kept as it is written. Answers the entry (kept or not), or null when the render went to `res`.
   */
  async function renderFor(key: string, req: http.IncomingMessage, res: http.ServerResponse | null, api = false): Promise<Entry | null> {
    const startedAt = generation;
    const page = await captureRender(req, res, api ? keepableApi : keepable);
    if (!page) return null;
    return store(key, page, startedAt, api, preferredEncoding(req, ['br', 'gzip', 'identity']));
  }

  function refreshInBackground(request: CacheableRequest, from: http.IncomingMessage): void {
    if (inFlight.has(request.key)) return;
    const startedAt = generation;
    const refresh = renderFor(request.key, syntheticRequest(request, from), null)
      .catch((error: unknown) => {
        log.error({ component: 'page-cache', err: error }, 'background refresh failed');
        return null;
      })
      .then((entry) => {
        // A page that can no longer be kept (now an error, say) is not served stale any longer.
        if (!entry) entries.delete(request.key);
        return entry;
      })
      .finally(() => {
        if (inFlight.get(request.key)?.render === refresh) inFlight.delete(request.key);
      });
    inFlight.set(request.key, { render: refresh, startedAt });
  }

  function send(req: http.IncomingMessage, res: http.ServerResponse, request: CacheableRequest, entry: Entry, state: 'hit' | 'stale' | 'miss' | 'member-hit' | 'member-miss'): void | Promise<void> {
    if (entry.api) {
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      res.setHeader('x-page-cache', state);
      res.setHeader('content-length', entry.identity.length);
      res.writeHead(entry.status);
      res.end(entry.identity);
      return;
    }
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader('vary', varyFor(request.path.split('?')[0]!, entry.status));
    res.setHeader('cache-control', guestCacheControl(entry.status, options, entry.expiresAt - Date.now()));
    res.setHeader('x-page-cache', state);
    res.setHeader('age', String(Math.max(0, Math.floor((Date.now() - entry.storedAt) / 1000))));
    if (entry.status === 200) {
      res.setHeader('etag', entry.etag);
      if (matchesEtag(req.headers['if-none-match'], entry.etag)) {
        res.writeHead(304);
        res.end();
        // A visitor who has the page (a prefetch, a back button) still sees it: a view too.
        options.onServed?.(request, req);
        return;
      }
    }
    const encoding = preferredEncoding(req, ['br', 'gzip', 'identity']);
    const finish = (body: Buffer) => {
      if (res.headersSent) return;
      if (encoding !== 'identity') res.setHeader('content-encoding', encoding);
      res.setHeader('content-length', body.length);
      res.writeHead(entry.status);
      res.end(req.method === 'HEAD' ? undefined : body);
      if (entry.status === 200) options.onServed?.(request, req);
    };
    const body = encodedBody(entry, encoding);
    // Read again: worth the smaller bytes, made after this answer while it is sent quick.
    if (state !== 'miss' && encoding !== 'identity' && entry.quick[encoding] && !entry.compressing[encoding]) {
      void (compress(entry, encoding, 'kept') as Promise<Buffer>).catch(() => undefined);
    }
    if (Buffer.isBuffer(body)) return finish(body);
    return body.then(finish);
  }

  /**
   * A public API read: its POST body read first (it is part of the key) and handed on to the
   * endpoint unchanged; fresh answers only, since a refresh in the background would have no body
   * to send and JSON is cheap to render again.
   */
  async function serveApi(req: http.IncomingMessage, res: http.ServerResponse, request: CacheableRequest): Promise<void> {
    const key = await apiKey(req, request);
    if (key === null) {
      stats.bypass += 1;
      return render(req, res);
    }
    const entry = entries.get(key);
    if (entry && entry.expiresAt > Date.now() && Date.now() - entry.storedAt < options.freshMs) {
      stats.hits += 1;
      return send(req, res, request, entry, 'hit');
    }
    if (entry) entries.delete(key);
    return renderOnce(key, req, res, request, true);
  }

  /**
   * Renders `req` into memory: the render when `mayKeep` says it may be kept, else null, the render
   * having gone to `target` as it was written (or nowhere, or broken off before its end).
   */
  async function captureRender(req: http.IncomingMessage, target: http.ServerResponse | null, mayKeep: Keepable, locals?: Partial<App.Locals>): Promise<CapturedPage | null> {
    const capture = new CapturingResponse({ req, target, keepable: mayKeep, maxBytes: MAX_PAGE_BYTES });
    await render(req, capture as unknown as http.ServerResponse, locals);
    return capture.done;
  }

  /**
   * The whole key of an API read: a POST's body is read (and handed on to the endpoint unchanged)
   * and added to it. Null when that body is too large or not JSON: the endpoint answers it, unkept.
   */
  async function apiKey(req: http.IncomingMessage, request: CacheableRequest): Promise<string | null> {
    if (req.method !== 'POST') return request.key;
    const body = await readBody(req, MAX_API_BODY_BYTES);
    replayBody(req, body.bytes, body.complete);
    const bodyKey = body.complete ? apiBodyKey(body.bytes) : null;
    return bodyKey === null ? null : `${request.key} ${bodyKey}`;
  }

  /**
   * A member's API read whose answer holds their own flags: answered from the answer kept for them,
   * or rendered for them (the endpoint tags it, `CACHE_RENDER_HEADER` saying whose it is) and kept
   * for them alone. False, having rendered nothing, when the session gives no member state (ended,
   * revoked, or in its second half and so due to be extended: the caller renders it whole).
   */
  async function serveMemberApi(req: http.IncomingMessage, res: http.ServerResponse, request: FillableRequest): Promise<boolean> {
    const key = await apiKey(req, request);
    // Read before the answer is: a change after it gives a new key, a write after it keeps this render from being kept.
    const startedAt = generation;
    const member = key !== null && options.memberState ? await options.memberState(request.token) : null;
    if (!member) return false;
    nameInLog(member.userId);
    const memberTag = pageTags.member(member.userId);
    const memberKey = `${memberTag} ${member.fingerprint} ${key}`;
    const kept = memberEntries.get(memberKey);
    if (kept && 'renderedAt' in kept && kept.expiresAt > Date.now() && !purgedSince(kept.renderedAt, kept.tags)) {
      stats.memberHits += 1;
      send(req, res, request, kept, 'member-hit');
      return true;
    }
    req.headers[CACHE_RENDER_HEADER] = 'member';
    const page = await captureRender(req, res, keepableApi);
    // Passed to them as it was written (an error, an answer the endpoint did not tag), or broken off.
    if (!page) {
      answerBrokenRender(res);
      return true;
    }
    const answer: MemberAnswer = { ...toEntry(page, true), renderedAt: startedAt };
    if (!purgedSince(startedAt, [memberTag, ...answer.tags]) && hearsPurges()) memberEntries.set(memberKey, answer);
    stats.memberMisses += 1;
    send(req, res, request, answer, 'member-miss');
    return true;
  }

  /**
   * Renders `key` for this visitor and keeps it: once for all who ask at the same time (a render
   * of the same generation already under way is shared), HEAD rendered alone by Astro.
   */
  async function renderOnce(key: string, req: http.IncomingMessage, res: http.ServerResponse, request: CacheableRequest, api: boolean): Promise<void> {
    const pending = inFlight.get(key);
    if (pending && pending.startedAt === generation) {
      const shared = await pending.render;
      if (shared && !res.headersSent) return send(req, res, request, shared, 'miss');
    }
    req.headers[CACHE_RENDER_HEADER] = 'render';
    // HEAD renders nothing to keep: Astro answers it alone.
    if (req.method === 'HEAD') {
      stats.bypass += 1;
      await render(req, res);
      return;
    }
    stats.misses += 1;
    const startedAt = generation;
    const rendering = renderFor(key, req, res, api);
    inFlight.set(key, { render: rendering, startedAt });
    try {
      const rendered = await rendering;
      if (rendered) await send(req, res, request, rendered, 'miss');
      else answerBrokenRender(res);
    } finally {
      if (inFlight.get(key)?.render === rendering) inFlight.delete(key);
    }
  }

  /** The guest page of `request` for a member's fill: kept, stale (refreshed behind), or rendered now as a guest. */
  async function guestEntry(request: CacheableRequest, from: http.IncomingMessage): Promise<Entry | null> {
    const now = Date.now();
    const entry = entries.get(request.key);
    if (entry && entry.expiresAt > now && now - entry.storedAt < options.freshMs + options.staleMs) {
      if (now - entry.storedAt >= options.freshMs) refreshInBackground(request, from);
      return entry;
    }
    if (entry) entries.delete(request.key);
    const pending = inFlight.get(request.key);
    if (pending && pending.startedAt === generation) return pending.render;
    stats.misses += 1;
    const startedAt = generation;
    const rendering = renderFor(request.key, syntheticRequest(request, from), null);
    inFlight.set(request.key, { render: rendering, startedAt });
    try {
      return await rendering;
    } finally {
      if (inFlight.get(request.key)?.render === rendering) inFlight.delete(request.key);
    }
  }

  /**
   * The member's places of a page, rendered by Astro as the member (their cookies, their language)
   * for the page they asked for: one fragment per place, and the cookies the render set. Null when
   * the render refuses (no valid session, a place it does not know), so the page is rendered whole.
   */
  async function renderPlaces(from: http.IncomingMessage, places: PlaceCall[], session: MemberSession | undefined): Promise<{ fragments: string[]; setCookie: http.OutgoingHttpHeader | undefined } | null> {
    // The member's own address, as their request has it (a view is counted from it).
    const socket = new net.Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: from.socket.remoteAddress });
    const req = new http.IncomingMessage(socket);
    req.method = 'GET';
    req.url = '/places-fill';
    const headers: http.IncomingHttpHeaders = {};
    for (const name of ['host', 'user-agent', 'accept', 'accept-language', 'cookie', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-for', 'purpose', 'sec-purpose']) {
      const value = from.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    req.headers = headers;
    req.push(null);
    const page = await captureRender(req, null, () => true, { fill: { path: from.url ?? '/', places, session } });
    if (!page || page.status !== 200) return null;
    const fragments = splitPlaces(page.body.toString('utf8'), places.length);
    return fragments ? { fragments, setCookie: page.headers['set-cookie'] } : null;
  }

  /** Sends a member's filled page, privately (`encodedBody`, light). */
  async function sendFilled(req: http.IncomingMessage, res: http.ServerResponse, entry: Entry, filled: MemberEntry, setCookie: http.OutgoingHttpHeader | undefined, state: string): Promise<void> {
    const encoding = preferredEncoding(req, ['br', 'gzip', 'identity']);
    const body = await encodedBody(filled, encoding, 'light');
    if (res.headersSent) return;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    if (setCookie !== undefined) res.setHeader('set-cookie', setCookie);
    // The member's own page: kept by nobody else, as a page rendered for them whole.
    res.setHeader('cache-control', 'private, no-store');
    res.setHeader('vary', 'Accept-Encoding');
    if (encoding !== 'identity') res.setHeader('content-encoding', encoding);
    res.setHeader('x-page-cache', state);
    res.setHeader('content-length', body.length);
    res.writeHead(200);
    res.end(body);
  }

  return {
    stats,

    /**
     * Answers a member from the guest page of `request` (`fillableRequest`) with their places
     * filled in, privately, or an API read from the answer kept for them (`serveMemberApi`). False
     * when it cannot (the guest page is not a kept 200 with places, the places render refused, no
     * member state): then the caller renders the page for them in full.
     */
    async fill(req: http.IncomingMessage, res: http.ServerResponse, request: FillableRequest): Promise<boolean> {
      if (request.kind === 'api') return serveMemberApi(req, res, request);
      const entry = await guestEntry(request, req);
      if (!entry?.template || entry.status !== 200) return false;
      // The member's state is read before their places are: a change after it gives a new key,
      // and a write of theirs after it keeps what is rendered now from being kept.
      const startedAt = generation;
      const member = options.memberState ? await options.memberState(request.token) : null;
      if (member) nameInLog(member.userId);
      const memberTag = member ? pageTags.member(member.userId) : '';
      const memberKey = member ? `${memberTag} ${member.fingerprint} ${request.key}` : null;
      const kept = memberKey ? memberEntries.get(memberKey) : undefined;
      if (kept && 'guest' in kept && kept.guest === entry) {
        if (res.headersSent) return true;
        stats.memberHits += 1;
        await sendFilled(req, res, entry, kept, undefined, 'member-hit');
        // A project page's view counts whether its places were rendered now or kept.
        if (entry.template.places.some((place) => place.name === 'project-view')) options.onServed?.(request, req, member!.userId);
        return true;
      }
      const places = await renderPlaces(req, entry.template.places, member?.session);
      if (!places || res.headersSent) return false;
      const filled: MemberEntry = { ...encodable(Buffer.from(keepFirstMessageBlocks(fillTemplate(entry.template, places.fragments)))), guest: entry };
      // A render that renewed the session (and sets its cookie again) is this answer's alone.
      if (memberKey && places.setCookie === undefined && !purgedSince(startedAt, [memberTag]) && hearsPurges()) memberEntries.set(memberKey, filled);
      if (res.headersSent) return true;
      stats.fills += 1;
      await sendFilled(req, res, entry, filled, places.setCookie, 'fill');
      return true;
    },
    /** The cache key of a request, or null when it must be rendered for this visitor alone. */
    match(req: http.IncomingMessage): CacheableRequest | null {
      return cacheableRequest(req.method, req.url ?? '/', req.headers);
    },

    /** For a member's request: the guest request whose page theirs is filled in from, or null to render theirs in full. */
    matchMember(req: http.IncomingMessage): FillableRequest | null {
      return fillableRequest(req.method, req.url ?? '/', req.headers);
    },

    /** Answers a cacheable request from memory, or renders it (once for all who ask at the same time). */
    async serve(req: http.IncomingMessage, res: http.ServerResponse, request: CacheableRequest): Promise<void> {
      if (request.kind === 'api') return serveApi(req, res, request);
      const now = Date.now();
      const entry = entries.get(request.key);
      // Past its own expiry a page is not even served stale: what it shows has changed.
      if (entry && entry.expiresAt <= now) entries.delete(request.key);
      else if (entry && now - entry.storedAt < options.freshMs + options.staleMs) {
        const fresh = now - entry.storedAt < options.freshMs;
        if (!fresh) refreshInBackground(request, req);
        stats[fresh ? 'hits' : 'stale'] += 1;
        return send(req, res, request, entry, fresh ? 'hit' : 'stale');
      }
      return renderOnce(request.key, req, res, request, false);
    },

    close(): void {
      stopListening();
      entries.clear();
    },
  };
}

/**
 * `Cache-Control` of a guest page: shared caches keep it as long as this one does, and no longer
 * than until its content changes by itself (`expiresInMs`), then without serving it stale.
 */
export function guestCacheControl(status: number, options: Pick<PageCacheOptions, 'freshMs' | 'staleMs'>, expiresInMs = Number.POSITIVE_INFINITY): string {
  const fresh = Math.max(0, Math.floor(Math.min(options.freshMs, expiresInMs) / 1000));
  const stale = Math.max(0, Math.floor(Math.min(options.staleMs, expiresInMs - options.freshMs) / 1000));
  return status === 200 && stale > 0 ? `public, max-age=0, s-maxage=${fresh}, stale-while-revalidate=${stale}` : `public, max-age=0, s-maxage=${fresh}`;
}

/** A render passed to the visitor that broke off before answering (an aborted request, a stream error): a 500, if nothing was sent. */
function answerBrokenRender(res: http.ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end('500 Internal Server Error\n');
}

/** The request's log line names the member: an answer kept for them is sent without the middleware that would. */
function nameInLog(userId: number): void {
  const served = currentRequest();
  if (served) served.userId = userId;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * A request like the visitor's, for a refresh that outlives their answer: the same address,
 * language and kind of browser, none of their cookies but the language and desktop choices.
 */
function syntheticRequest(request: CacheableRequest, from: http.IncomingMessage): http.IncomingMessage {
  const req = new http.IncomingMessage(new net.Socket());
  req.method = 'GET';
  req.url = request.path;
  const headers: http.IncomingHttpHeaders = {};
  for (const name of ['host', 'user-agent', 'accept', 'x-forwarded-proto', 'x-forwarded-host']) {
    const value = from.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers['accept-language'] = request.locale;
  const desktop = /(?:^|;\s*)prefer_desktop=1(?:;|$)/.test(from.headers.cookie ?? '');
  headers.cookie = `${LOCALE_COOKIE}=${request.locale}${desktop ? `; ${DESKTOP_COOKIE}=1` : ''}`;
  headers[CACHE_RENDER_HEADER] = 'render';
  req.headers = headers;
  req.push(null);
  return req;
}

/** Reads a request body up to `maxBytes` (and whatever chunk crosses it: the rest stays unread). */
function readBody(req: http.IncomingMessage, maxBytes: number): Promise<{ bytes: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData).off('end', onEnd).pause();
        resolve({ bytes: Buffer.concat(chunks), complete: false });
      }
    };
    const onEnd = () => resolve({ bytes: Buffer.concat(chunks), complete: true });
    // A client gone before the end: nothing to key, the endpoint sees the same broken body.
    req.on('data', onData).once('end', onEnd).once('error', reject).once('close', () => resolve({ bytes: Buffer.concat(chunks), complete: false }));
  });
}

/**
 * Hands a body read here on to the endpoint: Astro's Node adapter takes `req.body` when it is set,
 * the bytes themselves, or when the rest was left unread, those bytes and then the rest.
 */
function replayBody(req: http.IncomingMessage, read: Buffer, complete: boolean): void {
  (req as { body?: unknown }).body = complete
    ? read
    : (async function* () {
        yield read;
        for await (const chunk of req) yield chunk as Buffer;
      })();
}
