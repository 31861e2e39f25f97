import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';
import { loadIslandModules, pageBrowser, sentRequests, unreachableOrigin } from '../helpers/island-client.ts';

const app = useApp();

const loadAuth = () => import('../../src/stores/auth.ts');
let browser: ReturnType<typeof pageBrowser>;

beforeAll(() => {
  // The page is one of the site's own.
  browser = pageBrowser(app.origin());
  vi.stubGlobal('fetch', browser.fetch);
  vi.stubGlobal('location', new URL(app.origin()));
});
beforeEach(() => {
  browser.network.mockClear();
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('$auth', () => {
  it('fetches user info only on a signed-in page, with the cookie alone, stores it only on retCode 0, and clears both', async () => {
    const { $auth, clearAuth, fetchUserInfo, initAuth, setUserInfo } = await loadIslandModules(app.origin(), loadAuth);
    const { user, token } = await createUser({ nickname: 'Ada' });
    browser.setSession(token);

    // A guest page: no request at all, nothing stored.
    expect(await fetchUserInfo()).toBeNull();
    expect(sentRequests(browser)).toHaveLength(0);
    expect($auth.get()).toEqual({ signedIn: false, userInfo: null });

    // A signed-in page: the browser's cookie authenticates the call, no header carries a token.
    initAuth({ signedIn: true });
    const info = await fetchUserInfo();
    expect(sentRequests(browser).at(-1)).toEqual({ path: '/api/user/getUserInfo', authorization: null, session: token });
    expect(info).toMatchObject({ id: user.id, url: user.customUrl, nickname: 'Ada', unreadMessages: 0 });
    expect($auth.get()).toEqual({ signedIn: true, userInfo: info });
    // The store has nothing a script could send elsewhere.
    expect(JSON.stringify($auth.get())).not.toContain(token);

    // initAuth from a page never overwrites newer state.
    initAuth({ signedIn: true, userInfo: { ...info!, nickname: 'Stale' } });
    expect($auth.get().userInfo?.nickname).toBe('Ada');

    // A failing answer (retCode 401: the session ended in another tab) leaves the store as it was.
    browser.setSession('not-a-valid-token');
    const before = $auth.get();
    expect(await fetchUserInfo()).toEqual(info);
    expect(sentRequests(browser).at(-1)).toEqual({ path: '/api/user/getUserInfo', authorization: null, session: 'not-a-valid-token' });
    expect($auth.get()).toBe(before);

    // A profile change updates every island at once.
    setUserInfo({ ...info!, avatar: '/files/images/ab/new.webp' });
    expect($auth.get().userInfo?.avatar).toBe('/files/images/ab/new.webp');

    // Clearing removes both; user info cannot be set on a signed-out page.
    clearAuth();
    expect($auth.get()).toEqual({ signedIn: false, userInfo: null });
    setUserInfo(info!);
    expect($auth.get()).toEqual({ signedIn: false, userInfo: null });
  });

  it('keeps what it has when the server cannot be reached, and sends the cookie to an API of another origin only on purpose', async () => {
    const { user, token } = await createUser({ nickname: 'Grace' });
    browser.setSession(token);
    const online = await loadIslandModules(app.origin(), loadAuth);
    online.initAuth({ signedIn: true });
    const info = await online.fetchUserInfo();
    expect(info).toMatchObject({ id: user.id, nickname: 'Grace' });

    // `PUBLIC_API_BASE` on another origin: the client asks for the cookie (`credentials: 'include'`).
    const elsewhere = await unreachableOrigin();
    const offline = await loadIslandModules(elsewhere, loadAuth);
    offline.initAuth({ signedIn: true, userInfo: info });
    const before = offline.$auth.get();
    expect(await offline.fetchUserInfo()).toEqual(info);
    expect(browser.network.mock.calls.at(-1)?.[1]?.credentials).toBe('include');
    expect(sentRequests(browser).at(-1)).toEqual({ path: '/api/user/getUserInfo', authorization: null, session: token });
    expect(offline.$auth.get()).toBe(before);
    // The site's own origin needs no such request: fetch sends the cookie there by itself.
    expect(browser.network.mock.calls[0]?.[1]?.credentials).toBeUndefined();
  });
});
