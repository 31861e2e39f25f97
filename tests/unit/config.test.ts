import { describe, expect, it } from 'vitest';
import { configProblem, readConfig } from '../../src/server/config.ts';

describe('configuration', () => {
  it('reads ALLOWED_HOSTS as a lower-case list and TRUST_PROXY as a switch', () => {
    const config = readConfig({ ALLOWED_HOSTS: ' Copperhub.Example, lab.example:8080 ,', TRUST_PROXY: '1' });
    expect(config.allowedHosts).toEqual(['copperhub.example', 'lab.example:8080']);
    expect(config.trustProxy).toBe(true);
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({}).allowedHosts).toEqual([]);
  });

  it('stops a production start without demo content and without SITE_URL, in one sentence', () => {
    const problem = configProblem(readConfig({ NODE_ENV: 'production', SEED_DEMO: '0' }));
    expect(problem).toMatch(/^SITE_URL must be set .*SEED_DEMO=0.*\.$/);
    expect(problem).not.toContain('\n');
    expect(configProblem(readConfig({ NODE_ENV: 'production', SEED_DEMO: '0', SITE_URL: 'https://copperhub.example' }))).toBeNull();
  });

  it('lets the demo and development start without SITE_URL', () => {
    expect(configProblem(readConfig({ NODE_ENV: 'production' }))).toBeNull();
    expect(configProblem(readConfig({ NODE_ENV: 'development', SEED_DEMO: '0' }))).toBeNull();
  });

  it('refuses a SITE_URL that is not an origin', () => {
    for (const value of ['copperhub.example', 'ftp://copperhub.example', 'https://copperhub.example/shop', 'https://copperhub.example/?x=1']) {
      expect(configProblem(readConfig({ SITE_URL: value })), value).toMatch(/^SITE_URL must be the site's public origin/);
    }
  });
});
