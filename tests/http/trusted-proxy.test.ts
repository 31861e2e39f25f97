import { describe, expect, it } from 'vitest';
import { registerAccount } from '../../src/server/services/accounts/index.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';

// Read once by the server's configuration: this file's site runs behind a TLS proxy.
process.env.TRUST_PROXY = '1';

/** Behind a TLS-terminating proxy that says so (`X-Forwarded-Proto: https`), with `TRUST_PROXY=1`. */
const app = useApp();
const tokenCookie = (response: AppResponse) => (response.headers['set-cookie'] ?? []).find((value) => value.startsWith('token='));

describe('behind a trusted TLS proxy', () => {
  it('makes the session cookie Secure and sends HSTS on pages, assets and the health check', async () => {
    const account = { email: 'proxy-test@example.com', password: 'solder-bridge-42', nickname: 'Proxy Tester' };
    await registerAccount(account);
    const answer = await app.request('/sso/api/login', { method: 'POST', body: { ...account, redirect: '/newest' }, headers: { 'x-forwarded-proto': 'https' } });
    const location = new URL(answer.json<{ result: { location: string } }>().result.location);
    const opened = await app.request(location.pathname + location.search, { headers: { 'x-forwarded-proto': 'https' } });
    expect(opened.status).toBe(302);
    expect(tokenCookie(opened)).toMatch(/;\s*Secure/i);
    expect(tokenCookie(opened)).toMatch(/HttpOnly/i);
    for (const path of ['/', '/newest', '/healthz', '/robots.txt']) {
      const response = await app.request(path, { headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers['strict-transport-security'], path).toMatch(/^max-age=\d{7,}/);
    }
  });

  it('sends neither when the proxy says the visitor came over plain http', async () => {
    const response = await app.request('/', { headers: { 'x-forwarded-proto': 'http' } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('the client behind a trusted proxy', () => {
  const account = { email: 'proxied-member@example.com', password: 'copper-pour-77', nickname: 'Proxied Member' };
  const signIn = (password: string, forwardedFor: string) =>
    app.request('/sso/api/login', { method: 'POST', body: { email: account.email, password, redirect: '/newest' }, headers: { 'x-forwarded-for': forwardedFor } });

  it('is counted by the address the proxy saw: one client’s failures do not lock out another, and a forged entry changes nothing', async () => {
    await registerAccount(account);
    // One client guesses until its address and this account are held back.
    for (let i = 0; i < 5; i++) expect((await signIn('wrong-guess-00', '203.0.113.7')).json<{ errorKey?: string }>().errorKey).toBe('invalid_credentials');
    expect((await signIn('wrong-guess-00', '203.0.113.7')).json<{ errorKey?: string }>().errorKey).toBe('rate_limited');
    // Writing another address before its own does not make it someone else.
    expect((await signIn(account.password, '198.51.100.9, 203.0.113.7')).json<{ errorKey?: string }>().errorKey).toBe('rate_limited');
    // The member, from their own address, still gets in.
    const member = await signIn(account.password, '198.51.100.9');
    expect(member.status).toBe(200);
    expect(member.json<{ retCode: number }>().retCode).toBe(0);
  });
});

