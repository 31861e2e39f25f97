import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, queryCount } from '../../src/server/db/client.ts';
import { comments, memberCollectionProjects, memberCollections, projectLogs, stars, videos } from '../../src/server/db/schema/index.ts';
import { saveLog } from '../../src/server/services/community/index.ts';
import { eq } from 'drizzle-orm';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { useApp } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';

/**
 * Every page is held to the number of SQL statements it needs today: a page that grows a query
 * (an N+1 loop over cards, a lookup repeated per request) fails here before it costs the site.
 * Counted with the page cache off, one request at a time, on a catalogue with several projects,
 * comments and stars, so a query per card or per comment would show.
 */
const app = useApp();

let owner: Awaited<ReturnType<typeof createUser>>;
let reader: Awaited<ReturnType<typeof createUser>>;
let projectId = '';
let videoId = '';

beforeAll(async () => {
  owner = await createUser({ nickname: 'Budget Owner' });
  reader = await createUser({ nickname: 'Budget Reader' });
  const tag = await createTag('budget-tag', 'Budget', '预算');
  const created = [];
  for (let i = 0; i < 12; i += 1) created.push(await createProject(owner.user.id, { title: `Budget board ${i}` }, [tag.id]));
  const project = created[0]!;
  projectId = project.publicId;
  for (let i = 0; i < 6; i += 1) await getDb().insert(comments).values({ projectId: project.id, authorId: i % 2 ? reader.user.id : owner.user.id, body: `Comment ${i}` });
  // Build logs, the first with comments: a query per log or per comment would show on the Logs tab and a log's page.
  for (let i = 1; i <= 4; i += 1) await saveLog(owner.user.id, { id: project.publicId, title: `Budget log ${i}`, content: `Log **${i}**` });
  const [firstLog] = await getDb().select({ id: projectLogs.id }).from(projectLogs).where(eq(projectLogs.projectId, project.id)).orderBy(projectLogs.n).limit(1);
  for (let i = 0; i < 4; i += 1) await getDb().insert(comments).values({ projectId: project.id, logId: firstLog!.id, authorId: i % 2 ? reader.user.id : owner.user.id, body: `Log comment ${i}` });
  for (const other of created.slice(1, 6)) await getDb().insert(stars).values({ userId: reader.user.id, projectId: other.id });
  // A member's collection of six projects: its page reads them (and their tags) in one statement.
  const [picks] = await getDb().insert(memberCollections).values({ ownerId: owner.user.id, slug: 'budget-picks', title: 'Budget picks' }).returning();
  await getDb()
    .insert(memberCollectionProjects)
    .values(created.slice(0, 6).map((project, position) => ({ collectionId: picks!.id, projectId: project.id, position })));
  videoId = newPublicId();
  await getDb()
    .insert(videos)
    .values({ id: videoId, ownerId: owner.user.id, projectId: project.id, title: 'Budget clip', storageKey: `videos/${videoId}.mp4`, mime: 'video/mp4', size: 1000, status: 'ready' });
});

/** The statements one request sends (after a first request warmed every process-wide memo). */
async function queriesFor(path: string, token?: string): Promise<number> {
  await app.request(path, { token });
  // Fire-and-forget work of the warm-up (a view counted) settles before counting.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = queryCount();
  const response = await app.request(path, { token });
  expect(response.status, path).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return queryCount() - before;
}

describe('queries per page', () => {
  // [page, address, queries for a guest, queries for a signed-in member]
  // A member's home has their Following section (one statement), a tag page its Follow button's
  // state (one statement: the count and whether the viewer follows). A list's cards come with
  // their tags; a long list (not here) is not counted either (its remembered estimate says).
  const pages: [string, () => string, number, number][] = [
    ['home', () => '/', 5, 7],
    ['newest', () => '/newest', 3, 4],
    ['a tag page', () => '/newest?tag=budget-tag', 7, 8],
    ['search', () => '/search?q=budget', 4, 5],
    // A project's Follow button's count and state, and its tags, come with the project's own row;
    // the related projects' tags with theirs; the number of comments and their newest replies
    // with their first page.
    // This one has no files, boards or videos: the row says so, and their statements are left out.
    ['a project page', () => `/d-${projectId}`, 4, 5],
    ['its Logs tab', () => `/d-${projectId}/logs`, 7, 8],
    ['one of its build logs, with comments', () => `/d-${projectId}/log/1`, 6, 7],
    ['its electronics page', () => `/eda/${projectId}`, 10, 13],
    // A member's pages: their profile and its numbers are one statement; their projects' number
    // comes with it.
    ["a member's projects", () => `/user/${owner.user.customUrl}`, 2, 3],
    ["a member's stars", () => `/user/${reader.user.customUrl}/stars`, 4, 6],
    ["a member's videos", () => `/user/${owner.user.customUrl}/video`, 4, 5],
    ["a member's collections", () => `/user/${owner.user.customUrl}/collections`, 2, 3],
    ['a collection', () => `/user/${owner.user.customUrl}/collections/budget-picks`, 3, 4],
    ['a video', () => `/video/player?id=${videoId}`, 2, 3],
    ['donations', () => '/donation-list', 3, 4],
  ];

  it.each(pages)('%s for a guest stays within its number', async (_name, path, budget) => {
    const count = await queriesFor(path());
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(budget);
  });

  // A member adds the session (with the header's member and unread count, in one statement);
  // on a project page their star, like and follow of it (which comments they liked come with the
  // comments); on their own pages their number of drafts.
  it.each(pages)('%s for a member stays within its number', async (_name, path, _guest, budget) => {
    expect(await queriesFor(path(), reader.token)).toBeLessThanOrEqual(budget);
  });
});
