import type { AstroCookies } from 'astro';

export const TOKEN_COOKIE = 'token';

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure when the site is served over https. */
export function setTokenCookie(cookies: AstroCookies, token: string, expiresAt: Date, secure: boolean): void {
  cookies.set(TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: expiresAt });
}

export function clearTokenCookie(cookies: AstroCookies): void {
  cookies.delete(TOKEN_COOKIE, { path: '/' });
}

/**
 * Whether a request authenticates with `Authorization: Bearer …` (apps and scripts). Its cookie is
 * then never read, and no browser adds that header to a request another site makes it send.
 */
export function usesBearer(request: Request): boolean {
  return request.headers.get('authorization')?.toLowerCase().startsWith('bearer ') ?? false;
}

/** The token of a request: `Authorization: Bearer …` first, then the cookie. */
export function readRequestToken(request: Request, cookies: AstroCookies): string | null {
  if (usesBearer(request)) return request.headers.get('authorization')!.slice(7).trim() || null;
  return cookies.get(TOKEN_COOKIE)?.value || null;
}
