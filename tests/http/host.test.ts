import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json' with { type: 'json' };
import zh from '../../locales/zh-CN.json' with { type: 'json' };
import { registerAccount } from '../../src/server/services/accounts/index.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';

/**
 * Without `SITE_URL` the site builds return addresses from the request, but only for its own
 * hosts (loopback here): a forged `Host` must never receive a sign-in code. Without
 * `TRUST_PROXY`, `X-Forwarded-*` headers change nothing.
 */
const app = useApp();
const account = { email: 'host-test@example.com', password: 'solder-bridge-42', nickname: 'Host Tester' };

beforeAll(async () => {
  await registerAccount(account);
});

const login = (headers: Record<string, string>, redirect = '/newest') =>
  app.request('/sso/api/login', { method: 'POST', body: { ...account, redirect, siteId: 'copperhub', platform: 6 }, headers });

const tokenCookie = (response: AppResponse) => (response.headers['set-cookie'] ?? []).find((value) => value.startsWith('token='));

describe('a forged Host header', () => {
  it('gets no sign-in code from the JSON sign-in, relative or absolute return address alike', async () => {
    for (const redirect of ['/newest', 'http://evil.example/newest']) {
      const response = await login({ host: 'evil.example' }, redirect);
      expect(response.status).toBe(400);
      expect(response.json()).toMatchObject({ errorKey: 'host_not_allowed', message: en.errors.host_not_allowed });
      expect(response.body).not.toContain('code=');
    }
    const zhAnswer = await login({ host: 'evil.example', 'accept-language': 'zh-CN' });
    expect(zhAnswer.json()).toMatchObject({ errorKey: 'host_not_allowed', message: zh.errors.host_not_allowed });
  });

  it('gets the sign-in page with the reason and a 400, never a redirect with a code', async () => {
    const page = await app.request('/sso/login?redirect=%2Fnewest', { headers: { host: 'evil.example' } });
    expect(page.status).toBe(400);
    expect(page.body).toContain(en.errors.host_not_allowed);
    expect(page.body).not.toContain('evil.example');

    const zhPage = await app.request('/sso/login', { headers: { host: 'evil.example', 'accept-language': 'zh-CN' } });
    expect(zhPage.status).toBe(400);
    expect(zhPage.body).toContain(zh.errors.host_not_allowed);

    // A signed-in member opening the SSO through the forged host is not sent back with a code.
    const member = await createUser({ nickname: 'Signed In Member' });
    const signedIn = await app.request('/sso/login?redirect=%2Fnewest', { headers: { host: 'evil.example' }, token: member.token });
    expect(signedIn.status).toBe(400);
    expect(signedIn.headers.location).toBeUndefined();

    // The form posted without JavaScript, same answer.
    const form = await app.request('/sso/login', {
      method: 'POST',
      headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: account.email, password: account.password, redirect: '/newest' }).toString(),
    });
    expect(form.status).toBe(400);
    expect(form.headers.location).toBeUndefined();
  });

  it('never appears in the links of a page', async () => {
    const page = await app.request('/newest', { headers: { host: 'evil.example' } });
    expect(page.body).not.toContain('evil.example');
  });

  it('leaves the site itself working: its own host gets the code on its own origin', async () => {
    const response = await login({});
    expect(response.status).toBe(200);
    const location = new URL(response.json<{ result: { location: string } }>().result.location);
    expect(location.origin).toBe(app.origin());
    expect(location.pathname).toBe('/newest');
    expect(location.searchParams.get('code')).toBeTruthy();
  });

  it('cannot be smuggled in X-Forwarded-Host', async () => {
    const response = await login({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(response.status).toBe(200);
    expect(new URL(response.json<{ result: { location: string } }>().result.location).origin).toBe(app.origin());
  });
});

describe('without TRUST_PROXY', () => {
  it('ignores X-Forwarded-Proto: no Secure cookie, no HSTS', async () => {
    const { location } = (await login({})).json<{ result: { location: string } }>().result;
    const url = new URL(location);
    const opened = await app.request(url.pathname + url.search, { headers: { 'x-forwarded-proto': 'https' } });
    expect(opened.status).toBe(302);
    expect(tokenCookie(opened)).toMatch(/HttpOnly/i);
    expect(tokenCookie(opened)).not.toMatch(/;\s*Secure/i);
    expect(opened.headers['strict-transport-security']).toBeUndefined();
    expect((await app.request('/', { headers: { 'x-forwarded-proto': 'https' } })).headers['strict-transport-security']).toBeUndefined();
  });
});
