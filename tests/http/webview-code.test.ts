import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { ssoCodes } from '../../src/server/db/schema/index.ts';
import { RATE_LIMITS } from '../../src/server/services/core/index.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';
import { hashToken } from '../../src/server/lib/tokens.ts';

/**
 * An app opens a page of the site in a web view: it asks `POST /api/sso/webviewCode` for a
 * one-time code with its own token and opens `…?code=`. The web view gets a session of its own;
 * the app's token never travels in an address.
 */
const app = useApp();

let member: Awaited<ReturnType<typeof createUser>>;
let other: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  member = await createUser({ nickname: 'Webview Member' });
  other = await createUser({ nickname: 'Someone Else' });
});

afterEach(() => vi.restoreAllMocks());

const tokenCookie = (response: AppResponse) => (response.headers['set-cookie'] ?? []).find((value) => value.startsWith('token='));

async function mintCode(bearer: string): Promise<{ code: string; expiresAt: string }> {
  const response = await app.request('/api/sso/webviewCode', { method: 'POST', body: {}, headers: { authorization: `Bearer ${bearer}` } });
  expect(response.status).toBe(200);
  return response.json<{ retCode: number; result: { code: string; expiresAt: string } }>().result;
}

async function signedInAs(cookieToken: string): Promise<string | null> {
  const response = await app.request('/api/user/getUserInfo', { method: 'POST', body: {}, headers: { authorization: `Bearer ${cookieToken}` } });
  return response.json<{ result?: { nickname: string } }>().result?.nickname ?? null;
}

describe('web view sign-in codes', () => {
  it('are minted for a signed-in app only, valid two minutes', async () => {
    const guest = await app.request('/api/sso/webviewCode', { method: 'POST', body: {} });
    expect(guest.status).toBe(401);
    expect(guest.json()).toMatchObject({ errorKey: 'unauthorized' });

    const before = Date.now();
    const { code, expiresAt } = await mintCode(member.token);
    expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const lifetime = new Date(expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThan(100_000);
    expect(lifetime).toBeLessThanOrEqual(121_000);
    // Stored hashed: the table never holds the code itself.
    const rows = await getDb().select().from(ssoCodes).where(eq(ssoCodes.userId, member.user.id));
    expect(rows.some((row) => row.codeHash === code)).toBe(false);
  });

  it('sign the web view in with a session of its own, once, and leave the address without the code', async () => {
    const writes: string[] = [];
    const capture = (chunk: unknown) => {
      writes.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);

    const { code } = await mintCode(member.token);
    const opened = await app.request(`/video/player?id=v1&code=${code}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/video/player?id=v1');
    expect(opened.headers['cache-control']).toBe('no-store');
    const cookie = tokenCookie(opened);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    const webviewToken = /^token=([^;]+)/.exec(cookie!)![1]!;
    expect(webviewToken).not.toBe(member.token);
    expect(await signedInAs(webviewToken)).toBe('Webview Member');

    // The page it lands on shows the member.
    const page = await app.request('/video/player?id=v1', { token: webviewToken });
    expect(page.body).toContain('Webview Member');

    // Used once: the same address again signs nobody in.
    const again = await app.request(`/video/player?id=v1&code=${code}`);
    expect(again.status).toBe(302);
    expect(tokenCookie(again)).toBeUndefined();

    expect(writes.join('')).not.toContain(code);
  });

  it('work on the mobile address too, back to the address opened', async () => {
    const { code } = await mintCode(member.token);
    const opened = await app.request(`/m/video/player?id=v1&code=${code}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/m/video/player?id=v1');
    expect(tokenCookie(opened)).toBeDefined();
  });

  it('expire', async () => {
    const { code } = await mintCode(member.token);
    await getDb()
      .update(ssoCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ssoCodes.codeHash, hashToken(code)));
    const opened = await app.request(`/video/player?id=v1&code=${code}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/video/player?id=v1');
    expect(tokenCookie(opened)).toBeUndefined();
  });

  it('never replace the session of another member signed in in that browser', async () => {
    const { code } = await mintCode(member.token);
    const opened = await app.request(`/video/player?id=v1&code=${code}`, { token: other.token });
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/video/player?id=v1');
    expect(tokenCookie(opened)).toBeUndefined();
    expect(await signedInAs(other.token)).toBe('Someone Else');
    // The code is used up all the same: the link cannot be replayed elsewhere.
    const elsewhere = await app.request(`/video/player?id=v1&code=${code}`);
    expect(tokenCookie(elsewhere)).toBeUndefined();
  });

  it('are rate-limited per member', async () => {
    const busy = await createUser({ nickname: 'Busy App' });
    const { limit } = RATE_LIMITS['sso:webview-code:user'];
    for (let i = 0; i < limit; i += 1) await mintCode(busy.token);
    const refused = await app.request('/api/sso/webviewCode', { method: 'POST', body: {}, headers: { authorization: `Bearer ${busy.token}` } });
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ errorKey: 'rate_limited' });
  });
});

describe('?token= on the video player (the token route middleware)', () => {
  it('takes a one-time web-view code, like ?code=, and drops it from the address', async () => {
    const { code } = await mintCode(member.token);
    const response = await app.request(`/video/player?id=v1&token=${code}`);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/video/player?id=v1');
    const cookie = tokenCookie(response)!;
    expect(cookie).toBeDefined();
    expect(await signedInAs(cookie.slice('token='.length).split(';')[0]!)).toBe('Webview Member');
  });

  it('never takes a session token: it signs nobody in and leaves the address', async () => {
    for (const path of [`/video/player?id=v1&token=${member.token}`, `/m/video/player?id=v1&token=${member.token}`]) {
      const response = await app.request(path);
      expect(tokenCookie(response), path).toBeUndefined();
      expect(response.headers.location, path).toBe(path.replace(`&token=${member.token}`, ''));
      expect(response.body, path).not.toContain('Webview Member');
    }
  });
});
