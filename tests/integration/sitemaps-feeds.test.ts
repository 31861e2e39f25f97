import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { collectionProjects, collections, memberCollections, projectLogs, projects, users, userUrlAliases, videos } from '../../src/server/db/schema/index.ts';
import { listFeed } from '../../src/server/services/community/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { buildSitemap, buildSitemapIndex, parseSitemapName, SITEMAP_PAGE_SIZE } from '../../src/server/services/site/index.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { child, children, parseXml, text, W3C_DATETIME } from '../helpers/xml.ts';
import { renderAtomFeed, renderRssFeed, type FeedHead } from '../../src/server/lib/syndication.ts';

useTestDatabase();

const ORIGIN = 'https://copperhub.example';
/** A page size small enough that the test's few rows fill several sitemap pages. */
const PAGE_SIZE = 2;

let maker: Awaited<ReturnType<typeof createUser>>;
let filmer: Awaited<ReturnType<typeof createUser>>;
let starrer: Awaited<ReturnType<typeof createUser>>;
let uploader: Awaited<ReturnType<typeof createUser>>;
const published: { publicId: string; updatedAt: Date }[] = [];
let deletedId = '';
let readyVideo = '';
let processingVideo = '';

beforeAll(async () => {
  maker = await createUser({ nickname: 'Maker <&> "Quotes"' });
  filmer = await createUser({ nickname: 'Filmer' });
  starrer = await createUser({ nickname: 'Only stars' });
  uploader = await createUser({ nickname: 'Still processing' });
  const parent = await createTag('sensors', 'Sensors', '传感器');
  const child = await createTag('humidity', 'Humidity', '湿度', parent.id);
  const orphan = await createTag('abandoned', 'Abandoned', '废弃');
  for (let index = 0; index < 5; index += 1) {
    const project = await createProject(
      maker.user.id,
      { title: index === 0 ? 'Title with <tags> & "quotes" \u0001and a control' : `Board ${index}`, updatedAt: new Date(Date.UTC(2026, 0, 1 + index)), publishedAt: new Date(Date.UTC(2025, 11, 1 + index)) },
      index === 0 ? [child.id] : [],
    );
    published.push({ publicId: project.publicId, updatedAt: project.updatedAt });
  }
  const deleted = await createProject(maker.user.id, { title: 'Gone', status: 'deleted', deletedAt: new Date() }, [orphan.id]);
  deletedId = deleted.publicId;
  readyVideo = newPublicId();
  processingVideo = newPublicId();
  await getDb()
    .insert(videos)
    .values([
      { id: readyVideo, ownerId: filmer.user.id, title: 'Reflow', storageKey: 'videos/a.mp4', poster: 'posters/a.jpg', duration: 12.5, mime: 'video/mp4', size: 1000, status: 'ready' },
      { id: processingVideo, ownerId: uploader.user.id, title: 'Pending', mime: 'video/mp4', size: 1000, status: 'processing' },
    ]);
  // Build logs: one to read on a published project, one deleted, one on the deleted project.
  const internalId = async (publicId: string) => (await getDb().select({ id: projects.id }).from(projects).where(eq(projects.publicId, publicId)))[0]!.id;
  const log = (projectId: number, n: number, extra: Partial<typeof projectLogs.$inferInsert> = {}) => ({ projectId, n, authorId: maker.user.id, title: `Log ${n}`, body: 'Notes', bodyHtml: '<p>Notes</p>', ...extra });
  await getDb()
    .insert(projectLogs)
    .values([log(await internalId(published[0]!.publicId), 1), log(await internalId(published[0]!.publicId), 2, { deletedAt: new Date() }), log(deleted.id, 1)]);
  // Members' collections: a public one and a private one.
  await getDb()
    .insert(memberCollections)
    .values([
      { ownerId: maker.user.id, slug: 'bench-tools', title: 'Bench tools' },
      { ownerId: maker.user.id, slug: 'secret-list', title: 'Secret list', isPublic: false },
    ]);
  const [collection] = await getDb().insert(collections).values({ name: 'best-of', titleEn: 'Best of', titleZh: '精选' }).returning();
  await getDb().insert(collectionProjects).values({ collectionId: collection!.id, projectId: (await getDb().select({ id: projects.id }).from(projects).where(eq(projects.publicId, published[1]!.publicId)))[0]!.id });
});

/** Every `<loc>` and `<lastmod>` of a urlset, after checking it is well-formed and within bounds. */
function readUrlset(xml: string, pageSize: number): { loc: string; lastmod: string }[] {
  const urlset = child(parseXml(xml), 'urlset');
  expect(urlset['@xmlns']).toEqual('http://www.sitemaps.org/schemas/sitemap/0.9');
  const urls = children(urlset, 'url').map((url) => ({ loc: text(url, 'loc'), lastmod: text(url, 'lastmod') }));
  expect(urls.length).toBeLessThanOrEqual(pageSize);
  for (const url of urls) {
    expect(url.loc.startsWith(`${ORIGIN}/`), url.loc).toBe(true);
    if (url.lastmod) expect(url.lastmod).toMatch(W3C_DATETIME);
  }
  return urls;
}

describe('the sitemap index', () => {
  it('lists every sitemap with something public, paged by the page size, each with the newest lastmod of its addresses', async () => {
    const index = child(parseXml(await buildSitemapIndex(ORIGIN, PAGE_SIZE)), 'sitemapindex');
    const entries = children(index, 'sitemap').map((entry) => ({ loc: text(entry, 'loc'), lastmod: text(entry, 'lastmod') }));
    const names = entries.map((entry) => entry.loc.replace(`${ORIGIN}/sitemaps/`, '').replace(/\.xml$/, ''));
    expect(names).toContain('pages');
    expect(names).toContain('tags');
    expect(names).toContain('collections');
    expect(names).toContain('users-1');
    expect(names).toContain('videos-1');
    expect(names).toContain('logs-1');
    expect(names).toContain('member-collections-1');
    const projectPages = names.filter((name) => name.startsWith('projects-'));
    // Five published projects (and a deleted one) at two per page.
    expect(projectPages.length).toBeGreaterThanOrEqual(3);

    const seen: string[] = [];
    for (const entry of entries) {
      expect(entry.lastmod).toMatch(W3C_DATETIME);
      const name = parseSitemapName(entry.loc.replace(`${ORIGIN}/sitemaps/`, '').replace(/\.xml$/, ''))!;
      expect(name, entry.loc).not.toBeNull();
      // Projects, members, videos, build logs and members' collections are paged; the others are one file each.
      const paged = 'page' in name;
      const urls = readUrlset((await buildSitemap(ORIGIN, name, PAGE_SIZE))!, paged ? PAGE_SIZE : SITEMAP_PAGE_SIZE);
      expect(urls.length, entry.loc).toBeGreaterThan(0);
      // The index's lastmod is the newest of the sitemap's own (tags and collections: at least that).
      const newest = urls.map((url) => url.lastmod).filter(Boolean).sort().at(-1)!;
      if (paged || name.kind === 'pages') expect(entry.lastmod, entry.loc).toBe(newest);
      else expect(entry.lastmod >= newest, entry.loc).toBe(true);
      if (name.kind === 'projects') seen.push(...urls.map((url) => url.loc));
    }
    // Every published project exactly once across the pages, the deleted one nowhere.
    expect(seen.sort()).toEqual(published.map((project) => `${ORIGIN}/d-${project.publicId}`).sort());
    expect(seen.join()).not.toContain(deletedId);
  });

  it('answers nothing for a page past the last or a name it does not know', async () => {
    expect(await buildSitemap(ORIGIN, { kind: 'projects', page: 999 }, PAGE_SIZE)).toBeNull();
    expect(parseSitemapName('projects-0')).toBeNull();
    expect(parseSitemapName('projects')).toBeNull();
    expect(parseSitemapName('secrets')).toBeNull();
    expect(parseSitemapName('../sitemap')).toBeNull();
    expect(SITEMAP_PAGE_SIZE).toBe(50_000);
  });

  it('lists the build logs a guest can read and members’ public collections, and nothing else of theirs', async () => {
    const logUrls = readUrlset((await buildSitemap(ORIGIN, { kind: 'logs', page: 1 }))!, SITEMAP_PAGE_SIZE).map((url) => url.loc);
    expect(logUrls).toEqual([`${ORIGIN}/d-${published[0]!.publicId}/log/1`]);
    const collectionUrls = readUrlset((await buildSitemap(ORIGIN, { kind: 'member-collections', page: 1 }))!, SITEMAP_PAGE_SIZE).map((url) => url.loc);
    expect(collectionUrls).toEqual([`${ORIGIN}/user/${maker.user.customUrl}/collections/bench-tools`]);
    expect(parseSitemapName('member-collections-2')).toEqual({ kind: 'member-collections', page: 2 });
  });

  it('lists members with a published project or a ready video, and no one else', async () => {
    const urls = readUrlset((await buildSitemap(ORIGIN, { kind: 'users', page: 1 }, SITEMAP_PAGE_SIZE))!, SITEMAP_PAGE_SIZE).map((url) => url.loc);
    expect(urls).toContain(`${ORIGIN}/user/${maker.user.customUrl}`);
    expect(urls).toContain(`${ORIGIN}/user/${filmer.user.customUrl}`);
    expect(urls).not.toContain(`${ORIGIN}/user/${starrer.user.customUrl}`);
    expect(urls).not.toContain(`${ORIGIN}/user/${uploader.user.customUrl}`);
  });

  it('lists ready videos, tags with published projects (a parent through its child) and collections', async () => {
    const videoUrls = readUrlset((await buildSitemap(ORIGIN, { kind: 'videos', page: 1 }))!, SITEMAP_PAGE_SIZE).map((url) => url.loc);
    expect(videoUrls).toEqual([`${ORIGIN}/video/player?id=${readyVideo}`]);
    const tagUrls = readUrlset((await buildSitemap(ORIGIN, { kind: 'tags' }))!, SITEMAP_PAGE_SIZE).map((url) => url.loc);
    expect(tagUrls.sort()).toEqual([`${ORIGIN}/newest?tag=humidity`, `${ORIGIN}/newest?tag=sensors`]);
    const collectionUrls = readUrlset((await buildSitemap(ORIGIN, { kind: 'collections' }))!, SITEMAP_PAGE_SIZE).map((url) => url.loc);
    expect(collectionUrls).toEqual([`${ORIGIN}/collection/best-of`]);
    const pages = readUrlset((await buildSitemap(ORIGIN, { kind: 'pages' }))!, SITEMAP_PAGE_SIZE).map((url) => url.loc);
    expect(pages).toEqual([`${ORIGIN}/`, `${ORIGIN}/newest`, `${ORIGIN}/recommend`, `${ORIGIN}/donation-list`]);
  });
});

const head = (self: string): FeedHead => ({ self, page: `${ORIGIN}/newest`, title: 'Newest & best', subtitle: 'Projects <new>', locale: 'en-US' });

/** An Atom feed's entries, after checking the elements RFC 4287 requires. */
function readAtom(xml: string) {
  const feed = child(parseXml(xml), 'feed');
  expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
  expect(text(feed, 'id')).toMatch(/^https:\/\//);
  expect(text(feed, 'title')).not.toBe('');
  expect(text(feed, 'updated')).toMatch(W3C_DATETIME);
  expect(children(feed, 'link').some((link) => link['@rel'] === 'self' as never)).toBe(true);
  return children(feed, 'entry').map((entry) => {
    for (const name of ['id', 'title', 'updated', 'published']) expect(text(entry, name), name).not.toBe('');
    expect(text(entry, 'updated')).toMatch(W3C_DATETIME);
    const author = child(entry, 'author');
    expect(text(author, 'name')).not.toBe('');
    expect(text(author, 'uri')).toMatch(/^https:\/\/copperhub\.example\/user\//);
    const alternate = children(entry, 'link').find((link) => (link['@rel'] as unknown) === 'alternate');
    return { id: text(entry, 'id'), title: text(entry, 'title'), link: alternate?.['@href'] as unknown as string, categories: children(entry, 'category').map((category) => category['@term'] as unknown as string) };
  });
}

describe('feeds', () => {
  it('follow the newest published projects, escaped, without the deleted one', async () => {
    const found = await listFeed({ kind: 'newest' }, 'en-US');
    if ('movedTo' in found) throw new Error('unexpected');
    const entries = readAtom(renderAtomFeed(ORIGIN, head(`${ORIGIN}/newest/feed.xml`), found.entries));
    expect(entries.map((entry) => entry.link)).toEqual([...published].reverse().map((project) => `${ORIGIN}/d-${project.publicId}`));
    expect(entries.at(-1)!.title).toBe('Title with <tags> & "quotes" and a control');
    expect(entries.map((entry) => entry.link).join()).not.toContain(deletedId);

    const rss = child(child(parseXml(renderRssFeed(ORIGIN, head(`${ORIGIN}/rss.xml`), found.entries)), 'rss'), 'channel');
    expect(children(rss, 'item').map((item) => text(item, 'link'))).toEqual(entries.map((entry) => entry.link));
    for (const item of children(rss, 'item')) expect(new Date(text(item, 'pubDate')).getTime()).not.toBeNaN();
  });

  it('follow a tag with its children, and a member, whose former address leads to the current one', async () => {
    const tagged = await listFeed({ kind: 'tag', slug: 'sensors' }, 'zh-CN');
    if ('movedTo' in tagged) throw new Error('unexpected');
    expect(tagged.source).toEqual({ kind: 'tag', slug: 'sensors', name: '传感器' });
    const entries = readAtom(renderAtomFeed(ORIGIN, head(`${ORIGIN}/newest/feed.xml?tag=sensors`), tagged.entries));
    expect(entries.map((entry) => entry.link)).toEqual([`${ORIGIN}/d-${published[0]!.publicId}`]);
    expect(entries[0]!.categories).toEqual(['humidity']);

    const empty = await listFeed({ kind: 'tag', slug: 'abandoned' }, 'en-US');
    if ('movedTo' in empty) throw new Error('unexpected');
    expect(readAtom(renderAtomFeed(ORIGIN, head(`${ORIGIN}/newest/feed.xml?tag=abandoned`), empty.entries))).toEqual([]);
    await expect(listFeed({ kind: 'tag', slug: 'no-such-tag' }, 'en-US')).rejects.toMatchObject({ errorKey: 'tag_not_found' });

    const member = await listFeed({ kind: 'member', url: maker.user.customUrl }, 'en-US');
    if ('movedTo' in member) throw new Error('unexpected');
    expect(member.entries).toHaveLength(5);
    expect(member.source).toMatchObject({ kind: 'member', nickname: 'Maker <&> "Quotes"' });
    expect((await listFeed({ kind: 'member', url: filmer.user.customUrl }, 'en-US')) as { entries: unknown[] }).toMatchObject({ entries: [] });

    await getDb().insert(userUrlAliases).values({ url: 'old-maker-address', userId: maker.user.id });
    expect(await listFeed({ kind: 'member', url: 'old-maker-address' }, 'en-US')).toEqual({ movedTo: maker.user.customUrl });
    await expect(listFeed({ kind: 'member', url: 'nobody-here' }, 'en-US')).rejects.toMatchObject({ errorKey: 'user_not_found' });
    // The member still exists after the alias: nothing else changed.
    expect((await getDb().select().from(users).where(eq(users.id, maker.user.id))).length).toBe(1);
  });
});
