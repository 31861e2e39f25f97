import type { APIContext } from 'astro';
import { setTokenCookie, TOKEN_COOKIE } from '../http/cookies.ts';
import { sessionCookieSecure } from '../http/transport.ts';
import { localLocation } from '../lib/sso-links.ts';
import { exchangeSsoCodeInBrowser } from '../services/accounts/index.ts';

/**
 * The site side of the SSO and of app web views: a page opened with `?code=` (the `location` the
 * SSO answered, or an address an app built with `POST /api/sso/webviewCode`) exchanges the
 * one-time code server-side for a session, sets the `token` cookie and reloads the same address
 * without `code`, so the code stays out of history, logs and `Referer`. An invalid, used or
 * expired code is simply dropped; so is a code for another member than the one this browser is
 * signed in as (see `exchangeSsoCodeInBrowser`).
 */
export async function handleSsoCallback(context: APIContext, param = 'code'): Promise<Response | undefined> {
  const { request, url } = context;
  if (request.method !== 'GET' || !url.searchParams.has(param)) return undefined;
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/sso/api/') || url.pathname.startsWith('/_')) return undefined;
  const current = context.cookies.get(TOKEN_COOKIE)?.value;
  const session = await exchangeSsoCodeInBrowser(url.searchParams.get(param), current, request.headers.get('user-agent') ?? '');
  if (session) setTokenCookie(context.cookies, session.token, session.expiresAt, sessionCookieSecure(request, url));
  // Back to the address the visitor opened (`/m/…` on mobile), not the desktop route serving it.
  const response = context.redirect(localLocation(context.locals.url, [param]), 302);
  response.headers.set('cache-control', 'no-store');
  response.headers.set('referrer-policy', 'no-referrer');
  return response;
}
