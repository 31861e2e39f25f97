import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppServer, SERVER_TIMEOUTS } from '../../src/server/app.ts';
import { useApp } from '../helpers/app.ts';

const app = useApp();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('addresses with broken percent-encoding', () => {
  it('answer 400 without an error in the log, and well-formed ones still reach their pages', async () => {
    const logged: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void logged.push(args));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      logged.push(chunk);
      return true;
    });
    for (const broken of ['/%ff', '/collection/%E0%A4', '/m/d-%c0', '/search%', '/user/%zz/stars?page=1']) {
      const response = await app.request(broken);
      expect(response.status, broken).toBe(400);
      expect(response.headers['content-type'], broken).toBe('text/plain; charset=utf-8');
      expect(response.body, broken).toBe('400 Bad Request\n');
    }
    expect(logged).toEqual([]);
    expect((await app.request('/search?q=%E5%BC%80%E6%BA%90')).status).toBe(200);
    expect((await app.request('/collection/%E5%BC%80%E6%BA%90')).status).toBe(404);
  });
});

describe('feeds under /m', () => {
  it('lead to the one feed, keeping the query', async () => {
    for (const [from, to] of [
      ['/m/rss.xml', '/rss.xml'],
      ['/m/sitemap.xml', '/sitemap.xml'],
      ['/m/rss.xml?tag=arduino', '/rss.xml?tag=arduino'],
    ]) {
      const response = await app.request(from!);
      expect(response.status, from).toBe(301);
      expect(response.headers.location, from).toBe(to);
    }
    const feed = await app.request('/rss.xml');
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toContain('xml');
  });
});

describe('slow clients', () => {
  it('are cut by limits chosen for the site, with room for a large upload on a slow line', async () => {
    const server = await createAppServer({ distDir: path.resolve('dist') });
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeout);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeout);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeout);
    expect(SERVER_TIMEOUTS.headersTimeout).toBeLessThanOrEqual(30_000);
    // 50 MB (the largest attachment) at 1 Mbit/s takes about 7 minutes.
    expect(SERVER_TIMEOUTS.requestTimeout).toBeGreaterThanOrEqual(((50 * 8) / 1) * 1000);
    expect(SERVER_TIMEOUTS.requestTimeout).toBeGreaterThan(0); // 0 would let a client hold a connection forever
  });
});

describe('sign-in failures', () => {
  it('answer 429 with Retry-After once one address has failed too often for one account', async () => {
    const attempt = () => app.request('/sso/api/login', { method: 'POST', headers: { origin: app.origin() }, body: { email: 'nobody@example.com', password: 'guess' } });
    for (let i = 0; i < 5; i += 1) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ retCode: 429, errorKey: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(120);
  });
});
