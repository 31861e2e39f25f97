import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';
import { loadIslandModules, pageFetch, sentRequests, unreachableOrigin } from '../helpers/island-client.ts';

const app = useApp();

const loadAuth = () => import('../../src/stores/auth.ts');
let fetches: ReturnType<typeof pageFetch>;

beforeAll(() => {
  // The page is one of the site's own.
  fetches = pageFetch(app.origin());
  vi.stubGlobal('fetch', fetches);
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('$auth', () => {
  it('fetches user info only when a token exists, stores it only on retCode 0, and clears both', async () => {
    const { $auth, clearAuth, fetchUserInfo, initAuth, setToken, setUserInfo } = await loadIslandModules(app.origin(), loadAuth);
    const { user, token } = await createUser({ nickname: 'Ada' });

    // No token: no request at all, nothing stored.
    expect(await fetchUserInfo()).toBeNull();
    expect(sentRequests(fetches)).toHaveLength(0);
    expect($auth.get()).toEqual({ token: null, userInfo: null });

    // A valid token: the bearer header is sent, the user is stored.
    initAuth({ token });
    const info = await fetchUserInfo();
    expect(sentRequests(fetches).at(-1)).toEqual({ path: '/api/user/getUserInfo', authorization: `Bearer ${token}` });
    expect(info).toMatchObject({ id: user.id, url: user.customUrl, nickname: 'Ada', unreadMessages: 0 });
    expect($auth.get()).toEqual({ token, userInfo: info });

    // initAuth from a page never overwrites newer state.
    initAuth({ token: 'stale', userInfo: null });
    expect($auth.get().token).toBe(token);

    // A failing answer (retCode 401 for a revoked token) leaves the store as it was.
    setToken('not-a-valid-token');
    const before = $auth.get();
    expect(await fetchUserInfo()).toEqual(info);
    expect(sentRequests(fetches).at(-1)).toEqual({ path: '/api/user/getUserInfo', authorization: 'Bearer not-a-valid-token' });
    expect($auth.get()).toBe(before);

    // A profile change updates every island at once.
    setUserInfo({ ...info!, avatar: '/files/images/ab/new.webp' });
    expect($auth.get().userInfo?.avatar).toBe('/files/images/ab/new.webp');

    // Clearing removes both; user info cannot be set without a token.
    clearAuth();
    expect($auth.get()).toEqual({ token: null, userInfo: null });
    setUserInfo(info!);
    expect($auth.get()).toEqual({ token: null, userInfo: null });
  });

  it('keeps what it has when the server cannot be reached', async () => {
    const { user, token } = await createUser({ nickname: 'Grace' });
    const online = await loadIslandModules(app.origin(), loadAuth);
    online.initAuth({ token });
    const info = await online.fetchUserInfo();
    expect(info).toMatchObject({ id: user.id, nickname: 'Grace' });

    const offline = await loadIslandModules(await unreachableOrigin(), loadAuth);
    offline.initAuth({ token, userInfo: info });
    const before = offline.$auth.get();
    expect(await offline.fetchUserInfo()).toEqual(info);
    expect(sentRequests(fetches).at(-1)).toEqual({ path: '/api/user/getUserInfo', authorization: `Bearer ${token}` });
    expect(offline.$auth.get()).toBe(before);
  });
});
