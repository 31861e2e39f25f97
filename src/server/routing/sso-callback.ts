import type { APIContext } from 'astro';
import { setTokenCookie, TOKEN_COOKIE } from '../http/cookies.ts';
import { invalidateSession } from '../services/sessions.ts';
import { exchangeSsoCode } from '../services/sso.ts';
import { localLocation, siteOrigin } from '../services/sso-links.ts';

/**
 * The site side of the SSO: a page opened with `?code=` (the `location` the SSO answered)
 * exchanges the one-time code server-side for a session, sets the `token` cookie and reloads the
 * same address without `code`. An invalid, used or expired code is simply dropped.
 */
export async function handleSsoCallback(context: APIContext): Promise<Response | undefined> {
  const { request, url } = context;
  if (request.method !== 'GET' || !url.searchParams.has('code')) return undefined;
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/sso/api/') || url.pathname.startsWith('/_')) return undefined;
  const session = await exchangeSsoCode(url.searchParams.get('code'), request.headers.get('user-agent') ?? '');
  if (session) {
    // The browser's previous session, if any, is replaced rather than left valid in the database.
    const previous = context.cookies.get(TOKEN_COOKIE)?.value;
    if (previous) await invalidateSession(previous);
    setTokenCookie(context.cookies, session.token, session.expiresAt, siteOrigin(url).startsWith('https:'));
  }
  // Back to the address the visitor opened (`/m/…` on mobile), not the desktop route serving it.
  const response = context.redirect(localLocation(context.locals.url, ['code']), 302);
  response.headers.set('cache-control', 'no-store');
  return response;
}
