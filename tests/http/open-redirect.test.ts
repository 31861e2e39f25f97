import { describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';

const app = useApp();

/** Return addresses that try to leave the site, the way real open-redirect reports spell them. */
const CORPUS = [
  'https://evil.example/',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '\\/evil.example',
  ' //evil.example',
  '\t//evil.example',
  'https:evil.example',
  'http://evil.example@127.0.0.1/',
  'http://127.0.0.1@evil.example/',
  'http://127.0.0.1.evil.example/',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/%2F%2Fevil.example',
  '/%5Cevil.example',
  '/\r\nLocation: https://evil.example',
  'https://evil.example/?redirect=/d-x',
  '/sso/login?redirect=https://evil.example',
  '/logout',
];

const onSite = (location: string) => new URL(location, app.origin()).origin === app.origin();

describe('sign-in return addresses', () => {
  it.each(CORPUS)('never send a signed-in browser off the site: %j', async (redirect) => {
    const { token } = await createUser();
    const answer = await app.request(`/sso/login?redirect=${encodeURIComponent(redirect)}&siteId=copperhub&platform=6`, { token });
    expect(answer.status).toBe(303);
    const location = answer.headers.location!;
    expect(onSite(location), location).toBe(true);
    expect(new URL(location, app.origin()).searchParams.get('code')).toBeTruthy();
  });

  it.each(CORPUS)('never answer the JSON sign-in with a location off the site: %j', async (redirect) => {
    const email = `redirect-${Math.random().toString(36).slice(2)}@example.com`;
    const origin = app.origin();
    const registered = await app.request('/sso/api/register', {
      method: 'POST',
      headers: { origin },
      body: { email, password: 'solder-fumes-42', nickname: 'Redirect Tester', redirect, siteId: 'copperhub', platform: 6 },
    });
    const envelope = registered.json<{ retCode: number; result: { location: string } }>();
    expect(envelope.retCode, registered.body).toBe(0);
    expect(onSite(envelope.result.location), envelope.result.location).toBe(true);
  });
});

describe('signing out', () => {
  it('goes home, whatever the address carries', async () => {
    for (const redirect of CORPUS) {
      const { token } = await createUser();
      const answer = await app.request(`/logout?redirect=${encodeURIComponent(redirect)}`, { method: 'POST', token, headers: { origin: app.origin() } });
      expect(answer.status).toBe(303);
      expect(answer.headers.location).toBe('/');
    }
  });
});
