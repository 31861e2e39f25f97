import { beforeEach, describe, expect, it } from 'vitest';
import { $auth, initAuth } from '../../src/stores/auth.ts';
import { $messages, initMessages, setUnread } from '../../src/stores/messages.ts';

// What the store does with the server (refreshing, reading, going offline) is in
// tests/http/messages-store.test.ts, against the running site.

const userInfo = { id: 1, url: 'ada', nickname: 'Ada', avatar: null, bio: '', location: '', website: '', createdAt: '2026-01-01T00:00:00.000Z', unreadMessages: 3 };

describe('$messages', () => {
  beforeEach(() => {
    $auth.set({ signedIn: true, userInfo });
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

  it('lets islands seed auth in any order: a signed-in seed is completed by the user info of the same page', () => {
    $auth.set({ signedIn: false, userInfo: null });
    initAuth({ signedIn: false, userInfo });
    expect($auth.get()).toEqual({ signedIn: false, userInfo: null });
    initAuth({ signedIn: true });
    initAuth({ signedIn: true, userInfo });
    expect($auth.get()).toEqual({ signedIn: true, userInfo });
    initAuth({ signedIn: true, userInfo: { ...userInfo, nickname: 'Someone else' } });
    expect($auth.get().userInfo?.nickname).toBe('Ada');
    setUnread(5);
    expect($auth.get().userInfo?.unreadMessages).toBe(5);
  });
});
