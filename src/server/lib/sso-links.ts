import { getConfig, type AppConfig } from '../config.ts';
import { AppError } from '../http/errors.ts';

/** The platform value the SSO expects from this site. */
export const SSO_PLATFORM = '6';

/**
 * The sign-in address: `SSO_LOGIN_URL?redirect=<return address>&siteId=<SSO_SITE_ID>&platform=6`.
 */
export function buildSignInUrl(returnUrl: string, loginUrl = getConfig().ssoLoginUrl): string {
  const separator = loginUrl.includes('?') ? '&' : '?';
  const params = new URLSearchParams({ redirect: returnUrl, siteId: getConfig().ssoSiteId, platform: SSO_PLATFORM });
  return `${loginUrl}${separator}${params.toString()}`;
}

/** Addresses of this machine: a code sent there never leaves the visitor's own computer. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a request naming `host` (the `Host` header: `name` or `name:port`) may get sign-in
 * return addresses built from it. `SITE_URL`'s host always may; then `ALLOWED_HOSTS` (an entry
 * without a port allows every port); without that list, only loopback names, on the configured
 * port in production (any port elsewhere: tests and the dev server listen where they can).
 */
export function isAllowedHost(host: string, config: AppConfig = getConfig()): boolean {
  const wanted = host.toLowerCase();
  let parsed: URL;
  try {
    parsed = new URL(`http://${wanted}`);
  } catch {
    return false;
  }
  if (parsed.host !== wanted.replace(/:80$/, '') || parsed.pathname !== '/') return false;
  if (config.siteUrl && new URL(config.siteUrl).host === parsed.host) return true;
  if (config.allowedHosts.length > 0) {
    return config.allowedHosts.some((entry) => entry === parsed.host || entry === parsed.hostname);
  }
  if (!LOOPBACK_HOSTNAMES.has(parsed.hostname)) return false;
  return !config.production || (parsed.port || '80') === String(config.port);
}

/**
 * The site's public origin: `SITE_URL` when configured, else the origin of the request when its
 * host is allowed (`isAllowedHost`). A forged `Host` is never echoed into links, feeds or return
 * addresses: it gets the first allowed host, or the loopback address on the configured port.
 */
export function siteOrigin(requestUrl: URL, config: AppConfig = getConfig()): string {
  if (config.siteUrl) return config.siteUrl;
  if (isAllowedHost(requestUrl.host, config)) return requestUrl.origin;
  return `http://${config.allowedHosts[0] ?? `localhost:${config.port}`}`;
}

/**
 * Refuses (400 `host_not_allowed`) to mint a sign-in code on a request whose `Host` is not the
 * site's own while `SITE_URL` is unset: the code would be handed to an address the site cannot
 * vouch for. With `SITE_URL`, return addresses are built from it whatever the request says.
 */
export function assertSignInHost(requestUrl: URL, config: AppConfig = getConfig()): void {
  if (!config.siteUrl && !isAllowedHost(requestUrl.host, config)) throw new AppError('host_not_allowed');
}

/** The origins a return address may point to: the site itself and `SSO_ALLOWED_ORIGINS`. */
export function allowedReturnOrigins(requestUrl: URL): Set<string> {
  const origins = new Set([siteOrigin(requestUrl)]);
  for (const entry of getConfig().ssoAllowedOrigins) {
    try {
      origins.add(new URL(entry).origin);
    } catch {
      // a malformed entry allows nothing
    }
  }
  return origins;
}

/** Pages a sign-in must never return to (they would sign out again or loop through the SSO). */
const NO_RETURN = /^\/(?:sso(?:\/|$)|logout(?:\/|$)|api\/)/;

/**
 * The return address the SSO may send a browser to: `redirect` resolved against the site (a
 * relative path stays on the site) when its origin is allowed, else the site's home. Never an
 * open redirect: other origins, `//host`, `/\host`, `javascript:` and friends all become `/`.
 * A stale `code` parameter is dropped; a fragment (`#comments`) is kept, so the member lands
 * where they were about to act.
 */
export function safeReturnUrl(redirect: string | null | undefined, requestUrl: URL): URL {
  const origin = siteOrigin(requestUrl);
  const home = new URL('/', origin);
  if (!redirect || redirect.length > 2000) return home;
  let url: URL;
  try {
    url = new URL(redirect, origin);
  } catch {
    return home;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return home;
  if (url.username || url.password) return home;
  if (!allowedReturnOrigins(requestUrl).has(url.origin)) return home;
  if (url.origin === new URL(origin).origin && NO_RETURN.test(url.pathname)) return home;
  url.searchParams.delete('code');
  return url;
}

/**
 * A path-and-query of this site for a `Location` header. Leading slashes and backslashes are
 * collapsed so a request such as `//evil.example/x` can never become a protocol-relative
 * redirect to another host.
 */
export function localLocation(url: URL, drop: string[] = []): string {
  const target = new URL(url);
  for (const name of drop) target.searchParams.delete(name);
  const path = `/${target.pathname.replace(/^[/\\]+/, '')}`;
  return path + target.search;
}

/** The absolute address of the current page, as the return address of a sign-in link. */
export function currentPageUrl(requestUrl: URL): string {
  return new URL(localLocation(requestUrl), siteOrigin(requestUrl)).toString();
}

/**
 * A sign-in link that returns to this page (or to `path` on this site), optionally with extra
 * query parameters (e.g. a pending `intent`) and a fragment. Every sign-in link is built here.
 */
export function signInUrlFor(requestUrl: URL, options: { path?: string; params?: Record<string, string>; hash?: string } = {}): string {
  const back = new URL(options.path ? new URL(options.path, siteOrigin(requestUrl)).toString() : currentPageUrl(requestUrl));
  for (const [key, value] of Object.entries(options.params ?? {})) back.searchParams.set(key, value);
  if (options.hash) back.hash = options.hash;
  return buildSignInUrl(back.toString());
}
