import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { banners, projects } from '../../src/server/db/schema/index.ts';
import { saveBanner, OPERATOR } from '../../src/server/services/staff/index.ts';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';

// The site with its guest page cache as in production (fresh 30 s, then stale for minutes).
const app = useApp({ pageCache: {} });

let admin: Awaited<ReturnType<typeof createUser>>;
let member: Awaited<ReturnType<typeof createUser>>;
let imageUrl = '';

beforeAll(async () => {
  admin = await createUser({ role: 'admin', nickname: 'Staff Admin' });
  member = await createUser({ nickname: 'Plain Member' });
  imageUrl = (await createUpload(admin.user.id, { purpose: 'cover', name: 'b.webp', mime: 'image/webp', data: 'webp' })).url;
});

const sleepUntil = (moment: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, moment - Date.now())));
const post = (endpoint: string, body: unknown, token: string) => app.request(`/api/${endpoint}`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });

describe('scheduled banners on the cached home page', () => {
  it('appear at their start and go at their end, for guests served from the cache', async () => {
    const warm = await app.request('/');
    expect(warm.status).toBe(200);
    // Written straight through the service, as `npm run ops -- banner:add` does.
    const startsAt = Date.now() + 4000;
    const endsAt = startsAt + 4000;
    await saveBanner(OPERATOR, {
      image: imageUrl,
      link: '/newest',
      titleEn: 'Soldering night',
      titleZh: '焊接之夜',
      sort: 0,
      startsAt: new Date(startsAt),
      endsAt: new Date(endsAt),
    });

    const before = await app.request('/');
    expect(before.body).not.toContain('Soldering night');
    const cached = await app.request('/');
    expect(cached.headers['x-page-cache']).toBe('hit');
    expect(cached.body).not.toContain('Soldering night');
    // Shared caches in front of the site may not keep it past the start either.
    const sMaxAge = Number(/s-maxage=(\d+)/.exec(String(cached.headers['cache-control']))?.[1]);
    expect(sMaxAge).toBeLessThanOrEqual(Math.ceil((startsAt - Date.now()) / 1000));
    expect(String(cached.headers['cache-control'])).not.toContain('stale-while-revalidate');

    await sleepUntil(startsAt + 50);
    const started = await app.request('/');
    expect(started.headers['x-page-cache']).toBe('miss');
    expect(started.body).toContain('Soldering night');
    const chinese = await app.request('/', { headers: { 'accept-language': 'zh-CN' } });
    expect(chinese.body).toContain('焊接之夜');
    expect((await app.request('/')).headers['x-page-cache']).toBe('hit');

    await sleepUntil(endsAt + 50);
    const ended = await app.request('/');
    expect(ended.body).not.toContain('Soldering night');
    const list = await app.request('/api/banner/list');
    expect(JSON.stringify(list.json())).not.toContain('Soldering night');
  }, 30_000);
});

describe('the staff API for content', () => {
  it('refuses a member (403) and changes nothing; an admin’s change shows to guests at once', async () => {
    const owner = await createUser();
    const project = await createProject(owner.user.id, { title: 'Quiet little clock' });
    await app.request('/recommend');
    expect((await app.request('/recommend')).headers['x-page-cache']).toBe('hit');

    const refused = await post('admin/recommend/pin', { project: project.publicId, rank: 1 }, member.token);
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ errorKey: 'forbidden' });
    const refusedBanner = await post('admin/banner/save', { image: imageUrl, link: '/x', titleEn: 'Nope', titleZh: '不' }, member.token);
    expect(refusedBanner.status).toBe(403);
    expect(await getDb().select().from(banners).where(eq(banners.titleEn, 'Nope'))).toEqual([]);
    const [row] = await getDb().select({ rank: projects.recommendRank }).from(projects).where(eq(projects.id, project.id));
    expect(row!.rank).toBeNull();

    const pinned = await post('admin/recommend/pin', { project: project.publicId, rank: 1 }, admin.token);
    expect(pinned.status).toBe(200);
    expect(pinned.json()).toMatchObject({ retCode: 0, result: { item: [{ id: project.publicId, rank: 1 }] } });
    const page = await app.request('/recommend');
    expect(page.headers['x-page-cache']).toBe('miss');
    const cards = [...page.body.matchAll(/href="\/d-([A-Za-z0-9_-]+)"/g)].map((match) => match[1]);
    expect(cards[0]).toBe(project.publicId);

    await post('admin/tag/create', { slug: 'wifi', nameEn: 'WiFi', nameZh: '无线', parent: null }, admin.token);
    await post('admin/tag/create', { slug: 'wireless', nameEn: 'Wireless', nameZh: '无线通信', parent: null }, admin.token);
    const merged = await post('admin/tag/merge', { from: 'wifi', into: 'wireless' }, admin.token);
    expect(merged.json()).toMatchObject({ result: { item: { slug: 'wireless', aliases: ['wifi'] } } });
    const old = await app.request('/newest?tag=wifi&page=2');
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe('/newest?tag=wireless&page=2');
    expect((await app.request('/m/recommend?tag=wifi')).headers.location).toBe('/m/recommend?tag=wireless');

    const bad = await post('admin/tag/move', { slug: 'ghost', parent: null }, admin.token);
    expect(bad.status).toBe(404);
    expect(bad.json()).toMatchObject({ errorKey: 'tag_not_found', message: 'This tag does not exist.' });
  });
});

describe('npm run ops against the running site', () => {
  it('a pin from the console shows to guests of the running site on their next request', async () => {
    const owner = await createUser();
    const project = await createProject(owner.user.id, { title: 'Console pinned clock' });
    await app.request('/recommend');
    expect((await app.request('/recommend')).headers['x-page-cache']).toBe('hit');
    // Another process, as an operator runs it: its purge reaches this server by NOTIFY.
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/ops.ts', 'recommend:pin', project.publicId, '--rank', '1'], { env: { ...process.env } });
    expect(stdout).toContain('pinned at 1');
    let page = await app.request('/recommend');
    for (let tries = 0; page.headers['x-page-cache'] === 'hit' && tries < 20; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      page = await app.request('/recommend');
    }
    expect(page.headers['x-page-cache']).toBe('miss');
    expect([...page.body.matchAll(/href="\/d-([A-Za-z0-9_-]+)"/g)][0]?.[1]).toBe(project.publicId);
  }, 30_000);
});
