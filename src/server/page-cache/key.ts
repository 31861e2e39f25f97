/**
 * Which requests the guest page cache may answer, and under which key. A page depends on its path
 * and query, the host it is built for (links and canonical addresses), the language (cookie, else
 * `Accept-Language`), and the kind of client: crawlers get short error bodies, phones opening a
 * desktop address are sent to `/m` unless they chose the desktop site. Everything else a page
 * shows is the same for every guest; anything of a member's own never reaches the cache.
 */
import { parseCookie } from 'cookie';
import { LOCALE_COOKIE, resolveLocale, type Locale } from '../../lib/i18n.ts';
import { desktopPathOf, isMobilePath } from '../../lib/paths.ts';
import { isCrawler, isMobileBrowser } from '../../lib/user-agent.ts';
import { TOKEN_COOKIE } from '../http/cookies.ts';
import { matchRoute } from '../routing/routes.ts';

/** Marks a request rendered for the cache: its loader counts no view (the cache counts them). */
export const CACHE_RENDER_HEADER = 'x-copperhub-page-cache';
/** The tags a page shows, set by `loadPage` and never sent to the visitor. */
export const PAGE_TAGS_HEADER = 'x-page-tags';
/** When a page's content changes by itself (epoch milliseconds), set by `loadPage`, never sent to the visitor. */
export const PAGE_EXPIRES_HEADER = 'x-page-expires';

/** Set by the middleware when a phone chose the desktop site (`?desktop=1`). */
export const DESKTOP_COOKIE = 'prefer_desktop';

/**
 * Pages never stored: previews carry a private share token, sign-in pages and the player take
 * one-time codes, signing out is a form, the messages route has its own caching.
 */
const NEVER = [/^\/(m\/)?preview(\/|$)/, /^\/(m\/)?sso(\/|$)/, /^\/(m\/)?video\//, /^\/(m\/)?logout(\/|$)/, /^\/api\//, /^\/_i18n\//, /^\/_actions\//, /^\/_server-islands\//];

/** Query parameters that act on the visitor (a sign-in code, the desktop choice) rather than select content. */
const ACTING_PARAMS = new Set(['code', 'desktop']);

/**
 * The public API reads the cache may answer, and who may be answered from it: `anyone` when the
 * endpoint never looks at the member (a member gets the guest's answer, which is theirs too),
 * `guests` when a member's answer holds their own flags (`liked`), so it is rendered for them and
 * kept for them alone (`fillableRequest`). The endpoint tags only the cache's own renders
 * (`publicCache`): a member's render of an `anyone` read is passed to them, never kept.
 */
export const CACHED_API_READS: ReadonlyMap<string, 'anyone' | 'guests'> = new Map([
  ['/api/project/list', 'anyone'],
  ['/api/project/search', 'anyone'],
  ['/api/comment/list', 'guests'],
  ['/api/tag/list', 'anyone'],
  ['/api/tag/detail', 'anyone'],
  ['/api/tag/getProjectList', 'anyone'],
  ['/api/user/getAppointUserProjectList', 'anyone'],
  ['/api/donate/list', 'anyone'],
  ['/api/donate/getIndexDonateScroll', 'anyone'],
  ['/api/banner/list', 'anyone'],
]);

/** A POST body larger than this is no list query: it is passed to the endpoint, never kept. */
export const MAX_API_BODY_BYTES = 16 * 1024;

export type ClientKind = 'crawler' | 'phone' | 'browser';

export interface CacheableRequest {
  /** `api`: a public API read (JSON, kept as rendered, never stale); a POST's key is completed by `apiBodyKey`. */
  kind?: 'page' | 'api';
  key: string;
  locale: Locale;
  client: ClientKind;
  /** The address asked for, query sorted: what the page is rendered for. */
  path: string;
}

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * The cache key of a guest's `GET`/`HEAD` of a page, or null when the request must be rendered for
 * this visitor alone: any other method, a session (cookie or Bearer), a page on the never list, or
 * a parameter that acts on the visitor.
 */
export function cacheableRequest(method: string | undefined, url: string, headers: Headers): CacheableRequest | null {
  const [pathname = '/', query = ''] = url.split(/\?(.*)/s);
  const apiRead = CACHED_API_READS.get(pathname);
  if (apiRead) return cacheableApiRead(apiRead, method, pathname, query, headers);
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (header(headers, 'authorization')) return null;
  if (NEVER.some((pattern) => pattern.test(pathname))) return null;
  const cookies = parseCookie(header(headers, 'cookie') ?? '');
  if (cookies[TOKEN_COOKIE]) return null;
  const params = new URLSearchParams(query);
  for (const name of params.keys()) if (ACTING_PARAMS.has(name)) return null;
  params.sort();
  const sorted = params.toString();
  const path = sorted ? `${pathname}?${sorted}` : pathname;
  const locale = resolveLocale(cookies[LOCALE_COOKIE], header(headers, 'accept-language'));
  const client = clientKind(pathname, header(headers, 'user-agent'), cookies[DESKTOP_COOKIE] === '1');
  const host = (header(headers, 'host') ?? '').toLowerCase();
  return { key: `${host} ${locale} ${client} ${path}`, locale, client, path };
}

/**
 * A member's request the cache answers for them: the guest's request for the same address (its
 * key, language and kind of client), and the member's session token.
 */
export type FillableRequest = CacheableRequest & { token: string };

/**
 * A member's request the cache answers for them alone: a `GET` of a page served from the guest page
 * with its places filled, or a public API read whose answer holds their own flags (`guests` in
 * `CACHED_API_READS`), kept for them. Answers the guest's request for the same address with the
 * member's session token, or null when it must be rendered for the member in full (a page route
 * that is not `fillable`, a Bearer token, anything a guest could not be answered from the cache
 * for).
 */
export function fillableRequest(method: string | undefined, url: string, headers: Headers): FillableRequest | null {
  if (header(headers, 'authorization')) return null;
  const pathname = url.split('?')[0] ?? '/';
  const memberRead = CACHED_API_READS.get(pathname) === 'guests';
  if (!memberRead && (method !== 'GET' || !matchRoute(desktopPathOf(pathname))?.fillable)) return null;
  const cookies = parseCookie(header(headers, 'cookie') ?? '');
  const token = cookies[TOKEN_COOKIE];
  if (!token) return null;
  const guestCookies = Object.entries(cookies)
    .filter(([name, value]) => name !== TOKEN_COOKIE && value !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  const request = cacheableRequest(method, url, { ...headers, cookie: guestCookies });
  return request && { ...request, token };
}

/**
 * The key of a public API read: method, path, input (the query sorted; a POST's JSON body is read
 * and added by `apiBodyKey`), host and language (tag names and banner titles are localized). The
 * kind of client does not matter to JSON. A cross-site POST is left to the middleware to refuse.
 */
function cacheableApiRead(who: 'anyone' | 'guests', method: string | undefined, pathname: string, query: string, headers: Headers): CacheableRequest | null {
  if (method !== 'GET' && method !== 'POST') return null;
  const cookies = parseCookie(header(headers, 'cookie') ?? '');
  if (who === 'guests' && (cookies[TOKEN_COOKIE] || header(headers, 'authorization'))) return null;
  const host = (header(headers, 'host') ?? '').toLowerCase();
  if (method === 'POST') {
    const site = header(headers, 'sec-fetch-site');
    const origin = header(headers, 'origin');
    if ((site && site !== 'same-origin' && site !== 'none') || (origin && originHost(origin) !== host)) return null;
    if (!/^application\/json\b/i.test(header(headers, 'content-type') ?? 'application/json')) return null;
  }
  const params = new URLSearchParams(query);
  params.sort();
  const sorted = params.toString();
  const path = sorted ? `${pathname}?${sorted}` : pathname;
  const locale = resolveLocale(cookies[LOCALE_COOKIE], header(headers, 'accept-language'));
  return { kind: 'api', key: `${host} ${locale} api ${method} ${path}`, locale, client: 'browser', path };
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The rest of a POST read's key: its JSON body with keys sorted at every depth, so `{a,b}` and
 * `{b,a}` share an answer; null when the body is not JSON (the endpoint answers that error itself).
 */
export function apiBodyKey(body: Buffer): string | null {
  const text = body.toString('utf8');
  if (!text.trim()) return '{}';
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    return null;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
  return value;
}

/**
 * Crawlers apart (their error answers differ); phones apart only where they are sent elsewhere,
 * on a desktop address that has a mobile page, unless they chose the desktop site.
 */
function clientKind(pathname: string, userAgent: string | undefined, prefersDesktop: boolean): ClientKind {
  if (isCrawler(userAgent)) return 'crawler';
  if (!prefersDesktop && !isMobilePath(pathname) && isMobileBrowser(userAgent) && matchRoute(desktopPathOf(pathname))?.mobile) return 'phone';
  return 'browser';
}

/**
 * The request headers a guest page may depend on, for `Vary`: the language, the cookies (a session
 * or a language choice), and the browser where phones are redirected or crawlers answered apart.
 */
export function varyFor(pathname: string, status: number): string {
  const byAgent = status === 404 || (!isMobilePath(pathname) && Boolean(matchRoute(pathname)?.mobile));
  return byAgent ? 'Accept-Encoding, Accept-Language, Cookie, User-Agent' : 'Accept-Encoding, Accept-Language, Cookie';
}
