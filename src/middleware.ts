import { defineMiddleware, sequence } from 'astro:middleware';
import { cookieLocale, getT, LOCALE_COOKIE, resolveLocale } from './lib/i18n.ts';
import { desktopPathOf, isMobilePath, variantPath } from './lib/paths.ts';
import { isCrawler, isMobileBrowser } from './lib/user-agent.ts';
import { readRequestToken } from './server/http/cookies.ts';
import { isCrossSiteWrite, showsRefusalOnForm } from './server/http/csrf.ts';
import { errorResponse } from './server/http/envelope.ts';
import { AppError } from './server/http/errors.ts';
import { assertRouteMiddlewares, routeMiddlewares } from './server/routing/middlewares.ts';
import { matchRoute, routeTable } from './server/routing/routes.ts';
import { handleSsoCallback } from './server/routing/sso-callback.ts';
import { CACHE_RENDER_HEADER, DESKTOP_COOKIE, PAGE_EXPIRES_HEADER, PAGE_TAGS_HEADER } from './server/page-cache/key.ts';
import { rememberMemberLocale, findSession } from './server/services/accounts/index.ts';
import { currentRequest } from './server/log.ts';
import { siteOrigin } from './server/lib/sso-links.ts';

assertRouteMiddlewares(routeTable);


/**
 * `/m/x` is served by the page of `/x` in the mobile layout: the variant goes on `locals` and the
 * request is rewritten to the desktop route. Paths without a mobile route (`/m/logout`, `/m/api/…`,
 * anything unknown) are not rewritten and end on the 404 page, in the mobile layout.
 */
const variant = defineMiddleware(({ url, locals }, next) => {
  // The places of a page rendered for a member stand in for that page: its address, its variant.
  locals.url = locals.fill ? new URL(locals.fill.path, url) : url;
  if (locals.fill) {
    locals.variant = isMobilePath(locals.url.pathname) ? 'mobile' : 'desktop';
    return next();
  }
  if (!isMobilePath(url.pathname)) {
    locals.variant = 'desktop';
    return next();
  }
  locals.variant = 'mobile';
  const desktopPath = desktopPathOf(url.pathname);
  return matchRoute(desktopPath)?.mobile ? next(desktopPath + url.search) : next();
});

/** Fills `locals`: locale and `t`, and the signed-in user. */
const context = defineMiddleware(async ({ request, cookies, locals, routePattern, url }, next) => {
  locals.locale = resolveLocale(cookies.get(LOCALE_COOKIE)?.value, request.headers.get('accept-language'));
  locals.t = getT(locals.locale);
  const token = readRequestToken(request, cookies);
  let session: Awaited<ReturnType<typeof findSession>>;
  try {
    session = locals.fill?.session ?? (await findSession(token));
  } catch (error) {
    // The database out of reach (or any failure) before an endpoint ran: an API caller still gets
    // the envelope (503 `database_unavailable`, to try again), never the HTML error page.
    if (url.pathname.startsWith('/api/')) return errorResponse(error, locals.t);
    // The error page of that failure still renders, for a guest: it says what is out of reach.
    if (routePattern !== '/500') throw error;
    session = null;
  }
  locals.user = session?.user ?? null;
  locals.sessionToken = session ? token : null;
  // The header's member came with the session: pages load no more of them.
  if (session) locals.viewer = session.viewer;
  // A guest page kept by the cache names its member places, for members' pages filled from it.
  // Not a crawler's: crawlers are cached apart, members are not filled from their pages, and
  // keeping each such page's marked copy as well cost a crawler's walk a tenth of its rate.
  // (`isCrawler` counts scripts such as curl as crawlers: a member's page asked for by one is
  // rendered whole, never filled.)
  locals.markPlaces = !session && request.headers.has(CACHE_RENDER_HEADER) && !isCrawler(request.headers.get('user-agent')) && Boolean(matchRoute(desktopPathOf(locals.url.pathname))?.fillable);
  // The request's log line and metrics name the route and the member (never the token).
  const served = currentRequest();
  if (served) {
    served.route ??= routePattern;
    served.userId = locals.user?.id ?? null;
  }
  // A member who switched language gets their emails in it too.
  if (session && cookieLocale(cookies.get(LOCALE_COOKIE)?.value) && session.locale !== locals.locale) {
    await rememberMemberLocale(session.user.id, locals.locale).catch(() => undefined);
  }
  const response = await next();
  if (locals.unavailable) {
    const headers = new Headers(response.headers);
    headers.set('retry-after', String(locals.unavailable.retryAfterSeconds));
    headers.set('cache-control', 'no-store');
    return new Response(response.body, { status: 503, headers });
  }
  try {
    // Signed-in pages carry the member's own data: never stored by a shared cache.
    if (locals.user && (response.headers.get('content-type') ?? '').includes('text/html')) response.headers.set('cache-control', 'private, no-store');
    // A page's tags and expiry are for the page cache alone.
    if (!request.headers.has(CACHE_RENDER_HEADER)) {
      response.headers.delete(PAGE_TAGS_HEADER);
      response.headers.delete(PAGE_EXPIRES_HEADER);
    }
  } catch {
    // immutable headers (a fetched response): nothing to adjust
  }
  return response;
});

/**
 * Writes another site may have made the visitor's browser send (see `isCrossSiteWrite`) are
 * refused here, before any page or endpoint runs: with the JSON envelope, or on the form itself
 * for the sign-in and sign-up pages (which then change nothing).
 */
const crossSite = defineMiddleware(({ request, url, locals }, next) => {
  if (!isCrossSiteWrite(request, siteOrigin(url))) return next();
  if (showsRefusalOnForm(url.pathname)) {
    locals.crossSiteWrite = true;
    return next();
  }
  return errorResponse(new AppError('cross_site_request'), locals.t);
});

/** The site side of the SSO: `?code=` is exchanged for the session cookie, then dropped. */
const ssoCallback = defineMiddleware(async (ctx, next) => (await handleSsoCallback(ctx)) ?? next());

/** Phones opening a desktop page go to its `/m` address; `?desktop=1` opts out (remembered). */
const mobileRedirect = defineMiddleware(({ request, url, cookies, redirect, locals }, next) => {
  if (request.method !== 'GET' || locals.variant === 'mobile' || url.pathname.startsWith('/api/')) return next();
  if (url.searchParams.get('desktop') === '1') {
    cookies.set(DESKTOP_COOKIE, '1', { path: '/', maxAge: 365 * 24 * 60 * 60, sameSite: 'lax' });
    return next();
  }
  if (url.searchParams.get('desktop') === '0') cookies.delete(DESKTOP_COOKIE, { path: '/' });
  else if (cookies.get(DESKTOP_COOKIE)?.value === '1') return next();
  if (matchRoute(url.pathname)?.mobile && isMobileBrowser(request.headers.get('user-agent'))) {
    return redirect(variantPath('mobile', url.pathname) + url.search, 302);
  }
  return next();
});

/** Runs the named middlewares of the matched route in order (`url` is the desktop route here). */
const routeGuards = defineMiddleware(async (ctx, next) => {
  for (const name of matchRoute(ctx.url.pathname)?.middleware ?? []) {
    const response = await routeMiddlewares[name]!(ctx);
    if (response) return response;
  }
  return next();
});

/** Crawlers get the status and a short plain body instead of an error page. */
const crawlerErrors = defineMiddleware(async ({ request, url }, next) => {
  const crawler = isCrawler(request.headers.get('user-agent')) && !url.pathname.startsWith('/api/');
  if (!crawler) return next();
  let response: Response;
  try {
    response = await next();
  } catch {
    return new Response('500 Internal Server Error\n', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  if (response.status === 404) {
    return new Response(`404 Page Not Found: ${url.pathname}\n`, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  if (response.status >= 500) {
    return new Response(`${response.status} Internal Server Error\n`, { status: response.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return response;
});

export const onRequest = sequence(crawlerErrors, variant, ssoCallback, context, crossSite, mobileRedirect, routeGuards);
