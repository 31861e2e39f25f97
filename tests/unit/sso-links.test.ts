import { describe, expect, it } from 'vitest';

// Read once by getConfig(): set before any test runs.
process.env.SSO_ALLOWED_ORIGINS = 'https://partner.example, not a url';
process.env.ALLOWED_HOSTS = 'copperhub.test';

const { assertSignInHost, buildSignInUrl, currentPageUrl, isAllowedHost, localLocation, safeReturnUrl, siteOrigin } = await import(
  '../../src/server/lib/sso-links.ts'
);
const { readConfig } = await import('../../src/server/config.ts');
const { isSecureConnection } = await import('../../src/server/http/transport.ts');

const request = new URL('http://copperhub.test/sso/login');

describe('safeReturnUrl', () => {
  it('keeps return addresses on the site, relative or absolute', () => {
    expect(safeReturnUrl('/d-abc123?x=1', request).toString()).toBe('http://copperhub.test/d-abc123?x=1');
    expect(safeReturnUrl('http://copperhub.test/user/ada/stars', request).toString()).toBe('http://copperhub.test/user/ada/stars');
  });

  it('allows the configured SSO_ALLOWED_ORIGINS', () => {
    expect(safeReturnUrl('https://partner.example/callback', request).toString()).toBe('https://partner.example/callback');
  });

  it('sends everything else home: other origins, protocol-relative and backslash tricks, scripts', () => {
    for (const redirect of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example/x',
      '\\\\evil.example',
      'https://copperhub.test.evil.example/',
      'https://partner.example.evil.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://user:pass@copperhub.test/',
      'https://copperhub.test/', // another scheme is another origin
      'x'.repeat(2001),
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnUrl(redirect, request).toString(), String(redirect)).toBe('http://copperhub.test/');
    }
  });

  it('never returns to the SSO, the logout route or the API, and drops a stale code', () => {
    expect(safeReturnUrl('/sso/login?redirect=/x', request).pathname).toBe('/');
    expect(safeReturnUrl('/logout', request).pathname).toBe('/');
    expect(safeReturnUrl('/api/user/getUserInfo', request).pathname).toBe('/');
    expect(safeReturnUrl('/d-x?code=old&y=2#frag', request).toString()).toBe('http://copperhub.test/d-x?y=2#frag');
  });
});

describe('sign-in links and local locations', () => {
  it('builds the SSO address with redirect, siteId and platform 6', () => {
    const url = new URL(buildSignInUrl('http://copperhub.test/create/project'), 'http://copperhub.test');
    expect(url.pathname).toBe('/sso/login');
    expect(url.searchParams.get('redirect')).toBe('http://copperhub.test/create/project');
    expect(url.searchParams.get('siteId')).toBe('copperhub');
    expect(url.searchParams.get('platform')).toBe('6');
  });

  it('collapses leading slashes so a Location never leaves the site', () => {
    expect(localLocation(new URL('http://copperhub.test//evil.example/x?code=1&a=2'), ['code'])).toBe('/evil.example/x?a=2');
    expect(localLocation(new URL('http://copperhub.test/d-x?code=c'), ['code'])).toBe('/d-x');
    expect(currentPageUrl(new URL('http://copperhub.test//evil.example/'))).toBe('http://copperhub.test/evil.example/');
  });
});

describe('allowed hosts', () => {
  const dev = readConfig({ NODE_ENV: 'development', PORT: '4321' });
  const production = readConfig({ NODE_ENV: 'production', PORT: '4321' });
  const listed = readConfig({ NODE_ENV: 'production', ALLOWED_HOSTS: 'copperhub.example, Lab.Example:8080' });
  const site = readConfig({ NODE_ENV: 'production', SITE_URL: 'https://copperhub.example/', SEED_DEMO: '0' });

  it('without SITE_URL or ALLOWED_HOSTS allows loopback names only, on the configured port in production', () => {
    for (const host of ['localhost:4321', '127.0.0.1:4321', '[::1]:4321']) {
      expect(isAllowedHost(host, dev), host).toBe(true);
      expect(isAllowedHost(host, production), host).toBe(true);
    }
    expect(isAllowedHost('127.0.0.1:51234', dev)).toBe(true);
    expect(isAllowedHost('127.0.0.1:51234', production)).toBe(false);
    for (const host of ['evil.example', 'evil.example:4321', 'localhost.evil.example:4321', 'evil.example@localhost:4321', 'localhost:4321/x', '', '10.0.0.5:4321']) {
      expect(isAllowedHost(host, dev), host).toBe(false);
    }
  });

  it('with ALLOWED_HOSTS allows exactly those (a name without a port on any port), case-insensitively', () => {
    expect(isAllowedHost('copperhub.example', listed)).toBe(true);
    expect(isAllowedHost('COPPERHUB.example:8443', listed)).toBe(true);
    expect(isAllowedHost('lab.example:8080', listed)).toBe(true);
    expect(isAllowedHost('lab.example:8081', listed)).toBe(false);
    expect(isAllowedHost('localhost:4321', listed)).toBe(false);
    expect(isAllowedHost('sub.copperhub.example', listed)).toBe(false);
  });

  it('never echoes a forged Host into the site origin', () => {
    expect(siteOrigin(new URL('http://evil.example/sso/login'), dev)).toBe('http://localhost:4321');
    expect(siteOrigin(new URL('http://evil.example/sso/login'), listed)).toBe('http://copperhub.example');
    expect(siteOrigin(new URL('http://evil.example/sso/login'), site)).toBe('https://copperhub.example');
    expect(siteOrigin(new URL('http://127.0.0.1:4321/x'), dev)).toBe('http://127.0.0.1:4321');
  });

  it('mints sign-in codes only for allowed hosts, or for any request once SITE_URL is set', () => {
    expect(() => assertSignInHost(new URL('http://evil.example/sso/login'), dev)).toThrow(expect.objectContaining({ errorKey: 'host_not_allowed', status: 400 }));
    expect(() => assertSignInHost(new URL('http://localhost:4321/sso/login'), dev)).not.toThrow();
    expect(() => assertSignInHost(new URL('http://evil.example/sso/login'), site)).not.toThrow();
  });
});

describe('https behind a proxy', () => {
  it('believes X-Forwarded-Proto only from a trusted proxy', () => {
    expect(isSecureConnection({ protocol: 'http:', forwardedProto: 'https' }, false)).toBe(false);
    expect(isSecureConnection({ protocol: 'http:', forwardedProto: 'https' }, true)).toBe(true);
    expect(isSecureConnection({ protocol: 'http:', forwardedProto: 'HTTPS, http' }, true)).toBe(true);
    expect(isSecureConnection({ protocol: 'http:', forwardedProto: 'http' }, true)).toBe(false);
    expect(isSecureConnection({ protocol: 'http:' }, true)).toBe(false);
    expect(isSecureConnection({ protocol: 'https:' }, false)).toBe(true);
  });
});
