import { useStore } from '@nanostores/react';
import { $auth, initAuth, type AuthState } from '../stores/auth.ts';

/**
 * The shared auth state for an island that the server rendered with `initial` (the page's token
 * and user info, passed as props). In the browser the store is seeded once from it before the
 * first render, so hydration matches; on the server the store is never touched (it is shared by
 * all requests) and `initial` is returned as is.
 */
export function useAuth(initial: AuthState | null | undefined): AuthState {
  if (!import.meta.env.SSR && initial?.token) initAuth(initial);
  const state = useStore($auth);
  return import.meta.env.SSR ? (initial ?? { token: null, userInfo: null }) : state;
}
