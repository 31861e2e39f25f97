import { atom } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { UserInfo } from '../lib/api-types.ts';

/**
 * Auth state shared by every island: whether the page was rendered for a signed-in member, and
 * their info. The session itself is the HttpOnly cookie the browser sends with every API call;
 * no script on the page can read it.
 */
export interface AuthState {
  signedIn: boolean;
  userInfo: UserInfo | null;
}

const SIGNED_OUT: AuthState = { signedIn: false, userInfo: null };

export const $auth = atom<AuthState>(SIGNED_OUT);

/**
 * Seeds the store once per page from what the server rendered, without overwriting newer state.
 * Islands hydrate in any order: when one seeded only `signedIn`, another one rendered for the
 * same page completes it with the user info.
 */
export function initAuth(initial: Partial<AuthState>): void {
  const current = $auth.get();
  if (!current.signedIn) {
    if (initial.signedIn) $auth.set({ signedIn: true, userInfo: initial.userInfo ?? null });
    return;
  }
  if (!current.userInfo && initial.signedIn && initial.userInfo) $auth.set({ signedIn: true, userInfo: initial.userInfo });
}

/**
 * Fetches `user/getUserInfo` — only when the page is signed in — and stores the user only when
 * `retCode` is 0; any failure leaves the store as it was.
 */
export async function fetchUserInfo(): Promise<UserInfo | null> {
  if (!$auth.get().signedIn) return null;
  try {
    const userInfo = await apiCall<UserInfo>('user/getUserInfo');
    if ($auth.get().signedIn) $auth.set({ signedIn: true, userInfo });
    return userInfo;
  } catch {
    return $auth.get().userInfo;
  }
}

/**
 * Replaces the user info after the signed-in user changed it (e.g. a new avatar from
 * `user/edit`), so every island shows it at once. Ignored when signed out.
 */
export function setUserInfo(userInfo: UserInfo): void {
  if ($auth.get().signedIn) $auth.set({ signedIn: true, userInfo });
}

/** Signing out on the page: no member, no info. */
export function clearAuth(): void {
  $auth.set(SIGNED_OUT);
}
