import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { activities, projects, videos } from '../../src/server/db/schema/index.ts';
import { logPath } from '../../src/lib/logs.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';

/**
 * Moderation of what members post besides projects, comments and videos: build logs, makes and
 * members' collections are reported, hidden and restored like the rest, against the built server
 * with its page cache on; and a suspension that hid a member's posts is undone by restoring them.
 */
const app = useApp({ pageCache: {} });

type Member = Awaited<ReturnType<typeof createUser>>;
let reader: Member;
let moderator: Member;

const post = (name: string, body: unknown, token?: string) => app.request(`/api/${name}`, { method: 'POST', body, ...(token ? { token } : {}) });
const result = <T = Record<string, unknown>>(response: AppResponse) => {
  expect(response.status, response.body).toBe(200);
  return response.json<{ result: T }>().result;
};
const errorKey = (response: AppResponse) => response.json<{ errorKey: string }>().errorKey;

beforeAll(async () => {
  reader = await createUser({ nickname: 'Careful Reader' });
  moderator = await createUser({ nickname: 'Mod Mo', role: 'moderator' });
});

/** A member's build log on their project, a make of another member's project, and a public collection: what `poster` posted. */
async function postsOf(poster: Member, host: Member) {
  const own = await createProject(poster.user.id, { title: `${poster.user.nickname} board` });
  const log = result<{ n: number }>(await post('log/save', { id: own.publicId, title: 'Week one: reflow', content: 'Buy cheap parts at example.test' }, poster.token));
  const hosted = await createProject(host.user.id, { title: `Host board of ${poster.user.nickname}` });
  const photo = await createUpload(poster.user.id, { purpose: 'image', name: 'build.webp', mime: 'image/webp', data: 'webp' });
  const make = result<{ id: number }>(await post('make/submit', { id: hosted.publicId, images: [photo.id], content: 'Mine works, buy mine at example.test' }, poster.token));
  const collection = result<{ slug: string }>(await post('collection/save', { title: 'Spam picks', public: true }, poster.token));
  result(await post('collection/add', { slug: collection.slug, id: own.publicId }, poster.token));
  return {
    own,
    hosted,
    log: { id: `${own.publicId}/${log.n}`, path: logPath(own.publicId, log.n) },
    make: { id: make.id, path: `/d-${hosted.publicId}/makes` },
    collection: { id: `${poster.user.customUrl}/${collection.slug}`, path: `/user/${poster.user.customUrl}/collections/${collection.slug}` },
  };
}

const counts = async (id: number) => (await getDb().select({ logCount: projects.logCount, makeCount: projects.makeCount }).from(projects).where(eq(projects.id, id)))[0];

/** What a viewer (`token`, or a guest) sees of each post: its page or list answers. */
async function seen(poster: Member, posts: Awaited<ReturnType<typeof postsOf>>, token?: string) {
  const as = token ? { token } : {};
  const logPage = await app.request(posts.log.path, as);
  // A suspension hides the log's project too: its log list is then not there at all.
  const logList = await post('log/list', { id: posts.own.publicId, page: 1, pageSize: 10 }, token);
  const logs = logList.status === 404 ? { list: [] } : result<{ list: { title: string }[] }>(logList);
  const makes = result<{ list: { id: number; hidden: boolean }[] }>(await post('make/list', { id: posts.hosted.publicId, page: 1, pageSize: 10 }, token));
  const makesTab = await app.request(posts.make.path, as);
  const collectionPage = await app.request(posts.collection.path, as);
  const collectionsTab = await app.request(`/user/${poster.user.customUrl}/collections`, as);
  return {
    logPage: logPage.status,
    logListed: logs.list.some((log) => log.title === 'Week one: reflow'),
    makeListed: makes.list.some((make) => make.id === posts.make.id),
    makeOnTab: makesTab.body.includes(`id="make-${posts.make.id}"`),
    collectionPage: collectionPage.status,
    collectionListed: collectionsTab.body.includes(posts.collection.path),
  };
}

const everywhere = { logPage: 200, logListed: true, makeListed: true, makeOnTab: true, collectionPage: 200, collectionListed: true };
const nowhere = { logPage: 404, logListed: false, makeListed: false, makeOnTab: false, collectionPage: 404, collectionListed: false };

describe('build logs, makes and collections', () => {
  it('are reported by the id their pages name them by; a missing one is its kind’s 404; a repeat is merged', async () => {
    const poster = await createUser({ nickname: 'Poster Pat' });
    const host = await createUser({ nickname: 'Host Hal' });
    const posts = await postsOf(poster, host);
    for (const [kind, id] of [['log', posts.log.id], ['make', posts.make.id], ['collection', posts.collection.id]] as const) {
      expect(result(await post('report/submit', { kind, id, reason: 'spam' }, reader.token))).toMatchObject({ merged: false });
      expect(result(await post('report/submit', { kind, id, reason: 'abuse', note: 'again' }, reader.token))).toMatchObject({ merged: true });
    }
    for (const [kind, id, key] of [
      ['log', `${posts.own.publicId}/99`, 'log_not_found'],
      ['log', 'no-slash', 'log_not_found'],
      ['make', 999999, 'make_not_found'],
      ['collection', `${poster.user.customUrl}/nothing-here`, 'collection_not_found'],
    ] as const) {
      const missing = await post('report/submit', { kind, id, reason: 'spam' }, reader.token);
      expect(missing.status, `${kind} ${id}`).toBe(404);
      expect(errorKey(missing)).toBe(key);
    }
    // A private collection is not there for anyone but its owner, so it cannot be reported.
    const hidden = result<{ slug: string }>(await post('collection/save', { title: 'Private picks', public: false }, poster.token));
    const privately = await post('report/submit', { kind: 'collection', id: `${poster.user.customUrl}/${hidden.slug}`, reason: 'spam' }, reader.token);
    expect(errorKey(privately)).toBe('collection_not_found');

    // The queue shows each with where it is and who posted it.
    const queue = result<{ list: { kind: string; target: { ref: string; href: string; author: { url: string } } | null }[] }>(
      await post('admin/report/list', { page: 1, pageSize: 50 }, moderator.token),
    );
    const target = (kind: string) => queue.list.find((item) => item.kind === kind && item.target?.author.url === poster.user.customUrl)?.target;
    expect(target('log')).toMatchObject({ ref: posts.log.id, href: posts.log.path, title: 'Week one: reflow' });
    expect(target('make')).toMatchObject({ ref: String(posts.make.id), href: `${posts.make.path}#make-${posts.make.id}` });
    expect(target('collection')).toMatchObject({ ref: posts.collection.id, href: posts.collection.path, title: 'Spam picks' });
  });

  it('hidden, leave every public place and count, stay for their author with a notice and for staff, and come back on restore', async () => {
    const poster = await createUser({ nickname: 'Poster Quinn' });
    const host = await createUser({ nickname: 'Host Ivy' });
    const posts = await postsOf(poster, host);
    // Guests' pages cached before the hiding must not keep showing it.
    expect(await seen(poster, posts)).toEqual(everywhere);
    expect(await counts(posts.own.id)).toMatchObject({ logCount: 1 });
    expect(await counts(posts.hosted.id)).toMatchObject({ makeCount: 1 });
    const activityIds = (await getDb().select({ id: activities.id, kind: activities.kind }).from(activities).where(eq(activities.actorId, poster.user.id)))
      .filter((row) => row.kind === 'log' || row.kind === 'make')
      .map((row) => row.id);
    expect(activityIds).toHaveLength(2);

    for (const [kind, id] of [['log', posts.log.id], ['make', posts.make.id], ['collection', posts.collection.id]] as const) {
      const report = result<{ id: number }>(await post('report/submit', { kind, id, reason: 'spam' }, reader.token));
      expect(result(await post('admin/report/resolve', { id: report.id, action: 'hide' }, moderator.token))).toMatchObject({ hidden: 1 });
    }
    expect(await seen(poster, posts)).toEqual(nowhere);
    expect(await seen(poster, posts, reader.token)).toEqual(nowhere);
    expect(await counts(posts.own.id)).toMatchObject({ logCount: 0 });
    expect(await counts(posts.hosted.id)).toMatchObject({ makeCount: 0 });
    // Followers' feeds forget the hidden log and make (their entries go with the activities).
    expect((await getDb().select().from(activities).where(eq(activities.actorId, poster.user.id))).filter((row) => activityIds.includes(row.id))).toEqual([]);

    // Their author and staff still see them; the author is told why others do not.
    expect(await seen(poster, posts, poster.token)).toEqual(everywhere);
    expect(await seen(poster, posts, moderator.token)).toMatchObject({ logPage: 200, logListed: true, makeListed: true, collectionPage: 200 });
    expect((await app.request(posts.log.path, { token: poster.token })).body).toContain('Staff hid this log after a report');
    expect((await app.request(posts.make.path, { token: poster.token })).body).toContain('Staff hid this make after a report');
    expect((await app.request(posts.collection.path, { token: poster.token })).body).toContain('Staff hid this collection after a report');
    expect((await app.request(`/m${posts.collection.path}`, { token: poster.token, headers: { 'accept-language': 'zh-CN' } })).body).toContain('管理员根据举报隐藏了此收藏夹');

    for (const [kind, id] of [['log', posts.log.id], ['make', posts.make.id], ['collection', posts.collection.id]] as const) {
      expect(result(await post('admin/content/restore', { kind, id }, moderator.token))).toMatchObject({ restored: true });
      expect(result(await post('admin/content/restore', { kind, id }, moderator.token))).toMatchObject({ restored: false });
    }
    expect(await seen(poster, posts)).toEqual(everywhere);
    expect(await counts(posts.own.id)).toMatchObject({ logCount: 1 });
    expect(await counts(posts.hosted.id)).toMatchObject({ makeCount: 1 });
  });

  it('show a Report control to other members, a sign-in link to guests, and none to their author', async () => {
    const poster = await createUser({ nickname: 'Poster Ray' });
    const host = await createUser({ nickname: 'Host Sol' });
    const posts = await postsOf(poster, host);
    // The part of each page that shows the post (the page around it may offer to report the
    // project or the profile it belongs to).
    const places = [
      { path: posts.log.path, from: 'class="card panel log-body"', to: '</section>' },
      { path: posts.make.path, from: `id="make-${posts.make.id}"`, to: '</li>' },
      { path: posts.collection.path, from: 'class="card member-collection-hero"', to: '</header>' },
    ];
    const part = (body: string, place: (typeof places)[number]) => {
      const start = body.indexOf(place.from);
      expect(start, place.path).toBeGreaterThan(0);
      return body.slice(start, body.indexOf(place.to, start));
    };
    for (const place of places) {
      expect(part((await app.request(place.path)).body, place), place.path).toMatch(/<a class="report-link[^"]*" href="[^"]*sso[^"]*"[^>]*>Report<\/a>/);
      expect(part((await app.request(place.path, { token: reader.token })).body, place), place.path).toMatch(/<astro-island[^>]*component-url="[^"]*ReportButton[^"]*"/);
      const own = part((await app.request(place.path, { token: poster.token })).body, place);
      expect(own, place.path).not.toContain('ReportButton');
      expect(own, place.path).not.toContain('class="report-link');
    }
    // The project's owner may report a make posted on their project.
    expect(part((await app.request(posts.make.path, { token: host.token })).body, places[1]!)).toContain('ReportButton');
  });
});

describe('restoring a suspended member', () => {
  it('brings back everything the suspension hid, and nothing staff hid one by one before it', async () => {
    const poster = await createUser({ nickname: 'Suspended Sam' });
    const host = await createUser({ nickname: 'Host Tam' });
    const posts = await postsOf(poster, host);
    const comment = result<{ id: number }>(await post('comment/submit', { id: posts.hosted.publicId, content: 'Cheap parts at example.test' }, poster.token));
    const [video] = await getDb()
      .insert(videos)
      .values({ id: newPublicId(), ownerId: poster.user.id, title: 'Spam clip', mime: 'video/mp4', size: 10, status: 'ready', storageKey: 'videos/spam.mp4' })
      .returning();
    const older = await createProject(poster.user.id, { title: 'Hidden before' });
    const first = result<{ id: number }>(await post('report/submit', { kind: 'project', id: older.publicId, reason: 'licence' }, reader.token));
    result(await post('admin/report/resolve', { id: first.id, action: 'hide' }, moderator.token));

    const report = result<{ id: number }>(await post('report/submit', { kind: 'make', id: posts.make.id, reason: 'spam' }, reader.token));
    const done = result<{ hidden: number }>(await post('admin/report/resolve', { id: report.id, action: 'suspend', hideContent: true }, moderator.token));
    // Their project, comment, video, log, make and collection.
    expect(done.hidden).toBe(6);
    expect(await seen(poster, posts)).toEqual(nowhere);
    expect((await app.request(`/d-${posts.own.publicId}`)).status).toBe(404);
    expect((await app.request(`/video/player?id=${video!.id}`)).status).toBe(404);
    expect((await app.request(`/d-${posts.hosted.publicId}`)).body).not.toContain('Cheap parts at example.test');

    // Suspended again through another report: what the first suspension hid stays tied to it.
    const again = result<{ id: number }>(await post('report/submit', { kind: 'user', id: poster.user.customUrl, reason: 'spam' }, reader.token));
    result(await post('admin/report/resolve', { id: again.id, action: 'suspend', hideContent: true }, moderator.token));

    expect(result(await post('admin/content/restore', { kind: 'user', id: poster.user.customUrl }, moderator.token))).toMatchObject({ restored: true });
    expect(await seen(poster, posts)).toEqual(everywhere);
    expect((await app.request(`/d-${posts.own.publicId}`)).status).toBe(200);
    expect((await app.request(`/video/player?id=${video!.id}`)).status).toBe(200);
    expect((await app.request(`/d-${posts.hosted.publicId}`)).body).toContain('Cheap parts at example.test');
    expect(result<{ list: { id: number }[] }>(await post('comment/list', { id: posts.hosted.publicId, page: 1, pageSize: 20 })).list.map((item) => item.id)).toContain(comment.id);
    // Hidden after its own report, before the suspension: still hidden.
    expect((await app.request(`/d-${older.publicId}`)).status).toBe(404);
  });
});
