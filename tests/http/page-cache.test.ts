import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { projects } from '../../src/server/db/schema/index.ts';
import { submitComment } from '../../src/server/services/community/index.ts';
import { editProfile } from '../../src/server/services/accounts/index.ts';
import { deleteProject, setProjectStar } from '../../src/server/services/projects/index.ts';
import { DESKTOP_UA, PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

const app = useApp({ pageCache: {} });

let owner: Awaited<ReturnType<typeof createUser>>;
let reader: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

beforeAll(async () => {
  owner = await createUser({ nickname: 'Cache Owner' });
  reader = await createUser({ nickname: 'Signed Reader' });
  projectId = (await createProject(owner.user.id, { title: 'Cached clock kit' })).publicId;
});

/** The raw bytes of an answer, for checking what a compressed body holds. */
function rawRequest(pathname: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(app.origin());
  return new Promise((resolve, reject) => {
    http
      .get({ host: hostname, port, path: pathname, headers: { 'user-agent': DESKTOP_UA, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('guest pages', () => {
  it('are rendered once, then served from memory, compressed as the browser accepts, with validators', async () => {
    const first = await app.request(`/d-${projectId}`);
    expect(first.status).toBe(200);
    expect(first.headers['x-page-cache']).toBe('miss');
    const second = await app.request(`/d-${projectId}`);
    expect(second.headers['x-page-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.body).toContain('Cached clock kit');
    expect(second.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(second.headers.vary).toContain('Accept-Language');
    expect(second.headers.vary).toContain('Cookie');
    expect(second.headers.vary).toContain('Accept-Encoding');
    expect(second.headers['content-security-policy']).toContain("script-src 'self'");
    expect(second.headers['x-page-tags']).toBeUndefined();

    const br = await rawRequest(`/d-${projectId}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(first.body);
    const gz = await rawRequest(`/d-${projectId}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(first.body);
    // Text compresses to well under half (a page holds each block of its islands' messages once).
    expect(gz.body.length).toBeLessThan(first.body.length / 2.5);

    const etag = second.headers.etag!;
    expect(etag).toMatch(/^".+"$/);
    const revalidated = await app.request(`/d-${projectId}`, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('are compressed quickly for the visitor who waits for the render, and smaller once read again', async () => {
    const address = `/d-${projectId}?from=compression-test`;
    const first = await rawRequest(address, { 'accept-encoding': 'br' });
    expect(first.headers['x-page-cache']).toBe('miss');
    expect(first.headers['content-encoding']).toBe('br');
    const page = brotliDecompressSync(first.body).toString();
    expect(page).toContain('Cached clock kit');
    // The second reader gets the quick bytes while the better ones are made; a later one, those.
    const second = await rawRequest(address, { 'accept-encoding': 'br' });
    expect(second.headers['x-page-cache']).toBe('hit');
    expect(brotliDecompressSync(second.body).toString()).toBe(page);
    let later = second;
    for (let attempt = 0; attempt < 50 && later.body.length >= first.body.length; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      later = await rawRequest(address, { 'accept-encoding': 'br' });
    }
    expect(later.body.length).toBeLessThan(first.body.length);
    expect(brotliDecompressSync(later.body).toString()).toBe(page);
  });

  it('are kept apart by language, and a signed-in zh-CN member never gets the English guest page', async () => {
    const english = await app.request('/newest');
    expect(english.body).toContain('lang="en-US"');
    await app.request('/newest');
    const chineseGuest = await app.request('/newest', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(chineseGuest.body).toContain('lang="zh-CN"');
    const member = await app.request('/newest', { token: reader.token, headers: { cookie: 'i18n_redirected=zh-CN' } });
    expect(member.status).toBe(200);
    // Filled in from the Chinese guest page, never answered with the English one or kept.
    expect(member.headers['x-page-cache']).toBe('fill');
    expect(member.headers['cache-control']).toBe('private, no-store');
    expect(member.body).toContain('lang="zh-CN"');
    expect(member.body).toContain('Signed Reader');
    // And the guest page never holds the member's name.
    const guestAfter = await app.request('/newest');
    expect(guestAfter.body).not.toContain('Signed Reader');
  });

  it('take the bare language codes other clients write in the cookie (zh, en) for the locales they name', async () => {
    for (let i = 0; i < 2; i++) {
      const chinese = await app.request('/newest', { headers: { cookie: 'i18n_redirected=zh', 'accept-language': 'en-US' } });
      expect(chinese.body).toContain('lang="zh-CN"');
      const english = await app.request('/m/newest', { headers: { cookie: 'i18n_redirected=en', 'accept-language': 'zh-CN' } });
      expect(english.body).toContain('lang="en-US"');
    }
  });

  it('never replay a cookie, and what sets one is rendered for its visitor alone', async () => {
    const choose = await app.request('/?desktop=1', { headers: { 'user-agent': PHONE_UA } });
    expect(choose.headers['set-cookie']?.join(';')).toContain('prefer_desktop=1');
    expect(choose.headers['x-page-cache']).toBeUndefined();
    for (let i = 0; i < 2; i += 1) {
      const page = await app.request('/');
      expect(page.headers['set-cookie']).toBeUndefined();
    }
    // The phone that chose the desktop site gets it, not the redirect other phones get.
    const chosen = await app.request('/', { headers: { 'user-agent': PHONE_UA, cookie: 'prefer_desktop=1' } });
    expect(chosen.status).toBe(200);
    const phone = await app.request('/', { headers: { 'user-agent': PHONE_UA } });
    expect(phone.status).toBe(302);
    expect(phone.headers.location).toBe('/m');
  });

  it('leave out previews, sign-in pages, the player and anything for a member', async () => {
    for (const path of ['/sso/login', '/preview?id=nothing', '/video/player?id=nothing']) {
      await app.request(path);
      const again = await app.request(path);
      expect(again.headers['x-page-cache'], path).toBeUndefined();
    }
  });

  it('keep "not found" answers only until something is published', async () => {
    const missing = await app.request('/d-notyetthere1');
    expect(missing.status).toBe(404);
    const again = await app.request('/d-notyetthere1');
    expect(again.status).toBe(404);
    expect(again.headers['x-page-cache']).toBe('hit');
    expect(again.headers.etag).toBeUndefined();
  });
});

describe('writes purge the pages that show them', () => {
  it('a comment, a star and a profile edit show on the next guest view', async () => {
    await app.request(`/d-${projectId}`);
    expect((await app.request(`/d-${projectId}`)).headers['x-page-cache']).toBe('hit');

    await submitComment(reader.user.id, projectId, 'Built one, keeps time well');
    const commented = await app.request(`/d-${projectId}`);
    expect(commented.headers['x-page-cache']).toBe('miss');
    expect(commented.body).toContain('Built one, keeps time well');

    await app.request(`/user/${reader.user.customUrl}/stars`);
    await setProjectStar(reader.user.id, projectId, true);
    const starred = await app.request(`/d-${projectId}`);
    expect(starred.headers['x-page-cache']).toBe('miss');
    const stars = await app.request(`/user/${reader.user.customUrl}/stars`);
    expect(stars.headers['x-page-cache']).toBe('miss');
    expect(stars.body).toContain('Cached clock kit');

    await editProfile(owner.user.id, { nickname: 'Renamed Owner' });
    const renamed = await app.request(`/d-${projectId}`);
    expect(renamed.body).toContain('Renamed Owner');
  });

  it("a write through the site's own API purges too (the built site's services, the server's cache)", async () => {
    await app.request(`/d-${projectId}`);
    expect((await app.request(`/d-${projectId}`)).headers['x-page-cache']).toBe('hit');
    const posted = await app.request('/api/comment/submit', {
      method: 'POST',
      token: reader.token,
      headers: { origin: app.origin() },
      body: { id: projectId, content: 'Posted through the API' },
    });
    expect(posted.json().retCode).toBe(0);
    const after = await app.request(`/d-${projectId}`);
    expect(after.headers['x-page-cache']).toBe('miss');
    expect(after.body).toContain('Posted through the API');
  });

  it('a deleted project leaves the lists and its page at once', async () => {
    const gone = await createProject(owner.user.id, { title: 'Short-lived board' });
    const before = await app.request('/newest');
    expect(before.body).toContain('Short-lived board');
    await deleteProject(owner.user.id, gone.publicId);
    expect((await app.request('/newest')).body).not.toContain('Short-lived board');
    expect((await app.request(`/d-${gone.publicId}`)).status).toBe(404);
  });

  it("another instance's purge arrives through PostgreSQL NOTIFY", async () => {
    await app.request(`/d-${projectId}`);
    expect((await app.request(`/d-${projectId}`)).headers['x-page-cache']).toBe('hit');
    // What an instance's purge sends: its own name, then the tags.
    await getDb().$client.query('SELECT pg_notify($1, $2)', ['copperhub_page_purge', `another-instance project:${projectId}`]);
    await expect.poll(async () => (await app.request(`/d-${projectId}`)).headers['x-page-cache'], { timeout: 1000 }).toBe('miss');
  });
});

describe('views', () => {
  it('count for every guest, whether the page was rendered or came from memory', async () => {
    const fresh = await createProject(owner.user.id, { title: 'Counted board' });
    const viewCount = async () => (await getDb().select({ n: projects.viewCount }).from(projects).where(eq(projects.id, fresh.id)))[0]!.n;
    await app.request(`/d-${fresh.publicId}`, { headers: { 'user-agent': `${DESKTOP_UA} one` } });
    const hit = await app.request(`/d-${fresh.publicId}`, { headers: { 'user-agent': `${DESKTOP_UA} two` } });
    expect(hit.headers['x-page-cache']).toBe('hit');
    await expect.poll(viewCount).toBe(2);
  });

  it('do not count a prefetch; the click after it, answered 304, does', async () => {
    const fresh = await createProject(owner.user.id, { title: 'Prefetched board' });
    const viewCount = async () => (await getDb().select({ n: projects.viewCount }).from(projects).where(eq(projects.id, fresh.id)))[0]!.n;
    const agent = `${DESKTOP_UA} prefetcher`;
    const prefetched = await app.request(`/d-${fresh.publicId}`, { headers: { 'user-agent': agent, purpose: 'prefetch' } });
    expect(prefetched.status).toBe(200);
    await app.request(`/d-${fresh.publicId}`, { headers: { 'user-agent': `${DESKTOP_UA} hoverer`, purpose: 'prefetch' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await viewCount()).toBe(0);
    const click = await app.request(`/d-${fresh.publicId}`, { headers: { 'user-agent': agent, 'if-none-match': prefetched.headers['etag'] as string } });
    expect(click.status).toBe(304);
    await expect.poll(viewCount).toBe(1);
  });
});
