import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const apiCall = vi.fn();
vi.mock('../../src/lib/api-client.ts', () => ({ apiCall: (...args: unknown[]) => apiCall(...args), setTokenSource: () => undefined }));

const { $auth, initAuth } = await import('../../src/stores/auth.ts');
const { $messages, initMessages, refreshUnread, setUnread, watchUnread, UNREAD_REFRESH_MS } = await import('../../src/stores/messages.ts');

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

  describe('watchUnread', () => {
    let visibility: 'visible' | 'hidden' = 'visible';
    beforeEach(() => {
      vi.useFakeTimers();
      const target = new EventTarget();
      Object.defineProperty(target, 'visibilityState', { get: () => visibility });
      vi.stubGlobal('document', target);
      apiCall.mockResolvedValue({ ...userInfo, unreadMessages: 2 });
    });
    afterEach(() => {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    });

    it('refreshes every minute while visible and when the tab becomes visible, once for all watchers', async () => {
      const stopA = watchUnread();
      const stopB = watchUnread();
      await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_MS);
      expect(apiCall).toHaveBeenCalledTimes(1);
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
      await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_MS * 3);
      expect(apiCall).toHaveBeenCalledTimes(3);
    });
  });
});
