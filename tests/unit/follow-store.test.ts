import { describe, expect, it } from 'vitest';
import { createFollow, followed } from '../../src/stores/follow.ts';
import { createNotificationSettings, withChoice } from '../../src/stores/notification-settings.ts';

describe('the follow button store', () => {
  it('changes the count by one, only when the state changes, never below zero', () => {
    expect(followed({ following: false, followers: 1203 }, true)).toEqual({ following: true, followers: 1204 });
    expect(followed({ following: true, followers: 4 }, true)).toEqual({ following: true, followers: 4 });
    expect(followed({ following: true, followers: 0 }, false)).toEqual({ following: false, followers: 0 });
  });

  it('puts the button back when the server cannot be reached, and says why', async () => {
    const store = createFollow({ kind: 'user', target: 'ada', following: false, followers: 7 });
    // No server in a unit test: the call fails like a dropped connection.
    await store.press();
    expect(store.$follow.get()).toMatchObject({ following: false, followers: 7, pending: false, message: { key: 'follow.failed', error: { errorKey: 'network' } } });
  });
});

describe('the notification settings store', () => {
  const all = (site: boolean, email: boolean) =>
    Object.fromEntries(['comments', 'replies', 'stars', 'likes', 'follows', 'makes', 'logs'].map((kind) => [kind, { site, email }])) as Parameters<typeof withChoice>[0];

  it('changes one channel of one kind', () => {
    expect(withChoice(all(true, false), 'logs', 'email', true)).toEqual({ ...all(true, false), logs: { site: true, email: true } });
  });

  it('puts a choice back when it could not be saved, and says why', async () => {
    const store = createNotificationSettings(all(true, true));
    await store.choose('follows', 'site', false);
    expect(store.$notificationSettings.get()).toMatchObject({ settings: all(true, true), saving: null, notice: { key: 'notificationSettings.failed', error: { errorKey: 'network' } } });
  });
});
