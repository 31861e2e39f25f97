import { describe, expect, it } from 'vitest';

// Read once by getConfig(): set before any test runs.
process.env.SSO_ALLOWED_ORIGINS = 'https://partner.example, not a url';

const { buildSignInUrl, currentPageUrl, localLocation, safeReturnUrl } = await import('../../src/server/services/sso-links.ts');

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
    expect(localLocation(new URL('http://copperhub.test/d-x?token=t'), ['token'])).toBe('/d-x');
    expect(currentPageUrl(new URL('http://copperhub.test//evil.example/'))).toBe('http://copperhub.test/evil.example/');
  });
});
