import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import sharp from 'sharp';
import { firstProjects } from './helpers.ts';
import { newVisitorAddress, postJsonFrom, registerAsVisitor } from './visitor.ts';

/**
 * The accounts flow through HTTP alone, against the built server: the built-in SSO, the code
 * exchange, the token, the guards and the uploads.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
const json = (body: unknown) => ({ data: body, headers: { 'content-type': 'application/json' } });

interface Account {
  email: string;
  password: string;
  nickname: string;
}

/** A new account, registered by a new visitor from an address of their own. */
async function register(nickname = 'Tester'): Promise<Account & { location: string }> {
  const account = { email: `user-${unique()}@example.com`, password: 'solder-bridge-42', nickname };
  const { body } = await registerAsVisitor(account);
  expect(body.retCode, JSON.stringify(body)).toBe(0);
  return { ...account, location: body.result.location };
}

async function login(request: APIRequestContext, account: Account, redirect: string): Promise<APIResponse> {
  return request.post('/sso/api/login', json({ email: account.email, password: account.password, redirect, siteId: 'copperhub', platform: 6 }));
}

function tokenCookie(response: APIResponse): string | undefined {
  return response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === 'set-cookie')
    .map((header) => header.value)
    .find((value) => value.startsWith('token='));
}

/** Opens the SSO `location` like a browser would, without following the redirect. */
async function exchange(request: APIRequestContext, location: string) {
  const response = await request.get(location, { maxRedirects: 0 });
  const cookie = tokenCookie(response);
  return { response, cookie, token: cookie ? /^token=([^;]*)/.exec(cookie)![1]! : null };
}

async function userInfo(request: APIRequestContext, token?: string) {
  const response = await request.post('/api/user/getUserInfo', { ...json({}), headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return response.json();
}

type Playwright = { request: { newContext(options: { baseURL?: string }): Promise<APIRequestContext> } };

/** A fresh request context: no cookie jar shared with the test's own requests. */
async function guest(playwright: Playwright, baseURL: string) {
  return playwright.request.newContext({ baseURL });
}

/** A new member signed in from a browser of their own; answers their token and user info. */
async function signedIn(playwright: Playwright, baseURL: string, nickname = 'Tester') {
  const browser = await guest(playwright, baseURL);
  const account = await register(nickname);
  const location = (await (await login(browser, account, `${baseURL}/`)).json()).result.location;
  const { token } = await exchange(browser, location);
  expect(token).toBeTruthy();
  const info = (await userInfo(browser, token!)).result;
  await browser.dispose();
  return { account, token: token!, info };
}

test('register, sign in with a return address, exchange the code and use the token', async ({ request, playwright, baseURL }) => {
  const [project] = await firstProjects(request, 1);
  const page = project ? `${baseURL}/d-${project.id}` : `${baseURL}/newest`;
  const account = await register('HTTP Tester');
  // Registering signs in too: back to the home page with a code.
  expect(new URL(account.location).origin).toBe(new URL(baseURL!).origin);
  expect(new URL(account.location).searchParams.get('code')).toBeTruthy();

  const answer = await login(request, account, page);
  const body = await answer.json();
  expect(body.retCode).toBe(0);
  const location = new URL(body.result.location);
  expect(location.origin + location.pathname).toBe(page);
  const code = location.searchParams.get('code');
  expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);

  const client = await guest(playwright, baseURL!);
  const { response, cookie, token } = await exchange(client, location.toString());
  expect(response.status()).toBe(302);
  expect(response.headers().location).toBe(new URL(page).pathname);
  expect(response.headers()['cache-control']).toContain('no-store');
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  expect(cookie).not.toMatch(/Secure/i); // the test site is plain http
  expect(token).toBeTruthy();

  const info = await userInfo(client, token!);
  expect(info.retCode).toBe(0);
  expect(info.result).toMatchObject({ nickname: 'HTTP Tester', avatar: null, unreadMessages: 0 });
  expect(info.result.url).toMatch(/^http-tester/);
  expect(Object.keys(info.result).sort()).toEqual(['avatar', 'bio', 'createdAt', 'id', 'location', 'nickname', 'unreadMessages', 'url', 'website']);

  // Without a token, or with a bad one: a non-zero retCode, and nothing changes.
  const anonymous = await guest(playwright, baseURL!);
  const none = await userInfo(anonymous);
  expect(none).toMatchObject({ retCode: 401, errorKey: 'unauthorized' });
  expect(await userInfo(anonymous, 'forged-token')).toMatchObject({ retCode: 401 });
  expect(await userInfo(anonymous, `${token}x`)).toMatchObject({ retCode: 401 });
  expect((await userInfo(client, token!)).result).toEqual(info.result);

  // The code worked once: opening the address again signs nobody in.
  const again = await exchange(anonymous, location.toString());
  expect(again.response.status()).toBe(302);
  expect(again.response.headers().location).toBe(new URL(page).pathname);
  expect(again.token).toBeNull();

  // The cookie alone authenticates the server-rendered page: the header shows the user menu.
  const html = await (await client.get(new URL(page).pathname)).text();
  expect(html).toContain('HTTP Tester');
  expect(html).toContain('HeaderUserMenu');

  // Signing in again in the same browser replaces its session: the old token stops working.
  const relogin = (await (await login(request, account, page)).json()).result.location;
  const second = await exchange(client, relogin);
  expect(second.token).toBeTruthy();
  expect(second.token).not.toBe(token);
  expect(await userInfo(anonymous, token!)).toMatchObject({ retCode: 401 });
  expect((await userInfo(anonymous, second.token!)).retCode).toBe(0);
  await client.dispose();
  await anonymous.dispose();
});

test('a redirect to another origin never ends up as the Location of a response', async ({ request, playwright, baseURL }) => {
  const site = new URL(baseURL!).origin;
  const evil = ['https://evil.example/steal', '//evil.example/steal', '/\\evil.example/steal', 'javascript:alert(1)'];
  const locations: string[] = [];
  const account = await register();
  for (const redirect of evil) {
    const body = await (await login(request, account, redirect)).json();
    expect(body.retCode).toBe(0);
    expect(new URL(body.result.location).origin).toBe(site);
    expect(new URL(body.result.location).pathname).toBe('/');
    const { response } = await exchange(request, body.result.location);
    locations.push(response.headers().location!);
  }

  // The sign-in form without JavaScript (a plain POST) answers a redirect itself.
  const client = await guest(playwright, baseURL!);
  const form = await client.post(`/sso/login?redirect=${encodeURIComponent('https://evil.example/form')}&siteId=copperhub&platform=6`, {
    form: { email: account.email, password: account.password, redirect: 'https://evil.example/form' },
    headers: { origin: site },
    maxRedirects: 0,
  });
  expect(form.status()).toBe(303);
  locations.push(form.headers().location!);
  const exchanged = await exchange(client, form.headers().location!);
  locations.push(exchanged.response.headers().location!);
  expect(exchanged.token).toBeTruthy();

  // Signed in already: the SSO page sends the browser straight back — never elsewhere.
  const direct = await client.get('/sso/login?redirect=https%3A%2F%2Fevil.example%2Fagain', { maxRedirects: 0 });
  expect(direct.status()).toBe(303);
  locations.push(direct.headers().location!);

  // A protocol-relative looking path stays on the site.
  const slashes = await client.get(`${site}//evil.example/path?code=whatever`, { maxRedirects: 0 });
  locations.push(slashes.headers().location!);
  const tokenSlashes = await client.get(`${site}//evil.example/video/player?token=abc`, { maxRedirects: 0 });
  if (tokenSlashes.headers().location) locations.push(tokenSlashes.headers().location!);

  expect(locations.length).toBeGreaterThanOrEqual(evil.length + 4);
  for (const location of locations) {
    expect(location, location).not.toContain('evil.example/steal');
    expect(new URL(location, site).origin, location).toBe(site);
    expect(location).not.toMatch(/^\/\//);
  }
  await client.dispose();
});

test('/create/project as a guest goes to the SSO with redirect, siteId and platform 6', async ({ request, baseURL }) => {
  for (const path of ['/create/project', '/m/create/project']) {
    const response = await request.get(`${path}?draft=abc`, { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    const target = new URL(response.headers().location!, baseURL);
    expect(target.pathname).toBe('/sso/login');
    expect(target.searchParams.get('redirect')).toBe(`${baseURL}${path}?draft=abc`);
    expect(target.searchParams.get('siteId')).toBe('copperhub');
    expect(target.searchParams.get('platform')).toBe('6');
  }
  // The SSO page itself answers in both languages.
  const zh = await request.get('/sso/login', { headers: { 'accept-language': 'zh-CN' } });
  expect(await zh.text()).toContain('登录铜汇 Copperhub');
});

test('an app opens a web view with a one-time code, never with its token', async ({ playwright, baseURL }) => {
  const { token, info } = await signedIn(playwright, baseURL!);
  const app = await guest(playwright, baseURL!);
  const minted = await (await app.post('/api/sso/webviewCode', { data: {}, headers: { authorization: `Bearer ${token}` } })).json();
  expect(minted.retCode).toBe(0);
  const { code, expiresAt } = minted.result;
  expect(new Date(expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(2 * 60 * 1000);

  // The web view: signed in with a session of its own, the address reloaded without the code.
  const webview = await guest(playwright, baseURL!);
  const opened = await exchange(webview, `/video/player?id=v1&code=${code}`);
  expect(opened.response.status()).toBe(302);
  expect(opened.response.headers().location).toBe('/video/player?id=v1');
  expect(opened.cookie).toMatch(/HttpOnly/i);
  expect(opened.token).not.toBe(token);
  expect((await userInfo(webview, opened.token!)).result.url).toBe(info.url);

  // Once only; and the app's own token in an address signs nobody in: the player's `token`
  // middleware takes only a one-time code, and drops anything else from the address.
  const stranger = await guest(playwright, baseURL!);
  expect((await exchange(stranger, `/video/player?id=v1&code=${code}`)).token).toBeNull();
  const byToken = await exchange(stranger, `/video/player?id=v1&token=${token}`);
  expect(byToken.response.headers().location).toBe('/video/player?id=v1');
  expect(byToken.token).toBeNull();
  // A fresh one-time code works as `?token=` on the player, as an app's web view opens it.
  const second = (await (await app.post('/api/sso/webviewCode', { data: {}, headers: { authorization: `Bearer ${token}` } })).json()).result.code;
  const byCode = await exchange(stranger, `/video/player?id=v1&token=${second}`);
  expect(byCode.response.headers().location).toBe('/video/player?id=v1');
  expect((await userInfo(stranger, byCode.token!)).result.url).toBe(info.url);
  await stranger.dispose();
  await app.dispose();
  await webview.dispose();
});

test('signing out revokes the session: POST /logout and sso/logout; a link from another site only asks', async ({ playwright, baseURL }) => {
  const first = await signedIn(playwright, baseURL!);
  const client = await guest(playwright, baseURL!);
  const cookie = `token=${first.token}`;
  // Opened from another site (a link, an image): the confirmation page, and the session stays.
  const asked = await client.get('/logout', { headers: { cookie, 'sec-fetch-site': 'cross-site' }, maxRedirects: 0 });
  expect(asked.status()).toBe(200);
  expect(await asked.text()).toContain('data-testid="logout-confirm"');
  expect(tokenCookie(asked)).toBeUndefined();
  const forged = await client.post('/logout', { headers: { cookie, origin: 'https://evil.example' }, form: {}, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toMatchObject({ retCode: 403, errorKey: 'cross_site_request' });
  expect(await userInfo(client, first.token)).toMatchObject({ retCode: 0 });

  // The sign-out button of the site's own page.
  const logout = await client.post('/logout', { headers: { cookie, origin: new URL(baseURL!).origin }, form: {}, maxRedirects: 0 });
  expect(logout.status()).toBe(303);
  expect(logout.headers().location).toBe('/');
  expect(tokenCookie(logout)).toMatch(/^token=(deleted)?;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)/i);
  expect(await userInfo(client, first.token)).toMatchObject({ retCode: 401 });

  const second = await signedIn(playwright, baseURL!);
  const api = await client.post('/api/sso/logout', { ...json({}), headers: { 'content-type': 'application/json', authorization: `Bearer ${second.token}` } });
  expect(await api.json()).toEqual({ retCode: 0, result: { loggedOut: true } });
  expect(await userInfo(client, second.token)).toMatchObject({ retCode: 401 });
  const unsigned = await client.post('/api/sso/logout', json({}));
  expect((await unsigned.json()).retCode).toBe(401);
  await client.dispose();
});

test('sign-in failures slow the guessing address down with retCode 429 while the owner gets in from their own, with one error for unknown email and wrong password', async () => {
  const account = await register();
  // The guesser makes every attempt from an address of their own, so the failures do not count
  // against the address the rest of the suite signs in from.
  const guesser = newVisitorAddress();
  const attempt = (email: string, password: string, from = guesser) => postJsonFrom(from, '/sso/api/login', { email, password });
  const wrong = (await attempt(account.email, 'not-it')).body;
  const unknown = (await attempt(`nobody-${unique()}@example.com`, 'not-it')).body;
  expect(wrong).toMatchObject({ retCode: 401, errorKey: 'invalid_credentials' });
  expect(unknown).toEqual(wrong);

  const codes: number[] = [];
  for (let i = 0; i < 6; i += 1) {
    const response = await attempt(account.email, `guess-${i}`);
    codes.push(response.body.retCode);
    if (i === 5) expect(response.status).toBe(429);
  }
  // One failure above, four here: the fifth is the last free one at this address.
  expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
  const limited = (await attempt(account.email, account.password)).body;
  expect(limited).toMatchObject({ retCode: 429, errorKey: 'rate_limited' });
  const owner = (await attempt(account.email, account.password, newVisitorAddress())).body;
  expect(owner).toMatchObject({ retCode: 0 });
});

test('a non-image file sent as an avatar is refused and the old avatar stays', async ({ request, playwright, baseURL }) => {
  const { token } = await signedIn(playwright, baseURL!, 'Avatar Tester');
  // An app: the Bearer token and no Origin (nothing a browser of another site could send).
  const headers = { authorization: `Bearer ${token}` };
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#b0521d' } }).png().toBuffer();

  const upload = await request.post('/api/upload', { headers, multipart: { purpose: 'avatar', file: { name: 'me.png', mimeType: 'image/png', buffer: png } } });
  const uploaded = await upload.json();
  expect(uploaded.retCode).toBe(0);
  expect(uploaded.result).toMatchObject({ mime: 'image/webp', name: 'me.webp' });
  const edited = await request.post('/api/user/edit', { headers: { ...headers, 'content-type': 'application/json' }, data: { avatar: uploaded.result.id } });
  expect((await edited.json()).result.avatar).toBe(uploaded.result.url);

  // The stored image is served with its type and a long cache life.
  const file = await request.get(uploaded.result.url);
  expect(file.headers()['content-type']).toBe('image/webp');
  expect(file.headers()['cache-control']).toContain('immutable');
  expect((await sharp(await file.body()).metadata()).width).toBe(512);

  // A text file named and declared as a PNG.
  const fake = await request.post('/api/upload', { headers, multipart: { purpose: 'avatar', file: { name: 'avatar.png', mimeType: 'image/png', buffer: Buffer.from('this is not an image at all') } } });
  expect(fake.status()).toBe(415);
  expect(await fake.json()).toMatchObject({ retCode: 415, errorKey: 'unsupported_type' });
  // Too large, refused before it is stored.
  const huge = await request.post('/api/upload', { headers, multipart: { purpose: 'avatar', file: { name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(11 * 1024 * 1024)]) } } });
  expect(await huge.json()).toMatchObject({ retCode: 413, errorKey: 'too_large' });
  // Someone else's upload id cannot become the avatar either.
  const refused = await request.post('/api/user/edit', { headers: { ...headers, 'content-type': 'application/json' }, data: { avatar: 'not-my-upload' } });
  expect(await refused.json()).toMatchObject({ retCode: 400, fields: { avatar: 'upload_invalid' } });

  expect((await userInfo(request, token)).result.avatar).toBe(uploaded.result.url);
  // Without a token nothing is accepted.
  const client = await guest(playwright, baseURL!);
  const anonymous = await client.post('/api/upload', { headers: { origin: new URL(baseURL!).origin }, multipart: { purpose: 'avatar', file: { name: 'me.png', mimeType: 'image/png', buffer: png } } });
  expect((await anonymous.json()).retCode).toBe(401);
  await client.dispose();
});

test('owner-only tabs: a sign-in prompt for guests, 404 for other users, the page for the owner', async ({ playwright, baseURL }) => {
  const owner = await signedIn(playwright, baseURL!, 'Owner');
  const other = await signedIn(playwright, baseURL!, 'Other');
  const anonymous = await guest(playwright, baseURL!);
  for (const tab of ['message', 'draftbox']) {
    for (const prefix of ['', '/m']) {
      const path = `${prefix}/user/${owner.info.url}/${tab}`;
      const asGuest = await anonymous.get(path);
      expect(asGuest.status()).toBe(200);
      const guestHtml = await asGuest.text();
      // The prompt itself, not the same words among an island's messages.
      expect(guestHtml).toContain('<h2>Sign in to see this page.</h2>');
      expect(guestHtml).toContain(`/sso/login?redirect=${encodeURIComponent(`${baseURL}${path}`)}`);
      const asOther = await anonymous.get(path, { headers: { cookie: `token=${other.token}` } });
      expect(asOther.status()).toBe(404);
      const asOwner = await anonymous.get(path, { headers: { cookie: `token=${owner.token}` } });
      expect(asOwner.status()).toBe(200);
      expect(await asOwner.text()).not.toContain('<h2>Sign in to see this page.</h2>');
    }
  }
  await anonymous.dispose();
});

test('user/edit validates the custom URL and old URLs keep redirecting', async ({ request, playwright, baseURL }) => {
  const { token, info } = await signedIn(playwright, baseURL!, 'Renamer');
  const other = await signedIn(playwright, baseURL!, 'Holder');
  const edit = async (data: Record<string, unknown>) =>
    (await request.post('/api/user/edit', { headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, data })).json();
  expect(await edit({ url: 'admin' })).toMatchObject({ retCode: 400, fields: { url: 'url_reserved' } });
  expect(await edit({ url: 'no' })).toMatchObject({ retCode: 400, fields: { url: 'url_length' } });
  expect(await edit({ url: 'under_score' })).toMatchObject({ retCode: 400, fields: { url: 'url_format' } });
  expect(await edit({ url: other.info.url })).toMatchObject({ retCode: 409, errorKey: 'url_taken' });
  expect(await edit({ website: 'javascript:alert(1)' })).toMatchObject({ retCode: 400, fields: { website: 'website_protocol' } });
  const fresh = `renamed-${unique()}`.slice(0, 30);
  const done = await edit({ url: fresh, bio: 'Designs small boards.' });
  expect(done.result).toMatchObject({ url: fresh, bio: 'Designs small boards.' });
  const old = await request.get(`/user/${info.url}/stars`, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers().location).toBe(`/user/${fresh}/stars`);
  const status = await request.post('/api/user/getUserProjectStatusCount', { headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, data: {} });
  expect(await status.json()).toEqual({ retCode: 0, result: { published: 0, draft: 0 } });
});
