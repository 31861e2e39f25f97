import { usesBearer } from './cookies.ts';

/**
 * Payment providers' callbacks, which authenticate by a signature over the body, not by a cookie:
 * a forged one changes nothing whoever sends it, so where it was sent from does not matter.
 * Exact paths, never prefixes: every other write keeps the browser rules below.
 */
const SIGNED_CALLBACKS = new Set(['/api/donate/webhook']);

/** Methods that change nothing: any site may make a browser send them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a write may have been sent by a page of another site through the visitor's browser
 * (cross-site request forgery), so it must be refused. The browser attaches the session cookie
 * to such a request, and for sign-in and sign-up forms the attacker's own credentials would sign
 * the visitor in as them; so the rule holds for every content type, JSON included, and for
 * writes without a session too.
 *
 * - A payment provider's signed callback (`SIGNED_CALLBACKS`) carries its own proof.
 * - A request with `Authorization: Bearer` comes from an app or a script: its cookie is never
 *   read, and a browser only sends that header when a script of the target site's own pages (or
 *   one that passed a CORS preflight, which this site never grants) set it. No origin needed.
 * - `Sec-Fetch-Site`, which browsers set themselves and pages cannot forge, decides when present:
 *   `same-origin`, or `none` (the visitor's own action, such as a bookmark), is allowed.
 * - Otherwise `Origin`, which browsers send with every write, must be the site's origin.
 * - A request with neither header does not come from a browser (curl, an app's HTTP client),
 *   so no other site can have made it: allowed, like the Bearer case.
 */
export function isCrossSiteWrite(request: Request, siteOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (usesBearer(request)) return false;
  if (SIGNED_CALLBACKS.has(new URL(request.url).pathname)) return false;
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite !== null) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = request.headers.get('origin');
  if (origin === null) return false;
  return origin !== siteOrigin;
}

/**
 * Form pages that show the refusal on the form itself (`locals.crossSiteWrite`), for a visitor
 * without JavaScript; every other address answers the JSON envelope `cross_site_request`.
 */
const FORM_PAGES = new Set(['/sso/login', '/sso/register', '/sso/forgot', '/sso/reset']);

export function showsRefusalOnForm(desktopPath: string): boolean {
  return FORM_PAGES.has(desktopPath.replace(/\/$/, '') || '/');
}
