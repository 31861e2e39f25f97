import { useStore } from '@nanostores/react';
import { $auth, initAuth, type AuthState } from '../stores/auth.ts';

/**
 * The shared auth state for an island that the server rendered with `initial` (the signed-in
 * member's info, passed as props; the session stays in the HttpOnly cookie). In the browser the store is seeded once from it before the
 * first render, so hydration matches; on the server the store is never touched (it is shared by
 * all requests) and `initial` is returned as is.
 */
export function useAuth(initial: AuthState | null | undefined): AuthState {
  if (!import.meta.env.SSR && initial?.signedIn) initAuth(initial);
  const state = useStore($auth);
  return import.meta.env.SSR ? (initial ?? { signedIn: false, userInfo: null }) : state;
}
