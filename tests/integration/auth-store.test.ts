import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createUser } from '../helpers/factories.ts';
import { getT } from '../../src/lib/i18n.ts';
import { validateSessionToken } from '../../src/server/services/sessions.ts';
import * as getUserInfoEndpoint from '../../src/pages/api/user/getUserInfo.ts';

useTestDatabase();

/**
 * The real `user/getUserInfo` endpoint behind a local HTTP server, with the one thing the Astro
 * middleware does for it (the bearer token → `locals.user`). The store under test talks to it
 * through the islands' ofetch client, over real HTTP.
 */
let server: http.Server;
let base = '';
const seen: { authorization: string | undefined }[] = [];

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    seen.push({ authorization: req.headers.authorization });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(url, { method: req.method, headers: req.headers as HeadersInit, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const header = req.headers.authorization ?? '';
    const token = header.toLowerCase().startsWith('bearer ') ? header.slice(7) : null;
    const user = await validateSessionToken(token);
    const locals = { user, sessionToken: user ? token : null, t: getT('en-US'), locale: 'en-US', variant: 'desktop' };
    const handler = url.pathname === '/api/user/getUserInfo' ? getUserInfoEndpoint.POST : undefined;
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const response = await handler({ request, url, locals } as unknown as APIContext);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.stubEnv('PUBLIC_API_BASE', base);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  if (server.listening) await new Promise((resolve) => server.close(resolve));
});

describe('$auth', () => {
  it('fetches user info only when a token exists, stores it only on retCode 0, and clears both', async () => {
    const store = await import('../../src/stores/auth.ts');
    const { $auth, clearAuth, fetchUserInfo, initAuth, setToken, setUserInfo } = store;
    const { user, token } = await createUser({ nickname: 'Ada' });

    // No token: no request at all, nothing stored.
    expect(await fetchUserInfo()).toBeNull();
    expect(seen).toHaveLength(0);
    expect($auth.get()).toEqual({ token: null, userInfo: null });

    // A valid token: the bearer header is sent, the user is stored.
    initAuth({ token });
    const info = await fetchUserInfo();
    expect(seen.at(-1)).toEqual({ authorization: `Bearer ${token}` });
    expect(info).toMatchObject({ id: user.id, url: user.customUrl, nickname: 'Ada', unreadMessages: 0 });
    expect($auth.get()).toEqual({ token, userInfo: info });

    // initAuth from a page never overwrites newer state.
    initAuth({ token: 'stale', userInfo: null });
    expect($auth.get().token).toBe(token);

    // A failing answer (retCode 401 for a revoked token) leaves the store as it was.
    setToken('not-a-valid-token');
    const before = $auth.get();
    expect(await fetchUserInfo()).toEqual(info);
    expect(seen.at(-1)).toEqual({ authorization: 'Bearer not-a-valid-token' });
    expect($auth.get()).toBe(before);

    // So does a network failure.
    setToken(token);
    await new Promise((resolve) => server.close(resolve));
    const beforeNetwork = $auth.get();
    expect(await fetchUserInfo()).toEqual(info);
    expect($auth.get()).toBe(beforeNetwork);

    // A profile change updates every island at once.
    setUserInfo({ ...info!, avatar: '/files/images/ab/new.webp' });
    expect($auth.get().userInfo?.avatar).toBe('/files/images/ab/new.webp');

    // Clearing removes both; user info cannot be set without a token.
    clearAuth();
    expect($auth.get()).toEqual({ token: null, userInfo: null });
    setUserInfo(info!);
    expect($auth.get()).toEqual({ token: null, userInfo: null });
  });
});
