import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanStores, STORE_UNMOUNT_DELAY } from 'nanostores';

const apiCall = vi.fn();
vi.mock('../../src/lib/api-client.ts', () => ({ apiCall: (...args: unknown[]) => apiCall(...args), setTokenSource: () => undefined }));

// A page: the store refreshes only where there is a document whose visibility it can follow.
let visibility: 'visible' | 'hidden' = 'visible';
const page = new EventTarget();
Object.defineProperty(page, 'visibilityState', { get: () => visibility });
vi.stubGlobal('document', page);

const { $auth, initAuth } = await import('../../src/stores/auth.ts');
const { $messages, initMessages, refreshUnread, setUnread, UNREAD_REFRESH_MS } = await import('../../src/stores/messages.ts');

const userInfo = { id: 1, url: 'ada', nickname: 'Ada', avatar: null, bio: '', location: '', website: '', createdAt: '2026-01-01T00:00:00.000Z', unreadMessages: 3 };

describe('$messages', () => {
  beforeEach(() => {
    apiCall.mockReset();
    $auth.set({ token: 'tok', userInfo });
  });

  it('is seeded once from the server render', () => {
    initMessages(4);
    initMessages(9);
    expect($messages.get()).toEqual({ unread: 4 });
  });

  it('updates at once when messages are read, and keeps $auth in step', () => {
    setUnread(0);
    expect($messages.get().unread).toBe(0);
    expect($auth.get().userInfo?.unreadMessages).toBe(0);
  });

  it('lets islands seed auth in any order: a token-only seed is completed by the user info of the same session', () => {
    $auth.set({ token: null, userInfo: null });
    initAuth({ token: 'tok' });
    initAuth({ token: 'tok', userInfo });
    expect($auth.get()).toEqual({ token: 'tok', userInfo });
    initAuth({ token: 'other', userInfo: { ...userInfo, nickname: 'Someone else' } });
    expect($auth.get().userInfo?.nickname).toBe('Ada');
    setUnread(5);
    expect($auth.get().userInfo?.unreadMessages).toBe(5);
  });

  it('refreshes from user/getUserInfo and keeps the last count on failure', async () => {
    apiCall.mockResolvedValueOnce({ ...userInfo, unreadMessages: 7 });
    expect(await refreshUnread()).toBe(7);
    expect(apiCall).toHaveBeenCalledWith('user/getUserInfo');
    apiCall.mockRejectedValueOnce(new Error('offline'));
    expect(await refreshUnread()).toBe(7);
    $auth.set({ token: null, userInfo: null });
    expect(await refreshUnread()).toBe(7);
    expect(apiCall).toHaveBeenCalledTimes(2);
  });

  describe('while shown', () => {
    beforeEach(() => {
      // Reading the store above mounted it for a moment; start from an unmounted store.
      cleanStores($messages);
      vi.useFakeTimers();
      visibility = 'visible';
      apiCall.mockResolvedValue({ ...userInfo, unreadMessages: 2 });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('refreshes every minute while visible and when the tab becomes visible, once for all islands, and stops after the last one', async () => {
      const stopA = $messages.listen(() => undefined);
      const stopB = $messages.listen(() => undefined);
      await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_MS);
      expect(apiCall).toHaveBeenCalledTimes(1);
      expect($messages.get().unread).toBe(2);
      visibility = 'hidden';
      await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_MS);
      expect(apiCall).toHaveBeenCalledTimes(1);
      visibility = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
      await vi.advanceTimersByTimeAsync(0);
      expect(apiCall).toHaveBeenCalledTimes(2);
      stopA();
      await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_MS);
      expect(apiCall).toHaveBeenCalledTimes(3);
      stopB();
      await vi.advanceTimersByTimeAsync(STORE_UNMOUNT_DELAY + UNREAD_REFRESH_MS * 3);
      document.dispatchEvent(new Event('visibilitychange'));
      await vi.advanceTimersByTimeAsync(0);
      expect(apiCall).toHaveBeenCalledTimes(3);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
