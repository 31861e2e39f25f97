import type { APIContext } from 'astro';
import { clearTokenCookie } from '../http/cookies.ts';
import { invalidateSession } from '../services/accounts/index.ts';
import { signInUrlFor } from '../lib/sso-links.ts';
import { handleSsoCallback } from './sso-callback.ts';
import type { RouteMeta } from './routes.ts';

/** A route middleware: return a Response to stop (redirect), nothing to let the page render. */
export type RouteMiddleware = (context: APIContext) => Promise<Response | void> | Response | void;

/** `auth`: guests go to sign-in with the current URL as return address. */
const auth: RouteMiddleware = (context) => {
  if (!context.locals.user) return context.redirect(signInUrlFor(context.locals.url), 302);
};

/** `logout`: ends the session, clears the cookie and goes home. */
const logout: RouteMiddleware = async (context) => {
  // Only the sign-out button's POST (cross-site ones are refused before this): `GET /logout`,
  // which any site can link to, renders the confirmation page.
  if (context.request.method !== 'POST') return;
  if (context.locals.sessionToken) await invalidateSession(context.locals.sessionToken);
  clearTokenCookie(context.cookies);
  context.locals.user = null;
  return context.redirect(context.locals.variant === 'mobile' ? '/m' : '/', 303);
};

/**
 * `token`: an app opens the player in a web view with `?token=<code>`, a one-time code from
 * `POST /api/sso/webviewCode` (never a session token): exchanged for the session cookie like a
 * sign-in code, then the address is reloaded without it. An invalid code is dropped, and a
 * browser signed in as another member keeps its session.
 */
const token: RouteMiddleware = (context) => handleSsoCallback(context, 'token');

/** Every middleware a route may name, resolved by name in this one table. */
export const routeMiddlewares: Record<string, RouteMiddleware> = { auth, logout, token };

/** Fails at start-up when a route names a middleware that does not exist. */
export function assertRouteMiddlewares(table: RouteMeta[]): void {
  for (const meta of table) {
    for (const name of meta.middleware) {
      if (!Object.hasOwn(routeMiddlewares, name)) {
        throw new Error(`Unknown route middleware "${name}" on route ${meta.pattern}. Known: ${Object.keys(routeMiddlewares).join(', ')}`);
      }
    }
  }
}
