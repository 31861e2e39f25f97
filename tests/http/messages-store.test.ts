import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanStores, STORE_UNMOUNT_DELAY } from 'nanostores';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { loadIslandModules, pageBrowser, sentRequests, unreachableOrigin } from '../helpers/island-client.ts';
import { submitComment } from '../../src/server/services/community/index.ts';
import { listMessages } from '../../src/server/services/notifications/index.ts';

const app = useApp();

// A page: the store refreshes only where there is a document whose visibility it can follow.
let visibility: 'visible' | 'hidden' = 'visible';
const page = new EventTarget();
Object.defineProperty(page, 'visibilityState', { get: () => visibility });
vi.stubGlobal('document', page);
// Marking a message read moves focus on the next frame; there is no layout here.
vi.stubGlobal('requestAnimationFrame', () => 0);

const loadStores = async () => ({
  ...(await import('../../src/stores/auth.ts')),
  ...(await import('../../src/stores/messages.ts')),
  ...(await import('../../src/stores/message-list.ts')),
});
let stores: Awaited<ReturnType<typeof loadStores>>;
let browser: ReturnType<typeof pageBrowser>;
const unreadRequests = () => sentRequests(browser).filter((request) => request.path === '/api/user/getUserInfo').length;

beforeAll(async () => {
  // The page is one of the site's own.
  browser = pageBrowser(app.origin());
  vi.stubGlobal('fetch', browser.fetch);
  vi.stubGlobal('location', new URL(app.origin()));
  stores = await loadIslandModules(app.origin(), loadStores);
});
afterAll(() => {
  // Reading a store mounts it for a moment; stop its refresher before the page goes away.
  cleanStores(stores.$messages);
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** A member whose project other members comment on; each comment is one unread message. */
async function memberWithProject() {
  const member = await createUser({ nickname: 'Ada' });
  const project = await createProject(member.user.id, { title: 'Bench supply' });
  const { user: visitor } = await createUser({ nickname: 'Grace' });
  // Each comment its own text: the same text twice within an hour is refused as a duplicate.
  let sent = 0;
  return { ...member, comment: (text = `Nice board (${++sent})`) => submitComment(visitor.id, project.publicId, text) };
}

/** The header of a page the server rendered for the member: their session cookie and unread count. */
function openPage(token: string, unread: number) {
  browser.setSession(token);
  stores.clearAuth();
  stores.initAuth({ signedIn: true });
  stores.setUnread(unread);
}

describe('$messages against the running site', () => {
  beforeEach(() => {
    browser.network.mockClear();
  });

  it('shows new messages after a refresh, and fewer once they are read in another tab', async () => {
    const { user, token, comment } = await memberWithProject();
    openPage(token, 0);
    await comment('What regulator is that?');
    await comment('Any noise measurements?');
    expect(await stores.refreshUnread()).toBe(2);
    expect(stores.$messages.get().unread).toBe(2);
    expect(stores.$auth.get().userInfo).toMatchObject({ id: user.id, nickname: 'Ada', unreadMessages: 2 });

    const readElsewhere = await app.request('/api/message/allRead', { method: 'POST', token, headers: { origin: app.origin() } });
    expect(readElsewhere.json()).toMatchObject({ retCode: 0, result: { updated: 2 } });
    expect(await stores.refreshUnread()).toBe(0);
    expect(stores.$auth.get().userInfo?.unreadMessages).toBe(0);
  });

  it('lowers the badge at once when messages are read in the message list', async () => {
    const { user, token, comment } = await memberWithProject();
    for (const text of ['One', 'Two', 'Three']) await comment(text);
    openPage(token, 3);
    const list = stores.createMessageList(await listMessages(user.id, { page: 1, pageSize: 20 }), false);
    list.start();
    expect(stores.$messages.get().unread).toBe(3);

    await list.markRead(list.$list.get().page.list[0]!);
    expect(list.$list.get().error).toBeNull();
    expect(stores.$messages.get().unread).toBe(2);
    await list.markAllRead();
    expect(stores.$messages.get().unread).toBe(0);
    // The server agrees: the next refresh keeps the badge empty.
    expect(await stores.refreshUnread()).toBe(0);
  });

  it('asks the server nothing without a session', async () => {
    const { comment } = await memberWithProject();
    stores.clearAuth();
    stores.setUnread(4);
    await comment();
    expect(await stores.refreshUnread()).toBe(4);
    expect(unreadRequests()).toBe(0);
  });

  it('keeps the last count when the server cannot be reached', async () => {
    const { token, comment } = await memberWithProject();
    const offline = await loadIslandModules(await unreachableOrigin(), async () => ({
      ...(await import('../../src/stores/auth.ts')),
      ...(await import('../../src/stores/messages.ts')),
    }));
    browser.setSession(token);
    offline.initAuth({ signedIn: true });
    offline.initMessages(3);
    await comment();
    expect(await offline.refreshUnread()).toBe(3);
    expect(unreadRequests()).toBe(1);
    expect(offline.$messages.get().unread).toBe(3);
    expect(offline.$auth.get().signedIn).toBe(true);
    cleanStores(offline.$messages);
  });

  describe('while shown', () => {
    beforeEach(() => {
      // Reading the store above mounted it for a moment; start from an unmounted store.
      cleanStores(stores.$messages);
      // The page's clocks; the server in this process shares them but needs none to answer.
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
      visibility = 'visible';
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('refreshes every minute while visible and when the tab becomes visible, once for all islands, and stops after the last one', async () => {
      const { token, comment } = await memberWithProject();
      openPage(token, 0);
      const badge = (unread: number) => vi.waitFor(() => expect(stores.$messages.get().unread).toBe(unread));

      // The header and the mobile tab bar both show the count.
      const stopHeader = stores.$messages.listen(() => undefined);
      const stopTabBar = stores.$messages.listen(() => undefined);
      await comment();
      await vi.advanceTimersByTimeAsync(stores.UNREAD_REFRESH_MS);
      await badge(1);
      expect(unreadRequests()).toBe(1);

      // A message arrives while the tab is in the background: no requests until it is back.
      visibility = 'hidden';
      await comment();
      await vi.advanceTimersByTimeAsync(stores.UNREAD_REFRESH_MS);
      visibility = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
      await badge(2);
      expect(unreadRequests()).toBe(2);

      // One island left: still fresh.
      stopHeader();
      await comment();
      await vi.advanceTimersByTimeAsync(stores.UNREAD_REFRESH_MS);
      await badge(3);
      expect(unreadRequests()).toBe(3);

      // None left: no more requests, no timers.
      stopTabBar();
      await vi.advanceTimersByTimeAsync(STORE_UNMOUNT_DELAY + stores.UNREAD_REFRESH_MS * 3);
      document.dispatchEvent(new Event('visibilitychange'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unreadRequests()).toBe(3);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
