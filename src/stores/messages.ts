import { atom, onMount } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { UserInfo } from '../lib/api-types.ts';
import { $auth } from './auth.ts';

/** The signed-in user's unread message count, shared by the header badge and the mobile tab bar. */
export interface MessagesState {
  unread: number;
}

/**
 * The unread count. While any island shows it, it keeps itself fresh: every minute while the tab
 * is visible and at once when the tab becomes visible again; the refresher starts with the first
 * subscriber and stops after the last one leaves (nanostores `onMount`).
 */
export const $messages = atom<MessagesState>({ unread: 0 });

/** How often the count is refreshed while the page is visible. */
export const UNREAD_REFRESH_MS = 60_000;

let seeded = false;

/** Seeds the count once per page from the server render, so the badge shows without a flash. */
export function initMessages(unread: number): void {
  if (seeded) return;
  seeded = true;
  $messages.set({ unread: Math.max(0, unread) });
}

/**
 * Sets the count at once (after reading messages, or from `message/list`), and mirrors it into
 * `$auth`'s user info so anything showing `unreadMessages` agrees.
 */
export function setUnread(unread: number): void {
  const count = Math.max(0, unread);
  $messages.set({ unread: count });
  const { signedIn, userInfo } = $auth.get();
  if (userInfo && userInfo.unreadMessages !== count) $auth.set({ signedIn, userInfo: { ...userInfo, unreadMessages: count } });
}

/**
 * Fetches `user/getUserInfo` (only on a signed-in page) and takes its `unreadMessages`; on any failure
 * the count stays as it was. Returns the count.
 */
export async function refreshUnread(): Promise<number> {
  if (!$auth.get().signedIn) return $messages.get().unread;
  try {
    const userInfo = await apiCall<UserInfo>('user/getUserInfo');
    // Signed out on the page meanwhile: the answer belongs to a session that is gone.
    if (!$auth.get().signedIn) return $messages.get().unread;
    $auth.set({ signedIn: true, userInfo });
    setUnread(userInfo.unreadMessages);
  } catch {
    // keep the last known count
  }
  return $messages.get().unread;
}

// Only a page refreshes: the server renders the count it was given and starts no timers.
if (typeof document !== 'undefined') {
  onMount($messages, () => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refreshUnread();
    };
    const timer = setInterval(onVisible, UNREAD_REFRESH_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  });
}
