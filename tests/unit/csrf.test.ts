import { describe, expect, it } from 'vitest';
import { isCrossSiteWrite, showsRefusalOnForm } from '../../src/server/http/csrf.ts';

const SITE = 'https://copperhub.example';
const write = (headers: Record<string, string>, method = 'POST') => new Request(`${SITE}/api/project/star`, { method, headers });

describe('isCrossSiteWrite', () => {
  it('lets every read through, from anywhere', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(isCrossSiteWrite(write({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, method), SITE)).toBe(false);
  });

  it('decides by Sec-Fetch-Site when the browser sends it, whatever the Origin says', () => {
    expect(isCrossSiteWrite(write({ 'sec-fetch-site': 'same-origin' }), SITE)).toBe(false);
    expect(isCrossSiteWrite(write({ 'sec-fetch-site': 'none' }), SITE)).toBe(false);
    expect(isCrossSiteWrite(write({ 'sec-fetch-site': 'cross-site', origin: SITE }), SITE)).toBe(true);
    expect(isCrossSiteWrite(write({ 'sec-fetch-site': 'same-site', origin: SITE }), SITE)).toBe(true);
  });

  it('else by Origin, which must be the site itself', () => {
    expect(isCrossSiteWrite(write({ origin: SITE }), SITE)).toBe(false);
    expect(isCrossSiteWrite(write({ origin: 'https://evil.example' }), SITE)).toBe(true);
    expect(isCrossSiteWrite(write({ origin: 'http://copperhub.example' }), SITE)).toBe(true);
    expect(isCrossSiteWrite(write({ origin: 'null' }), SITE)).toBe(true);
  });

  it('lets the payment webhook through from anywhere (its signature decides), and nothing beside it', () => {
    const post = (path: string) => new Request(`${SITE}${path}`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } });
    expect(isCrossSiteWrite(post('/api/donate/webhook'), SITE)).toBe(false);
    for (const path of ['/api/donate/webhook/', '/api/donate/webhooks', '/api/donate/checkout', '/m/api/donate/webhook', '/api/donate/webhook/x']) expect(isCrossSiteWrite(post(path), SITE), path).toBe(true);
  });

  it('lets apps through: a Bearer token, or no browser header at all', () => {
    expect(isCrossSiteWrite(write({ authorization: 'Bearer abc', 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }), SITE)).toBe(false);
    expect(isCrossSiteWrite(write({}), SITE)).toBe(false);
    // Not a Bearer token: the cookie would be read, so the browser rules apply.
    expect(isCrossSiteWrite(write({ authorization: 'Basic abc', origin: 'https://evil.example' }), SITE)).toBe(true);
  });
});

describe('showsRefusalOnForm', () => {
  it('names the sign-in and sign-up pages only', () => {
    expect(showsRefusalOnForm('/sso/login')).toBe(true);
    expect(showsRefusalOnForm('/sso/register/')).toBe(true);
    expect(showsRefusalOnForm('/sso/api/login')).toBe(false);
    expect(showsRefusalOnForm('/logout')).toBe(false);
  });
});
