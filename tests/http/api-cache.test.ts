import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, queryCount } from '../../src/server/db/client.ts';
import { invalidateSession } from '../../src/server/services/accounts/index.ts';
import { comments, users } from '../../src/server/db/schema/index.ts';
import { eq } from 'drizzle-orm';
import { likeComment, submitComment } from '../../src/server/services/community/index.ts';
import { setProjectStar } from '../../src/server/services/projects/index.ts';
import { importDonationsCsv } from '../../src/server/services/site/index.ts';
import { OPERATOR, renameTag, saveBanner } from '../../src/server/services/staff/index.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { publishWithFiles } from '../helpers/publish.ts';

// The site with its guest page cache as in production: public API reads share it.
const app = useApp({ pageCache: {} });

let owner: Awaited<ReturnType<typeof createUser>>;
let reader: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

beforeAll(async () => {
  owner = await createUser({ nickname: 'Api Owner' });
  reader = await createUser({ nickname: 'Api Reader' });
  const tag = await createTag('power', 'Power', '电源');
  projectId = (await createProject(owner.user.id, { title: 'Cached API clock' }, [tag.id])).publicId;
});

/** The headers an answer is made of, less those every answer has its own of. */
function headersOf(response: AppResponse): Record<string, unknown> {
  const { date: _date, 'x-request-id': _id, 'x-page-cache': _cache, ...rest } = response.headers;
  return rest;
}

/** Every public read, as a guest's islands call it. */
const reads = () => [
  `/api/project/list?sort=newest&page=1&pageSize=20`,
  `/api/project/search?q=clock`,
  `/api/comment/list?id=${projectId}`,
  `/api/tag/list`,
  `/api/tag/detail?slug=power`,
  `/api/tag/getProjectList?slug=power`,
  `/api/user/getAppointUserProjectList?url=${owner.user.customUrl}`,
  `/api/donate/list`,
  `/api/donate/getIndexDonateScroll`,
  `/api/banner/list`,
];

describe('public API reads', () => {
  it('are computed once, then answered from the page cache with the very same bytes and headers', async () => {
    for (const path of reads()) {
      const first = await app.request(path);
      expect(first.status, path).toBe(200);
      expect(first.json().retCode, path).toBe(0);
      expect(first.headers['x-page-cache'], path).toBe('miss');
      const second = await app.request(path);
      expect(second.headers['x-page-cache'], path).toBe('hit');
      expect(second.body, path).toBe(first.body);
      expect(headersOf(second), path).toEqual(headersOf(first));
      expect(second.headers['x-page-tags'], path).toBeUndefined();
    }
  });

  it('by POST share one answer whatever the order of the body’s keys, and by language apart', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) => app.request('/api/project/list', { method: 'POST', body, headers });
    const first = await post({ sort: 'newest', page: 1, pageSize: 7 });
    expect(first.json().retCode).toBe(0);
    const reordered = await post({ pageSize: 7, page: 1, sort: 'newest' });
    expect(reordered.headers['x-page-cache']).toBe('hit');
    expect(reordered.body).toBe(first.body);
    // Tag names are localized: a Chinese reader never gets the English answer.
    const chinese = await app.request('/api/tag/detail?slug=power', { headers: { 'accept-language': 'zh-CN' } });
    type Tag = { result: { name: string } };
    expect(chinese.json<Tag>().result.name).toBe('电源');
    expect((await app.request('/api/tag/detail?slug=power')).json<Tag>().result.name).toBe('Power');
  });

  it('keep no error, and a body that is not JSON is answered by the endpoint as before', async () => {
    for (let i = 0; i < 2; i += 1) {
      const missing = await app.request('/api/tag/detail?slug=no-such-tag');
      expect(missing.json().errorKey).toBe('tag_not_found');
      expect(missing.headers['x-page-cache']).not.toBe('hit');
    }
    const broken = await app.request('/api/project/list', { method: 'POST', body: '{"page":', headers: { 'content-type': 'application/json' } });
    expect(broken.json().errorKey).toBe('bad_request');
    expect(broken.headers['x-page-cache']).toBeUndefined();
    // A body past what a list query needs reaches the endpoint whole, and is never kept.
    const large = { sort: 'newest', page: 1, pageSize: 5, note: 'x'.repeat(40_000) };
    const direct = await app.request('/api/project/list', { method: 'POST', body: large });
    expect(direct.json().retCode).toBe(0);
    expect(direct.headers['x-page-cache']).toBeUndefined();
  });
});

describe('a write is seen by the next read', () => {
  /** Reads `path` until it is kept, as a guest, and answers what the next read returns after `write`. */
  async function afterWrite(path: string, write: () => Promise<unknown>): Promise<AppResponse> {
    await app.request(path);
    expect((await app.request(path)).headers['x-page-cache'], path).toBe('hit');
    await write();
    const next = await app.request(path);
    expect(next.headers['x-page-cache'], path).toBe('miss');
    return next;
  }

  it('a new comment, in the comments and in the cards’ counts', async () => {
    const listPath = '/api/project/list?sort=newest&pageSize=50';
    await app.request(listPath);
    const comments = await afterWrite(`/api/comment/list?id=${projectId}`, () => submitComment(reader.user.id, projectId, 'Keeps time to a second a day'));
    expect(comments.body).toContain('Keeps time to a second a day');
    const list = await app.request(listPath);
    expect(list.headers['x-page-cache']).toBe('miss');
    const card = list.json<{ result: { list: { id: string; counts: { comments: number } }[] } }>().result.list.find((item) => item.id === projectId);
    expect(card?.counts.comments).toBeGreaterThan(0);
  });

  it('a star, on every list showing the card', async () => {
    const read = () => app.request(`/api/user/getAppointUserProjectList?url=${owner.user.customUrl}`);
    const starsOf = (response: AppResponse) => response.json<{ result: { list: { id: string; counts: { stars: number } }[] } }>().result.list.find((item) => item.id === projectId)?.counts.stars;
    const before = starsOf(await read());
    const after = await afterWrite(`/api/user/getAppointUserProjectList?url=${owner.user.customUrl}`, () => setProjectStar(reader.user.id, projectId, true));
    expect(starsOf(after)).toBe((before ?? 0) + 1);
  });

  it('publishing a project, on the newest list and its tag', async () => {
    let published = '';
    const newest = await afterWrite('/api/project/list?sort=newest', async () => (published = await publishWithFiles(owner.user.id, [], 'Freshly published tracer')));
    expect(newest.body).toContain('Freshly published tracer');
    expect(newest.body).toContain(published);
  });

  it('a staff banner change', async () => {
    const image = (await createUpload(owner.user.id, { purpose: 'cover', name: 'b.webp', mime: 'image/webp', data: 'webp' })).url;
    const banners = await afterWrite('/api/banner/list', () => saveBanner(OPERATOR, { image, link: '/newest', titleEn: 'Reflow weekend', titleZh: '回流焊周末', sort: 0, startsAt: null, endsAt: null }));
    expect(banners.body).toContain('Reflow weekend');
  });

  it('a tag rename, in the tree and the tag', async () => {
    await app.request('/api/tag/list');
    // The tag's list page, whose tag rows the server remembers between renders until a purge.
    await app.request('/newest?tag=power');
    const detail = await afterWrite('/api/tag/detail?slug=power', () => renameTag(OPERATOR, { slug: 'power', nameEn: 'Power supplies', nameZh: '电源' }));
    expect(detail.body).toContain('Power supplies');
    const tree = await app.request('/api/tag/list');
    expect(tree.headers['x-page-cache']).toBe('miss');
    expect(tree.body).toContain('Power supplies');
    const page = await app.request('/newest?tag=power&after=rename');
    expect(page.headers['x-page-cache']).toBe('miss');
    expect(page.body).toContain('Power supplies');
  });

  it('a tag page new to the cache reads its tag rows again only after a purge of the lists', async () => {
    const statements = async (path: string) => {
      const before = queryCount();
      expect((await app.request(path)).status, path).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return queryCount() - before;
    };
    await statements('/newest?tag=power&visit=1');
    // Another address of the same tag: rendered again, without its tag's rows (the navigation's
    // tags, the tag with its parent and children, the ids it covers).
    const again = await statements('/newest?tag=power&visit=2');
    await renameTag(OPERATOR, { slug: 'power', nameEn: 'Power', nameZh: '电源' });
    const afterPurge = await statements('/newest?tag=power&visit=3');
    expect(afterPurge - again).toBeGreaterThanOrEqual(4);
  });

  it("a tag's list is counted once, whatever its order, until the lists are purged, and a project published in it counts at once", async () => {
    // Publishing purges the lists: what follows reads the tag's rows and its count afresh.
    await publishWithFiles(owner.user.id, [], 'Counted with its tag');
    await publishWithFiles(owner.user.id, [], 'Counted with its tag too');
    // Fewer cards a page than the tag has, so the total is the count's, not the cards shown.
    const read = async (query: string) => {
      const before = queryCount();
      const response = await app.request(`/api/project/list?tag=power&${query}`);
      expect(response.status).toBe(200);
      expect(response.headers['x-page-cache']).toBe('miss');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const { total, totalExact } = response.json<{ result: { total: number; totalExact: boolean } }>().result;
      return { statements: queryCount() - before, total: { total, totalExact } };
    };
    const first = await read('sort=newest&pageSize=1');
    expect(first.total.total).toBeGreaterThanOrEqual(3);
    // The same projects in another order and page size, new to the cache: one statement, its page.
    const second = await read('sort=hot&pageSize=2');
    expect(second.total).toEqual(first.total);
    expect(second.statements).toBe(1);
    await publishWithFiles(owner.user.id, [], 'Counted at once');
    const third = await read('sort=recommend&pageSize=1');
    expect(third.total).toEqual({ total: first.total.total + 1, totalExact: true });
    expect(third.statements).toBeGreaterThan(1);
  });

  it('a donation, in the list and the home ticker', async () => {
    await app.request('/api/donate/getIndexDonateScroll');
    // As `npm run ops -- donations:import` stores an Open Collective export.
    const csv = `id,type,kind,isRefund,amount,currency,datetime,oppositeAccountName,oppositeAccountSlug,message\napi-cache-1,CREDIT,CONTRIBUTION,false,5.00,USD,${new Date().toISOString()},Generous Ghost,generous-ghost,For the parts\n`;
    const list = await afterWrite('/api/donate/list', async () => expect((await importDonationsCsv(csv)).imported).toBe(1));
    expect(list.body).toContain('Generous Ghost');
    const ticker = await app.request('/api/donate/getIndexDonateScroll');
    expect(ticker.headers['x-page-cache']).toBe('miss');
    expect(ticker.body).toContain('Generous Ghost');
  });

  it("another instance's purge arrives through PostgreSQL NOTIFY", async () => {
    const path = `/api/comment/list?id=${projectId}`;
    await app.request(path);
    expect((await app.request(path)).headers['x-page-cache']).toBe('hit');
    await getDb().$client.query('SELECT pg_notify($1, $2)', ['copperhub_page_purge', `another-instance project:${projectId}`]);
    await expect.poll(async () => (await app.request(path)).headers['x-page-cache'], { timeout: 1000 }).toBe('miss');
  });
});

describe('members', () => {
  it('get their own flags, kept for them alone until what they show changes, and a guest never gets them', async () => {
    const { id: commentId } = await submitComment(owner.user.id, projectId, 'Liked by the reader alone');
    await likeComment(reader.user.id, commentId, true);
    const path = `/api/comment/list?id=${projectId}&pageSize=50`;
    type Comments = { result: { list: { id: number; liked: boolean; content: string }[] } };
    const likedIn = (response: AppResponse) => response.json<Comments>().result.list.find((item) => item.id === commentId)?.liked;
    const first = await app.request(path, { token: reader.token });
    expect(first.headers['x-page-cache']).toBe('member-miss');
    expect(likedIn(first)).toBe(true);
    // Read again: the very answer rendered for them, from memory, and still nobody else's to keep.
    const again = await app.request(path, { token: reader.token });
    expect(again.headers['x-page-cache']).toBe('member-hit');
    expect(again.body).toBe(first.body);
    expect(headersOf(again)).toEqual(headersOf(first));
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.headers['x-page-tags']).toBeUndefined();
    // Another member and a guest get their own, never the reader's.
    const other = await app.request(path, { token: owner.token });
    expect(other.headers['x-page-cache']).toBe('member-miss');
    expect(likedIn(other)).toBe(false);
    const guest = await app.request(path);
    expect(likedIn(guest)).toBe(false);
    expect((await app.request(path)).headers['x-page-cache']).toBe('hit');
    expect(likedIn(await app.request(path, { token: reader.token }))).toBe(true);

    // Their own unlike, through the API: the next read shows it.
    const unliked = await app.request('/api/comment/like', { method: 'POST', token: reader.token, body: { commentId, value: false } });
    expect(unliked.json().retCode).toBe(0);
    const afterUnlike = await app.request(path, { token: reader.token });
    expect(afterUnlike.headers['x-page-cache']).toBe('member-miss');
    expect(likedIn(afterUnlike)).toBe(false);
    // Someone else's comment changes it for everyone: their kept answer goes with the guests'.
    expect((await app.request(path, { token: reader.token })).headers['x-page-cache']).toBe('member-hit');
    await submitComment(owner.user.id, projectId, 'A second word from the owner');
    const afterComment = await app.request(path, { token: reader.token });
    expect(afterComment.headers['x-page-cache']).toBe('member-miss');
    expect(afterComment.json<Comments>().result.list.map((item) => item.content)).toContain('A second word from the owner');
  });

  it('are kept by POST whatever the order of the body’s keys, and dropped by any write of theirs and by a new role', async () => {
    const post = (body: unknown, token = reader.token) => app.request('/api/comment/list', { method: 'POST', token, body });
    const first = await post({ id: projectId, pageSize: 7, sort: 'oldest' });
    expect(first.headers['x-page-cache']).toBe('member-miss');
    const reordered = await post({ sort: 'oldest', pageSize: 7, id: projectId });
    expect(reordered.headers['x-page-cache']).toBe('member-hit');
    expect(reordered.body).toBe(first.body);
    // A write of theirs that does not touch this project (a star elsewhere) still drops what was
    // kept for them: their own writes are not told apart.
    const elsewhere = (await createProject(owner.user.id, { title: 'Another cached clock' })).publicId;
    const starred = await app.request('/api/project/star', { method: 'POST', token: reader.token, body: { id: elsewhere, value: true } });
    expect(starred.json().retCode).toBe(0);
    expect((await post({ id: projectId, pageSize: 7, sort: 'oldest' })).headers['x-page-cache']).toBe('member-miss');
    expect((await post({ id: projectId, pageSize: 7, sort: 'oldest' })).headers['x-page-cache']).toBe('member-hit');
    // Made staff, they see what staff hid: their kept answer, which left it out, is not reused.
    const { id: hiddenId } = await submitComment(owner.user.id, projectId, 'Hidden by staff');
    await getDb().update(comments).set({ hiddenAt: new Date() }).where(eq(comments.id, hiddenId));
    const shows = (response: AppResponse) => response.json<{ result: { list: { id: number }[] } }>().result.list.some((item) => item.id === hiddenId);
    expect(shows(await post({ id: projectId, pageSize: 50 }))).toBe(false);
    expect((await post({ id: projectId, pageSize: 50 })).headers['x-page-cache']).toBe('member-hit');
    await getDb().update(users).set({ role: 'moderator' }).where(eq(users.id, reader.user.id));
    try {
      const promoted = await post({ id: projectId, pageSize: 50 });
      expect(promoted.headers['x-page-cache']).toBe('member-miss');
      expect(shows(promoted)).toBe(true);
    } finally {
      await getDb().update(users).set({ role: 'member' }).where(eq(users.id, reader.user.id));
      await getDb().update(comments).set({ hiddenAt: null }).where(eq(comments.id, hiddenId));
    }
    // A Bearer token (an app) is rendered whole, never kept.
    for (let i = 0; i < 2; i += 1) {
      const app_ = await app.request(`/api/comment/list?id=${projectId}`, { headers: { authorization: `Bearer ${reader.token}` } });
      expect(app_.json().retCode).toBe(0);
      expect(app_.headers['x-page-cache']).toBeUndefined();
    }
    // An error is passed to them, never kept.
    for (let i = 0; i < 2; i += 1) {
      const missing = await app.request('/api/comment/list?id=no-such-project', { token: reader.token });
      expect(missing.json().errorKey).toBe('project_not_found');
      expect(missing.headers['x-page-cache']).toBeUndefined();
    }
  });

  it('signed out, are answered as guests: never with what was kept for them', async () => {
    const leaver = await createUser({ nickname: 'Api Leaver' });
    const { id: commentId } = await submitComment(owner.user.id, projectId, 'Liked by the leaver');
    await likeComment(leaver.user.id, commentId, true);
    const path = `/api/comment/list?id=${projectId}&pageSize=50&sort=oldest`;
    const liked = (response: AppResponse) => response.json<{ result: { list: { id: number; liked: boolean }[] } }>().result.list.find((item) => item.id === commentId)?.liked;
    await app.request(path, { token: leaver.token });
    const kept = await app.request(path, { token: leaver.token });
    expect(kept.headers['x-page-cache']).toBe('member-hit');
    expect(liked(kept)).toBe(true);
    await invalidateSession(leaver.token);
    const after = await app.request(path, { token: leaver.token });
    expect(after.headers['x-page-cache']).not.toBe('member-hit');
    expect(liked(after)).toBe(false);
  });

  it('are answered from the guests’ copy where the answer ignores them, and their render is never kept', async () => {
    const path = '/api/project/list?sort=hot&pageSize=3';
    // Rendered for the member (with their session), passed to them, not kept.
    const member = await app.request(path, { token: reader.token });
    expect(member.headers['x-page-cache']).toBeUndefined();
    expect((await app.request(path)).headers['x-page-cache']).toBe('miss');
    const guest = await app.request(path);
    expect(guest.headers['x-page-cache']).toBe('hit');
    const memberAgain = await app.request(path, { token: reader.token });
    expect(memberAgain.headers['x-page-cache']).toBe('hit');
    expect(memberAgain.body).toBe(member.body);
  });
});
