import { describe, expect, it } from 'vitest';
import { pageCspDirectives, runtimeCspAdditions } from '../../src/server/http/security-headers.ts';

describe('page policy directives', () => {
  it('forbid framing and plugins, and let the islands reach a separate API origin', () => {
    const directives = pageCspDirectives({ PUBLIC_API_BASE: 'https://api.copperhub.dev/v1/' });
    expect(directives).toContain("frame-ancestors 'none'");
    expect(directives).toContain("object-src 'none'");
    expect(directives).toContain("connect-src 'self' blob: https://api.copperhub.dev");
    expect(pageCspDirectives({})).toContain("connect-src 'self' blob:");
  });
});

describe('run-time additions', () => {
  it('allow the analytics script and its reports by origin only', () => {
    const additions = runtimeCspAdditions({ analyticsSrc: 'https://stats.example.org/js/script.js?site=1', ssoAllowedOrigins: [] });
    expect(additions).toEqual({ scriptResources: ['https://stats.example.org'], directives: ["connect-src 'self' blob: https://stats.example.org"] });
  });

  it('add nothing for a same-site analytics path or without configuration', () => {
    expect(runtimeCspAdditions({ analyticsSrc: '/stats.js', ssoAllowedOrigins: [] })).toEqual({ scriptResources: [], directives: [] });
    expect(runtimeCspAdditions({ ssoAllowedOrigins: [] })).toEqual({ scriptResources: [], directives: [] });
  });

  it('let sign-in forms hand over to the site and the allowed return origins', () => {
    const additions = runtimeCspAdditions({ siteUrl: 'https://copperhub.dev', ssoAllowedOrigins: ['https://forum.copperhub.dev', 'https://copperhub.dev', 'not a url'] });
    expect(additions.directives).toEqual(["form-action 'self' https://www.digikey.com https://copperhub.dev https://forum.copperhub.dev"]);
  });

  it('let videos play from the bucket their signed addresses redirect to', () => {
    const additions = runtimeCspAdditions({ ssoAllowedOrigins: [], storageOrigin: 'https://files.copperhub.dev' });
    expect(additions.directives).toEqual(["media-src 'self' blob: https://files.copperhub.dev"]);
  });
});
