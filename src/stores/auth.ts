import { atom } from 'nanostores';
import { apiCall, setTokenSource } from '../lib/api-client.ts';
import type { UserInfo } from '../lib/api-types.ts';

/** Auth state shared by every island: the token and the signed-in user's info. */
export interface AuthState {
  token: string | null;
  userInfo: UserInfo | null;
}

export const $auth = atom<AuthState>({ token: null, userInfo: null });

setTokenSource(() => $auth.get().token);

/** Sets the token after sign-in (or from the page the server rendered). */
export function setToken(token: string | null): void {
  $auth.set({ ...$auth.get(), token });
}

/**
 * Seeds the store once per page from what the server rendered, without overwriting newer state.
 * Islands hydrate in any order: when one seeded only the token, another one rendered for the same
 * session completes it with the user info.
 */
export function initAuth(initial: Partial<AuthState>): void {
  const current = $auth.get();
  if (!current.token && !current.userInfo) {
    $auth.set({ token: initial.token ?? null, userInfo: initial.userInfo ?? null });
    return;
  }
  if (!current.userInfo && initial.userInfo && initial.token && initial.token === current.token) {
    $auth.set({ token: current.token, userInfo: initial.userInfo });
  }
}

/**
 * Fetches `user/getUserInfo` — only when a token exists — and stores the user only when
 * `retCode` is 0; any failure leaves the store as it was.
 */
export async function fetchUserInfo(): Promise<UserInfo | null> {
  const { token } = $auth.get();
  if (!token) return null;
  try {
    const userInfo = await apiCall<UserInfo>('user/getUserInfo');
    if ($auth.get().token === token) $auth.set({ token, userInfo });
    return userInfo;
  } catch {
    return $auth.get().userInfo;
  }
}

/**
 * Replaces the user info after the signed-in user changed it (e.g. a new avatar from
 * `user/edit`), so every island shows it at once. Ignored without a token.
 */
export function setUserInfo(userInfo: UserInfo): void {
  const { token } = $auth.get();
  if (token) $auth.set({ token, userInfo });
}

/** Clearing removes both the token and the user info. */
export function clearAuth(): void {
  $auth.set({ token: null, userInfo: null });
}
