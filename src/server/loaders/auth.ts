import type { AuthState } from '../../stores/auth.ts';
import { getUserInfo } from '../services/profiles.ts';

const cache = new WeakMap<App.Locals, Promise<AuthState | null>>();

/**
 * What islands need to act as the signed-in user: the session token (the cookie is HttpOnly, so
 * the page hands it over) and the user info. Null for guests. One query per request, however
 * many components ask.
 */
export function loadAuthState(locals: App.Locals): Promise<AuthState | null> {
  let state = cache.get(locals);
  if (!state) {
    state =
      locals.user && locals.sessionToken
        ? getUserInfo(locals.user.id).then((userInfo) => ({ token: locals.sessionToken, userInfo }))
        : Promise.resolve(null);
    cache.set(locals, state);
  }
  return state;
}
