import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json' with { type: 'json' };
import zh from '../../locales/zh-CN.json' with { type: 'json' };
import { getDb } from '../../src/server/db/client.ts';
import { projects } from '../../src/server/db/schema/index.ts';
import { PHONE_UA, useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

// Writes another site could make a visitor's browser send are refused; apps with a Bearer token,
// and the site's own pages, write as before (src/server/http/csrf.ts).

const app = useApp();
const EVIL = 'https://evil.example';

let projectId = '';

beforeAll(async () => {
  const { user } = await createUser({ nickname: 'Project Owner' });
  projectId = (await createProject(user.id, { title: 'Bench supply' })).publicId;
});

/** The refusal: 403 with the JSON envelope and its translated message, never plain text. */
function expectRefused(response: AppResponse, messages = en.errors) {
  expect(response.status).toBe(403);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.json()).toEqual({ retCode: 403, errorKey: 'cross_site_request', message: messages.cross_site_request });
}

/** Whether the member's session still works (a read with their cookie, which no rule refuses). */
async function signedIn(token: string): Promise<boolean> {
  return (await app.request('/api/user/getUserInfo', { token })).json().retCode === 0;
}

const star = (token: string, headers: Record<string, string>, body: string = JSON.stringify({ id: projectId, value: true }), type = 'application/json') =>
  app.request('/api/project/star', { method: 'POST', token, body, headers: { 'content-type': type, ...headers } });

/** What the refused writes would have changed. */
const starCount = async () => (await getDb().select({ count: projects.starCount }).from(projects).where(eq(projects.publicId, projectId)))[0]!.count;

describe('writes with the session cookie', () => {
  it('are refused from another site, for every content type, with the JSON envelope', async () => {
    const { token } = await createUser();
    expectRefused(await star(token, { origin: EVIL }));
    expectRefused(await star(token, { origin: EVIL }, `id=${projectId}&value=true`, 'application/x-www-form-urlencoded'));
    expectRefused(await star(token, { origin: EVIL }, JSON.stringify({ id: projectId, value: true }), 'text/plain'));
    expectRefused(await star(token, { origin: 'null' })); // a sandboxed frame or a data: page
    expectRefused(await star(token, { origin: EVIL, 'accept-language': 'zh-CN' }), zh.errors);
    expect(await starCount()).toBe(0);
  });

  it('are refused when the browser says cross-site or same-site, whatever the Origin', async () => {
    const { token } = await createUser();
    expectRefused(await star(token, { 'sec-fetch-site': 'cross-site', origin: app.origin() }));
    expectRefused(await star(token, { 'sec-fetch-site': 'same-site', origin: app.origin() }));
    expectRefused(await star(token, { 'sec-fetch-site': 'cross-site' }));
    expect(await starCount()).toBe(0);
  });

  it('go through from the site’s own pages, by Sec-Fetch-Site or by Origin', async () => {
    const { token } = await createUser();
    expect((await star(token, { 'sec-fetch-site': 'same-origin', origin: app.origin() })).json()).toMatchObject({ retCode: 0, result: { starred: true } });
    expect((await star(token, { origin: app.origin() }, JSON.stringify({ id: projectId, value: false }))).json()).toMatchObject({ retCode: 0, result: { starred: false } });
    // Neither header: not a browser (curl, a script), so no other site can have sent it.
    expect((await star(token, {})).json()).toMatchObject({ retCode: 0, result: { starred: true } });
  });

  it('are refused at any address, not only the API', async () => {
    const { token } = await createUser();
    expectRefused(await app.request('/api/nope', { method: 'POST', token, body: {}, headers: { origin: EVIL } }));
    expectRefused(await app.request(`/d-${projectId}`, { method: 'POST', token, body: 'x=1', headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' } }));
  });
});

describe('writes with Authorization: Bearer', () => {
  it('need no Origin, and an Origin of another site changes nothing', async () => {
    const { token } = await createUser();
    const bearer = { authorization: `Bearer ${token}` };
    expect((await star(token, bearer)).json()).toMatchObject({ retCode: 0, result: { starred: true } });
    // A body-less POST from an app.
    expect((await app.request('/api/message/allRead', { method: 'POST', headers: bearer })).json()).toMatchObject({ retCode: 0 });
    // A browser cannot attach this header for another site; an app may name any origin.
    expect((await star(token, { ...bearer, origin: EVIL }, JSON.stringify({ id: projectId, value: false }))).json()).toMatchObject({ retCode: 0 });
  });

  it('upload multipart files without an Origin', async () => {
    const { token } = await createUser();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#b0521d' } }).png().toBuffer();
    const form = new FormData();
    form.append('purpose', 'image');
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'board.png');
    // Node's fetch sends neither Origin nor Sec-Fetch-Site, like an app's HTTP client.
    const response = await fetch(`${app.origin()}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ retCode: 0, result: { mime: 'image/webp' } });
  });
});

describe('writes without a session (sign-in and sign-up)', () => {
  const account = { email: 'csrf-member@example.com', password: 'solder-bridge-42', nickname: 'Csrf Member' };

  beforeAll(async () => {
    const registered = await app.request('/sso/api/register', { method: 'POST', body: account, headers: { origin: app.origin() } });
    expect(registered.json()).toMatchObject({ retCode: 0 });
  });

  it('are refused from another site, so no page can sign a visitor in as someone else', async () => {
    const credentials = { email: account.email, password: account.password };
    const json = await app.request('/sso/api/login', { method: 'POST', body: credentials, headers: { origin: EVIL } });
    expectRefused(json);
    expect(json.headers['set-cookie']).toBeUndefined();
    expectRefused(await app.request('/sso/api/register', { method: 'POST', body: { ...account, email: 'other@example.com' }, headers: { 'sec-fetch-site': 'cross-site' } }));
    expect((await app.request('/sso/api/login', { method: 'POST', body: credentials, headers: { origin: app.origin() } })).json()).toMatchObject({ retCode: 0 });
  });

  it('show the refusal on the sign-in and sign-up forms themselves', async () => {
    const form = new URLSearchParams({ email: account.email, password: account.password, nickname: 'Someone' }).toString();
    for (const mode of ['login', 'register']) {
      const refused = await app.request(`/sso/${mode}`, { method: 'POST', body: form, headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' } });
      expect(refused.status, mode).toBe(403);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.body).toContain(en.errors.cross_site_request);
      expect(refused.body).toContain('data-sso-form');
      expect(refused.headers.location).toBeUndefined();
    }
    const zhRefused = await app.request('/sso/login', { method: 'POST', body: form, headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'zh-CN' } });
    expect(zhRefused.body).toContain(zh.errors.cross_site_request);
    // The same form from the site's own page signs in.
    const own = await app.request('/sso/login', { method: 'POST', body: form, headers: { origin: app.origin(), 'content-type': 'application/x-www-form-urlencoded' } });
    expect(own.status).toBe(303);
    expect(own.headers.location).toContain('code=');
  });
});

describe('/logout', () => {
  it('opened from another site asks first, in both layouts and languages, and the session stays', async () => {
    const { user, token } = await createUser({ nickname: 'Leaving Member' });
    const desktop = await app.request('/logout', { token, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(desktop.status).toBe(200);
    expect(desktop.headers['set-cookie']).toBeUndefined();
    expect(desktop.body).toContain('<meta name="robots" content="noindex"');
    expect(desktop.body).toContain(en.logout.text.replace('{{name}}', user.nickname));
    expect(desktop.body).toMatch(/<form method="post" action="\/logout"/);
    const phone = await app.request('/m/logout', { token, headers: { 'accept-language': 'zh-CN' } });
    expect(phone.status).toBe(200);
    expect(phone.body).toContain(zh.logout.text.replace('{{name}}', user.nickname));
    expect(phone.body).toMatch(/<form method="post" action="\/m\/logout"/);
    expect(await signedIn(token)).toBe(true);
    // A phone opening the desktop address gets the mobile one, like every page.
    const redirected = await app.request('/logout', { token, headers: { 'user-agent': PHONE_UA } });
    expect(redirected.headers.location).toBe('/m/logout');
    // A guest has nothing to sign out of.
    expect((await app.request('/logout')).headers.location).toBe('/');
  });

  it('posted from another site is refused and the session stays', async () => {
    const { token } = await createUser();
    expectRefused(await app.request('/logout', { method: 'POST', token, body: '', headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' } }));
    expectRefused(await app.request('/m/logout', { method: 'POST', token, headers: { 'sec-fetch-site': 'cross-site' } }));
    expect(await signedIn(token)).toBe(true);
  });

  it('posted by the confirmation button ends the session and goes home, in the same layout', async () => {
    for (const [path, home] of [
      ['/logout', '/'],
      ['/m/logout', '/m'],
    ]) {
      const { token } = await createUser();
      const response = await app.request(path!, { method: 'POST', token, body: '', headers: { origin: app.origin(), 'content-type': 'application/x-www-form-urlencoded' } });
      expect(response.status, path).toBe(303);
      expect(response.headers.location, path).toBe(home);
      expect(String(response.headers['set-cookie'])).toMatch(/^token=(deleted)?;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)/i);
      expect(await signedIn(token), path).toBe(false);
    }
  });
});
