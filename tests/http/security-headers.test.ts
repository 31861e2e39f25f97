import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getStorage } from '../../src/server/storage/index.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

const app = useApp();

let owner: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

beforeAll(async () => {
  owner = await createUser({ nickname: 'Header Owner' });
  projectId = (await createProject(owner.user.id, { title: 'Header test board' })).publicId;
  await getStorage().put('test/headers.png', Buffer.from('not really a png'));
});

/** The policy as a map of directive name to its sources. */
function policyOf(response: AppResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header, 'one Content-Security-Policy header').toBe('string');
  const policy = new Map<string, string[]>();
  for (const directive of (header as string).split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) policy.set(name, sources);
  }
  return policy;
}

/** What every answer of the site carries, whatever produced it. */
function expectCommonHeaders(response: AppResponse, label: string) {
  expect(response.headers['x-content-type-options'], label).toBe('nosniff');
  expect(response.headers['x-frame-options'], label).toBe('DENY');
  expect(response.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(response.headers['permissions-policy'], label).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(\)/);
}

/**
 * A page's policy: nobody may frame it, and a script runs only from this origin or when its exact
 * text was hashed into the header — every inline script the page carries is, and nothing else.
 */
function expectPagePolicy(response: AppResponse, label: string) {
  expectCommonHeaders(response, label);
  expect(response.headers['content-type'], label).toMatch(/^text\/html/);
  const policy = policyOf(response);
  expect(policy.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(policy.get('object-src'), label).toEqual(["'none'"]);
  const scriptSrc = policy.get('script-src') ?? [];
  expect(scriptSrc, label).toContain("'self'");
  expect(scriptSrc, label).not.toContain("'unsafe-inline'");
  expect(scriptSrc, label).not.toContain("'unsafe-eval'");
  expect(policy.has('script-src-elem') || policy.has('script-src-attr'), `${label}: script-src alone decides`).toBe(false);
  expect(policy.get('img-src'), label).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));

  const inline = [...response.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attributes]) => !/\bsrc=/.test(attributes!));
  const code = inline.filter(([, attributes]) => !/type="application\/(ld\+)?json"/.test(attributes!));
  expect(code.length, `${label}: the page has inline scripts to check`).toBeGreaterThan(0);
  for (const [, , text] of code) {
    const hash = `'sha256-${createHash('sha256').update(text!).digest('base64')}'`;
    expect(scriptSrc, `${label}: inline script ${text!.slice(0, 60)}… is allowed by its hash`).toContain(hash);
  }
}

describe('security headers', () => {
  it('give every page a hash-based script policy that nobody may frame, on desktop and under /m', async () => {
    const pages = ['/', '/m', `/d-${projectId}`, `/m/d-${projectId}`, '/sso/login', `/user/${owner.user.customUrl}`];
    for (const path of pages) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expectPagePolicy(response, path);
    }
    const signedIn = ['/create/project', '/m/create/project', `/user/${owner.user.customUrl}/profile`];
    for (const path of signedIn) {
      const response = await app.request(path, { token: owner.token });
      expect(response.status, path).toBe(200);
      expectPagePolicy(response, `${path} signed in`);
    }
  });

  it('send the page policy with the not-found page too', async () => {
    for (const path of ['/no/such/page', '/m/no/such/page', '/d-doesnotexist']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expectPagePolicy(response, path);
    }
  });

  it('let API answers load nothing and be framed by nobody', async () => {
    for (const path of ['/api/tag/list', '/api/nope']) {
      const response = await app.request(path);
      expect(response.headers['content-type'], path).toMatch(/^application\/json/);
      expectCommonHeaders(response, path);
      expect(response.headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('come with the answers the node server gives itself: health, built assets, stored files', async () => {
    const health = await app.request('/healthz');
    expect(health.status).toBe(200);
    expectCommonHeaders(health, '/healthz');
    expect(health.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");

    const script = readdirSync('dist/client/_astro').find((file) => file.endsWith('.js'))!;
    for (const path of [`/_astro/${script}`, '/favicon.svg']) {
      const asset = await app.request(path);
      expect(asset.status, path).toBe(200);
      expectCommonHeaders(asset, path);
      expect(asset.headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'");
    }

    // A stored file keeps its own policy, which lets an opened image or video show and nothing run.
    const stored = await app.request('/files/test/headers.png');
    expect(stored.status).toBe(200);
    expectCommonHeaders(stored, '/files/…');
    expect(stored.headers['content-security-policy']).toBe("default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'");
  });
});
