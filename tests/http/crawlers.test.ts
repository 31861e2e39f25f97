import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { collectionProjects, collections, memberCollectionProjects, memberCollections, projects, userUrlAliases, videos } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { deleteProject } from '../../src/server/services/projects/index.ts';
import { GOOGLEBOT_UA, PHONE_UA, useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { child, children, parseXml, text, W3C_DATETIME } from '../helpers/xml.ts';

// Through the page cache, as crawlers and feed readers get them.
const app = useApp({ pageCache: {} });

let maker: Awaited<ReturnType<typeof createUser>>;
let covered = '';
let plain = '';
let doomed = '';
let videoId = '';

beforeAll(async () => {
  maker = await createUser({ nickname: 'Crawl & Maker', bio: 'Builds <clocks>', website: 'https://maker.example' });
  const tag = await createTag('clocks', 'Clocks', '时钟');
  covered = (await createProject(maker.user.id, { title: 'Nixie clock', cover: '/files/covers/nixie.jpg' }, [tag.id])).publicId;
  plain = (await createProject(maker.user.id, { title: 'Plain board', summary: '' })).publicId;
  doomed = (await createProject(maker.user.id, { title: 'Doomed <board> & co' }, [tag.id])).publicId;
  videoId = newPublicId();
  await getDb()
    .insert(videos)
    .values({ id: videoId, ownerId: maker.user.id, title: 'Soldering', storageKey: 'videos/x.mp4', poster: 'posters/x.jpg', duration: 75.5, width: 1280, height: 720, mime: 'video/mp4', size: 1000, status: 'ready' });
  const [collection] = await getDb().insert(collections).values({ name: 'timekeepers', titleEn: 'Timekeepers', titleZh: '计时' }).returning();
  const [row] = await getDb().select({ id: projects.id }).from(projects).where(eq(projects.publicId, covered));
  await getDb().insert(collectionProjects).values({ collectionId: collection!.id, projectId: row!.id });
  const [picks] = await getDb().insert(memberCollections).values({ ownerId: maker.user.id, slug: 'clock-picks', title: 'Clock <picks>', description: 'Ones I like' }).returning();
  await getDb().insert(memberCollectionProjects).values({ collectionId: picks!.id, projectId: row!.id, position: 0 });
  await getDb().insert(userUrlAliases).values({ url: 'crawl-maker-old', userId: maker.user.id });
});

const origin = () => app.origin();
const local = (url: string) => url.replace(origin(), '');

/** The `content`/`href` of the first tag matching `pattern` in a page's head. */
function attribute(body: string, pattern: RegExp): string | undefined {
  return pattern.exec(body)?.[1]?.replace(/&amp;/g, '&');
}

/** Every JSON-LD block of a page, parsed (a block that does not parse fails the test). */
function jsonLd(body: string): Record<string, unknown>[] {
  return [...body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].flatMap((match) => {
    const value = JSON.parse(match[1]!) as Record<string, unknown> | Record<string, unknown>[];
    return Array.isArray(value) ? value : [value];
  });
}
const ofType = (blocks: Record<string, unknown>[], type: string) => blocks.find((block) => block['@type'] === type) as Record<string, any> | undefined;

describe('robots.txt', () => {
  it('names the sitemap index at the site origin and keeps crawlers out of the private areas, not out of the phone pages', async () => {
    const robots = await app.request('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toContain(`Sitemap: ${origin()}/sitemap.xml`);
    for (const path of ['/api/', '/sso/', '/preview', '/admin']) expect(robots.body).toContain(`\nDisallow: ${path}\n`);
    expect(robots.body).not.toMatch(/^Disallow: \/m\/?$/m);
  });
});

describe('the sitemaps', () => {
  it('are an index of well-formed sitemaps, every address absolute and answering 200, with W3C dates', async () => {
    const index = await app.request('/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    const sitemaps = children(child(parseXml(index.body), 'sitemapindex'), 'sitemap');
    const locations = sitemaps.map((entry) => text(entry, 'loc'));
    expect(locations.map(local).sort()).toEqual(['/sitemaps/collections.xml', '/sitemaps/member-collections-1.xml', '/sitemaps/pages.xml', '/sitemaps/projects-1.xml', '/sitemaps/tags.xml', '/sitemaps/users-1.xml', '/sitemaps/videos-1.xml']);
    for (const entry of sitemaps) expect(text(entry, 'lastmod')).toMatch(W3C_DATETIME);
    const everything: string[] = [];
    for (const location of locations) {
      const sitemap = await app.request(local(location));
      expect(sitemap.status, location).toBe(200);
      const urls = children(child(parseXml(sitemap.body), 'urlset'), 'url');
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.length).toBeLessThanOrEqual(50_000);
      for (const url of urls) {
        expect(text(url, 'loc').startsWith(`${origin()}/`)).toBe(true);
        if (text(url, 'lastmod')) expect(text(url, 'lastmod')).toMatch(W3C_DATETIME);
        everything.push(text(url, 'loc'));
      }
    }
    for (const path of [`/d-${covered}`, `/d-${plain}`, `/user/${maker.user.customUrl}`, '/newest?tag=clocks', '/collection/timekeepers', `/video/player?id=${videoId}`]) {
      expect(everything, path).toContain(origin() + path);
    }
    for (const url of everything.filter((address) => !address.includes('/video/'))) expect((await app.request(local(url))).status, url).toBe(200);
  });

  it('answer 404 for sitemaps that do not exist, and their /m addresses lead to the one sitemap', async () => {
    for (const path of ['/sitemaps/projects-99.xml', '/sitemaps/users-999999.xml', '/sitemaps/videos-999999.xml', '/sitemaps/secrets.xml', '/sitemaps/projects-0.xml', '/sitemaps/projects-1.xml.bak']) expect((await app.request(path)).status, path).toBe(404);
    const mobile = await app.request('/m/sitemaps/projects-1.xml');
    expect(mobile.status).toBe(301);
    expect(mobile.headers.location).toBe('/sitemaps/projects-1.xml');
  });
});

/** An Atom feed's entry links, after checking the feed's required elements. */
function atomLinks(response: AppResponse): string[] {
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
  const feed = child(parseXml(response.body), 'feed');
  for (const name of ['id', 'title', 'updated']) expect(text(feed, name), name).not.toBe('');
  return children(feed, 'entry').map((entry) => {
    for (const name of ['id', 'title', 'updated']) expect(text(entry, name), name).not.toBe('');
    expect(text(child(entry, 'author'), 'name')).toBe('Crawl & Maker');
    return (children(entry, 'link').find((link) => (link['@rel'] as unknown) === 'alternate')!['@href'] as unknown as string).replace(origin(), '');
  });
}

describe('feeds', () => {
  it('are announced in the head of the newest, tag and member pages, desktop and phone, and answer Atom', async () => {
    for (const [page, feed] of [
      ['/newest', '/newest/feed.xml'],
      ['/newest?tag=clocks', '/newest/feed.xml?tag=clocks'],
      ['/recommend?tag=clocks', '/newest/feed.xml?tag=clocks'],
      [`/user/${maker.user.customUrl}`, `/user/${maker.user.customUrl}/feed.xml`],
      [`/user/${maker.user.customUrl}/stars`, `/user/${maker.user.customUrl}/feed.xml`],
    ] as const) {
      for (const prefix of ['', '/m']) {
        const path = prefix ? `/m${page}` : page;
        const response = await app.request(path, { headers: prefix ? { 'user-agent': PHONE_UA } : {} });
        expect(response.status, path).toBe(200);
        const href = attribute(response.body, /<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="([^"]+)"/);
        expect(href, path).toBe(origin() + feed);
        expect(atomLinks(await app.request(feed)).length, feed).toBeGreaterThan(0);
      }
    }
    expect(atomLinks(await app.request('/newest/feed.xml?tag=clocks')).sort()).toEqual([`/d-${covered}`, `/d-${doomed}`].sort());
    const rss = await app.request('/rss.xml');
    expect(children(child(child(parseXml(rss.body), 'rss'), 'channel'), 'item').length).toBe(3);
  });

  it('answer 404 for an unknown tag or member, and lead from a former member address and from /m to the one feed', async () => {
    expect((await app.request('/newest/feed.xml?tag=no-such-tag')).status).toBe(404);
    expect((await app.request(`/newest/feed.xml?tag=${'x'.repeat(200)}`)).status).toBe(404);
    const missing = await app.request('/user/nobody-at-all/feed.xml');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('This user does not exist.');
    const moved = await app.request('/user/crawl-maker-old/feed.xml');
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`/user/${maker.user.customUrl}/feed.xml`);
    for (const [from, to] of [
      ['/m/newest/feed.xml?tag=clocks', '/newest/feed.xml?tag=clocks'],
      [`/m/user/${maker.user.customUrl}/feed.xml`, `/user/${maker.user.customUrl}/feed.xml`],
    ]) {
      const mobile = await app.request(from!, { headers: { 'user-agent': PHONE_UA } });
      expect(mobile.status, from).toBe(301);
      expect(mobile.headers.location, from).toBe(to);
    }
  });
});

describe('structured data and link previews', () => {
  it('give every page kind a canonical address, Open Graph and Twitter cards with an absolute picture, and JSON-LD that parses', async () => {
    const pages = [
      '/',
      '/newest',
      '/newest?tag=clocks',
      '/recommend',
      `/d-${covered}`,
      `/d-${plain}`,
      `/eda/${plain}`,
      `/user/${maker.user.customUrl}`,
      `/user/${maker.user.customUrl}/stars`,
      `/user/${maker.user.customUrl}/video`,
      `/user/${maker.user.customUrl}/profile`,
      '/collection/timekeepers',
      `/user/${maker.user.customUrl}/collections`,
      `/user/${maker.user.customUrl}/collections/clock-picks`,
      '/search?q=clock',
      '/donation-list',
      `/video/player?id=${videoId}`,
      '/sso/login',
      '/no-such-page',
    ];
    for (const path of pages) {
      const response = await app.request(path);
      expect([200, 404], path).toContain(response.status);
      const canonical = attribute(response.body, /<link rel="canonical" href="([^"]+)"/);
      expect(canonical, path).toBe(origin() + path);
      for (const property of ['og:title', 'og:url', 'og:type', 'og:image']) expect(attribute(response.body, new RegExp(`<meta property="${property}" content="([^"]+)"`)), `${path} ${property}`).toBeTruthy();
      expect(attribute(response.body, /<meta property="og:image" content="([^"]+)"/)!.startsWith(`${origin()}/`), path).toBe(true);
      expect(attribute(response.body, /<meta name="twitter:card" content="([^"]+)"/), path).toMatch(/^summary(_large_image)?$/);
      jsonLd(response.body);
    }
    // A phone page is the same page: its canonical address is the desktop one.
    const mobile = await app.request(`/m/d-${covered}?intent=star`, { headers: { 'user-agent': PHONE_UA } });
    expect(attribute(mobile.body, /<link rel="canonical" href="([^"]+)"/)).toBe(`${origin()}/d-${covered}`);
    // The site's picture when a page has none, the cover when it has one; and it is served.
    const plainPage = await app.request(`/d-${plain}`);
    expect(attribute(plainPage.body, /<meta property="og:image" content="([^"]+)"/)).toBe(`${origin()}/og-default.png`);
    const image = await app.request('/og-default.png');
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const coveredPage = await app.request(`/d-${covered}`);
    expect(attribute(coveredPage.body, /<meta property="og:image" content="([^"]+)"/)).toBe(`${origin()}/files/covers/nixie.jpg`);
  });

  it('describe a project as a CreativeWork, a member as a ProfilePage, lists with breadcrumbs and items, a video as a VideoObject', async () => {
    const project = ofType(jsonLd((await app.request(`/d-${covered}`)).body), 'CreativeWork')!;
    expect(project).toMatchObject({ name: 'Nixie clock', url: `${origin()}/d-${covered}`, image: `${origin()}/files/covers/nixie.jpg`, license: 'https://spdx.org/licenses/CERN-OHL-S-2.0.html', keywords: 'Clocks' });
    expect(project.author).toEqual({ '@type': 'Person', name: 'Crawl & Maker', url: `${origin()}/user/${maker.user.customUrl}` });
    expect(project.datePublished).toMatch(W3C_DATETIME);
    expect(project.dateModified).toMatch(W3C_DATETIME);

    const member = ofType(jsonLd((await app.request(`/m/user/${maker.user.customUrl}`, { headers: { 'user-agent': PHONE_UA } })).body), 'ProfilePage')!;
    expect(member.mainEntity).toMatchObject({ '@type': 'Person', name: 'Crawl & Maker', url: `${origin()}/user/${maker.user.customUrl}`, description: 'Builds <clocks>', sameAs: ['https://maker.example'] });

    const tagPage = jsonLd((await app.request('/newest?tag=clocks')).body);
    expect(ofType(tagPage, 'BreadcrumbList')!.itemListElement.map((step: { item: string }) => local(step.item))).toEqual(['/', '/newest', '/newest?tag=clocks']);
    const list = ofType(tagPage, 'CollectionPage')!.mainEntity;
    expect(list['@type']).toBe('ItemList');
    expect(list.itemListElement.map((item: { url: string; position: number }) => [item.position, local(item.url)])).toEqual([
      [1, `/d-${doomed}`],
      [2, `/d-${covered}`],
    ]);
    const collection = jsonLd((await app.request('/collection/timekeepers')).body);
    expect(ofType(collection, 'BreadcrumbList')!.itemListElement).toHaveLength(2);
    expect(ofType(collection, 'CollectionPage')!.mainEntity.itemListElement[0].url).toBe(`${origin()}/d-${covered}`);

    // A member's collection: its own title and picture in link previews, its projects and its trail in JSON-LD.
    const picksPage = await app.request(`/user/${maker.user.customUrl}/collections/clock-picks`);
    expect(attribute(picksPage.body, /<meta property="og:title" content="([^"]+)"/)).toBe('Clock <picks> · Crawl & Maker');
    expect(attribute(picksPage.body, /<meta property="og:image" content="([^"]+)"/)).toBe(`${origin()}/files/covers/nixie.jpg`);
    const picks = jsonLd(picksPage.body);
    expect(ofType(picks, 'CollectionPage')).toMatchObject({ name: 'Clock <picks>', description: 'Ones I like', author: { '@type': 'Person', name: 'Crawl & Maker' } });
    expect(ofType(picks, 'CollectionPage')!.mainEntity.itemListElement[0].url).toBe(`${origin()}/d-${covered}`);
    expect(ofType(picks, 'BreadcrumbList')!.itemListElement.map((step: { item: string }) => local(step.item))).toEqual([
      `/user/${maker.user.customUrl}`,
      `/user/${maker.user.customUrl}/collections`,
      `/user/${maker.user.customUrl}/collections/clock-picks`,
    ]);

    const video = ofType(jsonLd((await app.request(`/video/player?id=${videoId}`)).body), 'VideoObject')!;
    expect(video).toMatchObject({ name: 'Soldering', thumbnailUrl: [`${origin()}/files/posters/x.jpg`], duration: 'PT1M16S' });
    expect(video.uploadDate).toMatch(W3C_DATETIME);
    // Its file's address is signed and expires: not given to crawlers as the video's address.
    expect(video.contentUrl).toBeUndefined();
  });
});

describe('a deleted project', () => {
  it('leaves the cached sitemap and feeds at once', async () => {
    const addresses = ['/sitemaps/projects-1.xml', '/newest/feed.xml', '/newest/feed.xml?tag=clocks', `/user/${maker.user.customUrl}/feed.xml`, '/rss.xml'];
    for (const path of addresses) {
      await app.request(path);
      const cached = await app.request(path, { headers: { 'user-agent': GOOGLEBOT_UA } });
      await app.request(path, { headers: { 'user-agent': GOOGLEBOT_UA } });
      const again = await app.request(path, { headers: { 'user-agent': GOOGLEBOT_UA } });
      expect(again.headers['x-page-cache'], path).toBe('hit');
      expect(again.body, path).toContain(`/d-${doomed}`);
      expect(cached.headers['cache-control'], path).toMatch(/^public, max-age=0, s-maxage=30/);
    }
    await deleteProject(maker.user.id, doomed);
    for (const path of addresses) {
      const after = await app.request(path, { headers: { 'user-agent': GOOGLEBOT_UA } });
      expect(after.status, path).toBe(200);
      expect(after.headers['x-page-cache'], path).toBe('miss');
      expect(after.body, path).not.toContain(`/d-${doomed}`);
      parseXml(after.body);
    }
  });
});
