import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { auditLog, messages, projects, reports, sessions, users, videos } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { createSession, registerAccount } from '../../src/server/services/accounts/index.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';

/**
 * Reports and moderation against the built server with its page cache on: what a guest, the
 * author, a reporter and staff each see before and after content is hidden, restored, and its
 * author suspended; and what members calling staff endpoints, or flooding reports, get.
 */
const app = useApp({ pageCache: {} });

/** Every sitemap the index lists, as one text: what a crawler following `/sitemap.xml` reads. */
async function allSitemaps(): Promise<string> {
  const index = (await app.request('/sitemap.xml')).body;
  const pages = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc!).pathname);
  const bodies = await Promise.all(pages.map(async (page) => (await app.request(page)).body));
  return bodies.join('\n');
}

type Member = Awaited<ReturnType<typeof createUser>>;
let author: Member;
let reporter: Member;
let second: Member;
let moderator: Member;
let admin: Member;
let tag: Awaited<ReturnType<typeof createTag>>;

const post = (name: string, body: unknown, token?: string) => app.request(`/api/${name}`, { method: 'POST', body, ...(token ? { token } : {}) });
const result = <T = Record<string, unknown>>(response: AppResponse) => response.json<{ result: T }>().result;
const errorKey = (response: AppResponse) => response.json<{ errorKey: string }>().errorKey;

beforeAll(async () => {
  author = await createUser({ nickname: 'Spammy Author' });
  reporter = await createUser({ nickname: 'Careful Reader' });
  second = await createUser({ nickname: 'Second Reader' });
  moderator = await createUser({ nickname: 'Mod Mia', role: 'moderator' });
  admin = await createUser({ nickname: 'Admin Ada', role: 'admin' });
  tag = await createTag('moderation-tag', 'Moderated', 'Moderated');
});

/**
 * Every public place a listed project shows up, as a guest fetches them (cached after the first
 * time): whether each names the project (its id is in every link to it).
 */
async function guestPlaces(title: string, publicId: string, url: string) {
  const places = {
    newest: `/newest`,
    hot: `/newest?sort=hot`,
    tag: `/newest?tag=${tag.slug}`,
    user: `/user/${url}`,
    search: `/search?q=${encodeURIComponent(title.split(' ')[0]!)}`,
    rss: `/rss.xml`,
  };
  const seen: Record<string, boolean> = {};
  for (const [name, path] of Object.entries(places)) {
    const response = await app.request(path);
    expect(response.status, path).toBe(200);
    seen[name] = response.body.includes(publicId);
  }
  return seen;
}

/**
 * The comment count a guest reads on a project's page and on its card on its owner's page, and
 * the reply counts of its threads as a guest is sent them.
 */
async function guestCounts(publicId: string, ownerUrl: string) {
  const page = (await app.request(`/d-${publicId}`)).body;
  const profile = (await app.request(`/user/${ownerUrl}`)).body;
  const card = profile.split('<article class="card project-card"').find((part) => part.includes(publicId)) ?? '';
  const threads = result<{ list: Array<{ id: number; replyCount: number }> }>(await post('comment/list', { id: publicId, page: 1, pageSize: 20 })).list;
  return {
    page: Number(/data-project-count="comments"[^>]*>([^<]*)</.exec(page)?.[1]),
    card: Number(/Comments<\/span>\s*([^<]+)<\/li>/.exec(card)?.[1]),
    replies: Object.fromEntries(threads.map((thread) => [thread.id, thread.replyCount])),
  };
}

describe('reporting', () => {
  it('takes a report of each kind, refuses missing targets with the kind’s key, and merges a repeat', async () => {
    const project = await createProject(author.user.id, { title: 'Reportable relay board' });
    const comment = result<{ id: number }>(await post('comment/submit', { id: project.publicId, content: 'Buy cheap parts at example.test' }, author.token));
    const [video] = await getDb()
      .insert(videos)
      .values({ id: newPublicId(), ownerId: author.user.id, title: 'Reportable clip', mime: 'video/mp4', size: 10, status: 'ready', storageKey: 'videos/x.mp4' })
      .returning();

    for (const [kind, id] of [['project', project.publicId], ['comment', comment.id], ['video', video!.id], ['user', author.user.customUrl]] as const) {
      const sent = await post('report/submit', { kind, id, reason: 'spam' }, reporter.token);
      expect(sent.status, `${kind}: ${sent.body}`).toBe(200);
      expect(result(sent)).toMatchObject({ merged: false });
    }
    const again = await post('report/submit', { kind: 'project', id: project.publicId, reason: 'abuse', note: 'And rude' }, reporter.token);
    expect(result(again)).toMatchObject({ merged: true });
    const rows = await getDb().select().from(reports).where(eq(reports.targetId, project.publicId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: 'spam', note: '' });

    for (const [kind, key] of [['project', 'project_not_found'], ['comment', 'comment_not_found'], ['video', 'video_not_found'], ['user', 'user_not_found']] as const) {
      const missing = await post('report/submit', { kind, id: kind === 'comment' ? 999999 : 'nothing-here', reason: 'spam' }, reporter.token);
      expect(missing.status, kind).toBe(404);
      expect(errorKey(missing)).toBe(key);
    }
    const noNote = await post('report/submit', { kind: 'project', id: project.publicId, reason: 'other' }, second.token);
    expect(noNote.status).toBe(400);
    expect(noNote.json<{ fields: Record<string, string> }>().fields).toEqual({ note: 'required' });
    const badReason = await post('report/submit', { kind: 'project', id: project.publicId, reason: 'ugly' }, second.token);
    expect(badReason.status).toBe(400);
    const guest = await post('report/submit', { kind: 'project', id: project.publicId, reason: 'spam' });
    expect(guest.status).toBe(401);
    expect(await getDb().select().from(reports).where(eq(reports.reporterId, second.user.id))).toHaveLength(0);
  });

  it('refuses a flood from one member (rate_limited) while others still report', async () => {
    const flooder = await createUser({ nickname: 'Flooder' });
    const project = await createProject(author.user.id, { title: 'Flooded board' });
    const answers: number[] = [];
    for (let i = 0; i < 22; i += 1) answers.push((await post('report/submit', { kind: 'project', id: project.publicId, reason: 'spam' }, flooder.token)).status);
    expect(answers.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(answers.slice(20)).toEqual([429, 429]);
    const other = await post('report/submit', { kind: 'project', id: project.publicId, reason: 'spam' }, second.token);
    expect(other.status).toBe(200);
  });
});

describe('staff endpoints', () => {
  it('answer a member 403 and change nothing; the audit log is for admins only', async () => {
    const project = await createProject(author.user.id, { title: 'Guarded board' });
    const report = result<{ id: number }>(await post('report/submit', { kind: 'project', id: project.publicId, reason: 'spam' }, reporter.token));
    for (const [name, body] of [
      ['admin/report/list', { page: 1, pageSize: 20 }],
      ['admin/report/resolve', { id: report.id, action: 'hide' }],
      ['admin/content/restore', { kind: 'project', id: project.publicId }],
      ['admin/audit/list', { page: 1, pageSize: 20 }],
    ] as const) {
      const answer = await post(name, body, reporter.token);
      expect(answer.status, name).toBe(403);
      expect(errorKey(answer)).toBe('forbidden');
    }
    expect((await post('admin/audit/list', { page: 1, pageSize: 20 }, moderator.token)).status).toBe(403);
    const [row] = await getDb().select().from(reports).where(eq(reports.id, report.id));
    expect(row!.status).toBe('open');
    expect((await getDb().select().from(projects).where(eq(projects.id, project.id)))[0]!.hiddenAt).toBeNull();
    expect((await app.request('/admin/reports', { token: reporter.token })).status).toBe(404);
    expect((await app.request('/admin/reports', { token: moderator.token })).status).toBe(200);
    expect((await app.request('/admin/audit', { token: moderator.token })).status).toBe(404);
  });
});

describe('hiding and restoring', () => {
  it('takes a project out of every public place and the cached pages, keeps it for its author and staff, and brings it back', async () => {
    const title = 'Zircon blinker kit';
    const project = await createProject(author.user.id, { title, summary: 'Blinks zircon' }, [tag.id]);
    const page = `/d-${project.publicId}`;
    // Warm the guest cache: the purge on hide must drop these.
    expect((await app.request(page)).status).toBe(200);
    expect(await guestPlaces(title, project.publicId, author.user.customUrl)).toEqual({ newest: true, hot: true, tag: true, user: true, search: true, rss: true });
    expect((await app.request(page)).headers['x-page-cache']).toBe('hit');
    expect(await allSitemaps()).toContain(project.publicId);

    const report = result<{ id: number }>(await post('report/submit', { kind: 'project', id: project.publicId, reason: 'licence', note: 'Copied from my repo' }, reporter.token));
    await post('report/submit', { kind: 'project', id: project.publicId, reason: 'spam' }, second.token);
    const queue = result<{ list: Array<{ id: number; openOnTarget: number; target: { title: string; hidden: boolean; author: { nickname: string } } }> }>(
      await post('admin/report/list', { page: 1, pageSize: 50 }, moderator.token),
    );
    const listed = queue.list.find((item) => item.id === report.id)!;
    expect(listed).toMatchObject({ openOnTarget: 2, target: { title, hidden: false, author: { nickname: 'Spammy Author' } } });

    const hidden = await post('admin/report/resolve', { id: report.id, action: 'hide', note: 'Licence: copied' }, moderator.token);
    expect(result(hidden)).toMatchObject({ action: 'hide', closed: 2, hidden: 1 });
    const twice = await post('admin/report/resolve', { id: report.id, action: 'dismiss' }, moderator.token);
    expect(twice.status).toBe(409);
    expect(errorKey(twice)).toBe('report_closed');

    const guestPage = await app.request(page);
    expect(guestPage.status).toBe(404);
    expect(await guestPlaces(title, project.publicId, author.user.customUrl)).toEqual({ newest: false, hot: false, tag: false, user: false, search: false, rss: false });
    expect(await allSitemaps()).not.toContain(project.publicId);
    expect((await app.request(page, { token: second.token })).status).toBe(404);
    expect((await post('project/detail', { id: project.publicId })).status).toBe(404);
    expect((await post('comment/list', { id: project.publicId, page: 1, pageSize: 20 })).status).toBe(404);
    expect((await post('project/star', { id: project.publicId, value: true }, second.token)).status).toBe(404);
    expect((await app.request(`/eda/${project.publicId}`)).status).toBe(404);
    expect((await app.request(`/eda/${project.publicId}`, { token: author.token })).status).toBe(200);
    const own = await app.request(page, { token: author.token });
    expect(own.status).toBe(200);
    expect(own.body).toContain(title);
    expect(own.body).toContain('Moderators hid this project after a report');
    expect((await app.request(page, { token: moderator.token })).status).toBe(200);

    // Both reporters are told, each in the words of their own messages page.
    const told = await getDb().select().from(messages).where(eq(messages.kind, 'report_resolved'));
    expect(told.filter((m) => m.body === 'hide').map((m) => m.recipientId).sort()).toEqual([reporter.user.id, second.user.id].sort());
    const inbox = await app.request(`/user/${reporter.user.customUrl}/message`, { token: reporter.token });
    expect(inbox.body).toContain('Our moderators reviewed it and hid the content');

    const restored = await post('admin/content/restore', { kind: 'project', id: project.publicId }, moderator.token);
    expect(result(restored)).toMatchObject({ restored: true });
    expect((await app.request(page)).status).toBe(200);
    expect(await guestPlaces(title, project.publicId, author.user.customUrl)).toEqual({ newest: true, hot: true, tag: true, user: true, search: true, rss: true });
    expect(result(await post('admin/content/restore', { kind: 'project', id: project.publicId }, moderator.token))).toMatchObject({ restored: false });

    const audit = result<{ list: Array<{ action: string; targetId: string; note: string; actor: { nickname: string } }> }>(await post('admin/audit/list', { page: 1, pageSize: 50 }, admin.token));
    expect(audit.list.filter((entry) => entry.targetId === project.publicId).map((entry) => [entry.action, entry.note, entry.actor.nickname])).toEqual([
      ['content.restore', '', 'Mod Mia'],
      ['report.hide', 'Licence: copied', 'Mod Mia'],
    ]);
    expect((await app.request('/admin/audit', { token: admin.token })).body).toContain('Licence: copied');
  });

  it('hides a comment from everyone but its author and staff, and a profile from guests', async () => {
    const project = await createProject(second.user.id, { title: 'Board with a bad comment' });
    const comment = result<{ id: number }>(await post('comment/submit', { id: project.publicId, content: 'Visit spam.example for deals' }, author.token));
    const report = result<{ id: number }>(await post('report/submit', { kind: 'comment', id: comment.id, reason: 'spam' }, reporter.token));
    expect((await app.request(`/d-${project.publicId}`)).body).toContain('spam.example');
    await post('admin/report/resolve', { id: report.id, action: 'hide' }, moderator.token);
    const ids = async (token?: string) =>
      result<{ list: Array<{ id: number }> }>(await post('comment/list', { id: project.publicId, page: 1, pageSize: 20 }, token)).list.map((item) => item.id);
    expect(await ids()).toEqual([]);
    expect(await ids(reporter.token)).toEqual([]);
    expect(await ids(author.token)).toEqual([comment.id]);
    expect(await ids(moderator.token)).toEqual([comment.id]);
    expect((await app.request(`/d-${project.publicId}`)).body).not.toContain('spam.example');
    const reply = await post('comment/reply', { commentId: comment.id, content: 'me too' }, reporter.token);
    expect(reply.status).toBe(404);

    const profileOwner = await createUser({ nickname: 'Shady Profile', bio: 'Buy followers' });
    const profileReport = result<{ id: number }>(await post('report/submit', { kind: 'user', id: profileOwner.user.customUrl, reason: 'spam' }, reporter.token));
    expect((await app.request(`/user/${profileOwner.user.customUrl}`)).status).toBe(200);
    await post('admin/report/resolve', { id: profileReport.id, action: 'hide' }, moderator.token);
    expect((await app.request(`/user/${profileOwner.user.customUrl}`)).status).toBe(404);
    expect((await app.request(`/user/${profileOwner.user.customUrl}`, { token: profileOwner.token })).status).toBe(200);
    expect(await allSitemaps()).not.toContain(profileOwner.user.customUrl);
    await post('admin/content/restore', { kind: 'user', id: profileOwner.user.customUrl }, moderator.token);
    expect((await app.request(`/user/${profileOwner.user.customUrl}`)).status).toBe(200);
  });

  it('takes a hidden comment out of the counts guests read, once, and puts it back on restore', async () => {
    // A new owner: factories write no purges, so an owner's page cached earlier would not list a new project.
    const owner = await createUser({ nickname: 'Counted Owner' });
    const project = await createProject(owner.user.id, { title: 'Board with counted comments' });
    const first = result<{ id: number }>(await post('comment/submit', { id: project.publicId, content: 'Which regulator did you use?' }, reporter.token));
    const other = result<{ id: number }>(await post('comment/submit', { id: project.publicId, content: 'Cheap boards at spam.example' }, author.token));
    const reply = result<{ id: number }>(await post('comment/reply', { commentId: first.id, content: 'Cheaper ones at spam.example' }, author.token));
    const counts = () => guestCounts(project.publicId, owner.user.customUrl);
    expect(await counts()).toEqual({ page: 3, card: 3, replies: { [first.id]: 1, [other.id]: 0 } });
    // Cached now: the counts below come through the purge.
    expect((await app.request(`/d-${project.publicId}`)).headers['x-page-cache']).toBe('hit');

    const report = result<{ id: number }>(await post('report/submit', { kind: 'comment', id: reply.id, reason: 'spam' }, reporter.token));
    expect(result(await post('admin/report/resolve', { id: report.id, action: 'hide' }, moderator.token))).toMatchObject({ hidden: 1 });
    expect(await counts()).toEqual({ page: 2, card: 2, replies: { [first.id]: 0, [other.id]: 0 } });

    // Hidden again (staff still see it, so may report it): nothing changes.
    const again = result<{ id: number }>(await post('report/submit', { kind: 'comment', id: reply.id, reason: 'spam' }, moderator.token));
    expect(result(await post('admin/report/resolve', { id: again.id, action: 'hide' }, admin.token))).toMatchObject({ hidden: 0 });
    expect(await counts()).toEqual({ page: 2, card: 2, replies: { [first.id]: 0, [other.id]: 0 } });

    expect(result(await post('admin/content/restore', { kind: 'comment', id: reply.id }, moderator.token))).toMatchObject({ restored: true });
    expect(await counts()).toEqual({ page: 3, card: 3, replies: { [first.id]: 1, [other.id]: 0 } });
    expect(result(await post('admin/content/restore', { kind: 'comment', id: reply.id }, moderator.token))).toMatchObject({ restored: false });
    expect(await counts()).toEqual({ page: 3, card: 3, replies: { [first.id]: 1, [other.id]: 0 } });

    // A hidden comment its author then deletes left the count once, not twice, and stays out.
    const otherReport = result<{ id: number }>(await post('report/submit', { kind: 'comment', id: other.id, reason: 'spam' }, reporter.token));
    await post('admin/report/resolve', { id: otherReport.id, action: 'hide' }, moderator.token);
    expect((await counts()).page).toBe(2);
    expect((await post('comment/del', { commentId: other.id }, author.token)).status).toBe(200);
    expect(await counts()).toEqual({ page: 2, card: 2, replies: { [first.id]: 1 } });
    expect((await post('admin/content/restore', { kind: 'comment', id: other.id }, moderator.token)).status).toBe(404);
    expect((await counts()).page).toBe(2);

    // A hidden top-level comment takes its thread with it, and so out of the count; restored, both return.
    const firstReport = result<{ id: number }>(await post('report/submit', { kind: 'comment', id: first.id, reason: 'spam' }, second.token));
    await post('admin/report/resolve', { id: firstReport.id, action: 'hide' }, moderator.token);
    expect(await counts()).toEqual({ page: 0, card: 0, replies: {} });
    await post('admin/content/restore', { kind: 'comment', id: first.id }, moderator.token);
    expect(await counts()).toEqual({ page: 2, card: 2, replies: { [first.id]: 1 } });
  });
});

describe('suspension', () => {
  it('ends the member’s sessions, refuses their sign-in with account_suspended, and can hide all they posted', async () => {
    const account = await registerAccount({ email: 'spammer@example.com', password: 'solder-bridge-42', nickname: 'Serial Spammer' });
    const signIn = () =>
      app.request('/sso/api/login', { method: 'POST', body: { email: 'spammer@example.com', password: 'solder-bridge-42', redirect: '/', siteId: 'copperhub' } });
    expect((await signIn()).status).toBe(200);
    const [spammer] = await getDb().select().from(users).where(eq(users.id, account.userId));
    const { token: session } = await createSession(spammer!.id, 'vitest');
    const project = await createProject(spammer!.id, { title: 'Spam project one' });
    // New owners: factories write no purges, so an owner's page cached earlier would not list a new project.
    const host = await createUser({ nickname: 'Innocent Host' });
    const otherHost = await createUser({ nickname: 'Second Host' });
    const elsewhere = await createProject(host.user.id, { title: 'Innocent board' });
    await post('comment/submit', { id: elsewhere.publicId, content: 'spam spam spam' }, session);
    const another = await createProject(otherHost.user.id, { title: 'Second innocent board' });
    const question = result<{ id: number }>(await post('comment/submit', { id: another.publicId, content: 'Does it fit a DIN rail?' }, second.token));
    expect((await post('comment/reply', { commentId: question.id, content: 'buy spam here' }, session)).status).toBe(200);
    expect(await guestCounts(elsewhere.publicId, host.user.customUrl)).toMatchObject({ page: 1, card: 1 });
    expect(await guestCounts(another.publicId, otherHost.user.customUrl)).toEqual({ page: 2, card: 2, replies: { [question.id]: 1 } });
    const report = result<{ id: number }>(await post('report/submit', { kind: 'project', id: project.publicId, reason: 'spam' }, reporter.token));

    const refused = await post('admin/report/resolve', { id: report.id, action: 'suspend' }, reporter.token);
    expect(refused.status).toBe(403);
    const done = await post('admin/report/resolve', { id: report.id, action: 'suspend', note: 'Spam wave', hideContent: true }, moderator.token);
    expect(result(done)).toMatchObject({ action: 'suspend', hidden: 3 });
    expect(await guestCounts(elsewhere.publicId, host.user.customUrl)).toEqual({ page: 0, card: 0, replies: {} });
    expect(await guestCounts(another.publicId, otherHost.user.customUrl)).toEqual({ page: 1, card: 1, replies: { [question.id]: 0 } });

    expect(await getDb().select().from(sessions).where(eq(sessions.userId, spammer!.id))).toHaveLength(0);
    const posting = await post('comment/submit', { id: elsewhere.publicId, content: 'more spam' }, session);
    expect(posting.status).toBe(401);
    const again = await signIn();
    expect(again.status).toBe(403);
    expect(errorKey(again)).toBe('account_suspended');
    const wrong = await app.request('/sso/api/login', { method: 'POST', body: { email: 'spammer@example.com', password: 'wrong-password-1', redirect: '/', siteId: 'copperhub' } });
    expect(errorKey(wrong)).toBe('invalid_credentials');
    expect((await app.request(`/d-${project.publicId}`)).status).toBe(404);
    expect((await app.request(`/d-${elsewhere.publicId}`)).body).not.toContain('spam spam spam');

    // Staff cannot be suspended by a report.
    const staffProject = await createProject(moderator.user.id, { title: 'Moderator board' });
    const staffReport = result<{ id: number }>(await post('report/submit', { kind: 'project', id: staffProject.publicId, reason: 'abuse', note: 'x' }, reporter.token));
    const staffSuspend = await post('admin/report/resolve', { id: staffReport.id, action: 'suspend' }, admin.token);
    expect(staffSuspend.status).toBe(403);

    // Restoring the member lifts the suspension.
    await post('admin/content/restore', { kind: 'user', id: spammer!.customUrl }, admin.token);
    expect((await signIn()).status).toBe(200);
    const entries = await getDb().select().from(auditLog).where(eq(auditLog.targetKind, 'project'));
    expect(entries.find((entry) => entry.action === 'report.suspend')).toMatchObject({ note: 'Spam wave', details: expect.objectContaining({ sessionsEnded: 1 }) });
  });
});

describe('the Report control', () => {
  it('is a sign-in link for guests, the dialog island for other members, and absent for the author', async () => {
    const [video] = await getDb()
      .insert(videos)
      .values({ id: newPublicId(), ownerId: author.user.id, title: 'Control clip', mime: 'video/mp4', size: 10, status: 'ready', storageKey: 'videos/y.mp4' })
      .returning();
    for (const path of [`/user/${author.user.customUrl}`, `/video/player?id=${video!.id}`]) {
      const guest = await app.request(path);
      expect(guest.body, path).toMatch(/<a class="report-link[^"]*" href="[^"]*sso[^"]*"[^>]*>Report<\/a>/);
      const member = await app.request(path, { token: reporter.token });
      expect(member.body, path).toMatch(/<astro-island[^>]*component-url="[^"]*ReportButton[^"]*"/);
      const own = await app.request(path, { token: author.token });
      expect(own.body, path).not.toContain('ReportButton');
      expect(own.body, path).not.toContain('class="report-link');
    }
  });
});
