import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';

// The site with its guest page cache as in production: a tag page cached as "not found" before
// an author creates the tag must not outlive the publication.
const app = useApp({ pageCache: {} });

let author: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  author = await createUser({ nickname: 'Tag Author', createdAt: new Date(Date.now() - 30 * 24 * 3600 * 1000) });
  const mcu = await createTag('microcontrollers', 'Microcontrollers', '单片机');
  await createProject(author.user.id, { title: 'Blinky board' }, [mcu.id]);
});

type Envelope = { retCode: number; errorKey?: string; fields?: Record<string, string>; result: any };

describe('tag/suggest', () => {
  it('answers a Chinese query with the tag and both its names, by GET and POST', async () => {
    const get = await app.request(`/api/tag/suggest?q=${encodeURIComponent('单片')}`);
    expect(get.status).toBe(200);
    expect(get.json<Envelope>().result).toEqual([{ slug: 'microcontrollers', nameEn: 'Microcontrollers', nameZh: '单片机', projectCount: 1 }]);
    const post = await app.request('/api/tag/suggest', { method: 'POST', body: { q: 'CONTROL', limit: 3 } });
    expect(post.json<Envelope>().result.map((tag: { slug: string }) => tag.slug)).toEqual(['microcontrollers']);
  });

  it('refuses an empty, too long or over-limit query with a translated validation error', async () => {
    for (const [query, field] of [
      ['q=', 'q'],
      ['q=%00%01', 'q'],
      [`q=${'x'.repeat(41)}`, 'q'],
      ['q=esp&limit=50', 'limit'],
    ] as const) {
      const response = await app.request(`/api/tag/suggest?${query}`, { headers: { 'accept-language': 'zh-CN' } });
      expect(response.status).toBe(400);
      const body = response.json<Envelope & { message: string }>();
      expect(body.errorKey).toBe('validation');
      expect(Object.keys(body.fields ?? {})).toEqual([field]);
    }
  });
});

describe('publishing a new tag', () => {
  it('creates the tag and its page, even after a guest saw that page missing', async () => {
    const before = await app.request('/newest?tag=hot-plate');
    expect(before.status).toBe(404);
    const published = await app.request('/api/release/saveProject', {
      method: 'POST',
      token: author.token,
      headers: { origin: app.origin() },
      body: { title: 'PTC hot plate', licence: 'MIT', tags: ['microcontrollers', { name: 'Hot Plate' }], publish: true },
    });
    expect(published.json<Envelope>()).toMatchObject({ retCode: 0, result: { status: 'published' } });
    const page = await app.request('/newest?tag=hot-plate');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Tag: Hot Plate</h1>');
    expect(page.body).toContain('PTC hot plate');

    const refused = await app.request('/api/release/saveProject', {
      method: 'POST',
      token: author.token,
      headers: { origin: app.origin() },
      body: { title: 'Bad tags', licence: 'MIT', tags: [{ name: '<b>bold</b>' }], publish: true },
    });
    expect(refused.status).toBe(400);
    expect(await app.request('/newest?tag=bold')).toMatchObject({ status: 404 });
    expect(refused.json<Envelope>()).toMatchObject({ errorKey: 'validation', fields: { tags: 'tag_name_invalid' } });
  });
});

describe('a Chinese-named tag', () => {
  it('has its page, feed and sitemap entry at its CJK address', async () => {
    const published = await app.request('/api/release/saveProject', {
      method: 'POST',
      token: author.token,
      headers: { origin: app.origin() },
      body: { title: 'Reflow controller 回流焊控制器', licence: 'MIT', tags: [{ name: '回流焊' }], publish: true },
    });
    expect(published.json<Envelope>().retCode).toBe(0);
    const slug = encodeURIComponent('回流焊');
    const page = await app.request(`/newest?tag=${slug}`, { headers: { 'accept-language': 'zh-CN' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('回流焊控制器');
    expect(page.body).toMatch(/<h1>[^<]*回流焊<\/h1>/);
    const feed = await app.request(`/newest/feed.xml?tag=${slug}`);
    expect(feed.status).toBe(200);
    expect(feed.body).toContain('回流焊控制器');
    const sitemap = await app.request('/sitemaps/tags.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).toContain(`tag=${slug}`);
  });
});
