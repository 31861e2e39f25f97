import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { activities, credentials, emailPreferences, feedEntries, follows, messages, projects } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { recordActivity, listMessages, getNotificationSettings, notificationSettingsInput, saveNotificationSettings, notifyProjectStarred, getAccountEmail, saveAccountEmailSettings, sendDailyDigests } from '../../src/server/services/notifications/index.ts';
import { fanOutActivities, listFollowingFeed, countFollowing, getFollowState, setFollow } from '../../src/server/services/community/index.ts';
import { saveProject, saveProjectSchema } from '../../src/server/services/projects/index.ts';
import { onPagePurge } from '../../src/server/page-cache/tags.ts';

useTestDatabase();

/** Everything a failed call must leave untouched. */
async function snapshot() {
  const db = getDb();
  const [followRows, entryRows, messageRows] = await Promise.all([db.select().from(follows), db.select().from(feedEntries), db.select().from(messages)]);
  return { followRows, entryRows, messageRows: messageRows.map((m) => m.id) };
}

async function expectRefused(call: () => Promise<unknown>, errorKey: string) {
  const before = await snapshot();
  await expect(call()).rejects.toMatchObject({ errorKey });
  expect(await snapshot()).toEqual(before);
}

const feedOf = async (userId: number) => (await listFollowingFeed(userId, { page: 1, pageSize: 50 }, 'en-US')).list;
const inbox = async (userId: number) => (await listMessages(userId, { page: 1, pageSize: 50 })).list;

describe('follows', () => {
  it('follows and unfollows members, projects and tags, with counts, and tells a followed member once', async () => {
    const { user: ada } = await createUser({ nickname: 'Ada' });
    const { user: bo } = await createUser({ nickname: 'Bo' });
    const { user: cy } = await createUser({ nickname: 'Cy' });
    const tag = await createTag('rf-follow');
    const project = await createProject(ada.id, {}, [tag.id]);

    expect(await setFollow(bo.id, { kind: 'user', target: ada.customUrl, value: true })).toEqual({ following: true, followers: 1 });
    expect(await setFollow(cy.id, { kind: 'user', target: ada.customUrl, value: true })).toEqual({ following: true, followers: 2 });
    expect(await setFollow(bo.id, { kind: 'project', target: project.publicId, value: true })).toEqual({ following: true, followers: 1 });
    expect(await setFollow(bo.id, { kind: 'tag', target: 'rf-follow', value: true })).toEqual({ following: true, followers: 1 });
    expect(await getFollowState(bo.id, { kind: 'user', target: ada.customUrl })).toMatchObject({ following: true, followers: 2 });
    expect(await getFollowState(null, { kind: 'user', target: ada.customUrl })).toMatchObject({ following: false, followers: 2 });
    expect(await countFollowing(bo.id)).toBe(3);
    expect((await getFollowState(null, { kind: 'user', target: bo.customUrl })).followingCount).toBe(3);

    // Unfollow, follow again: Ada heard about Bo once.
    expect(await setFollow(bo.id, { kind: 'user', target: ada.customUrl, value: false })).toEqual({ following: false, followers: 1 });
    await setFollow(bo.id, { kind: 'user', target: ada.customUrl, value: true });
    const told = (await inbox(ada.id)).filter((m) => m.kind === 'follow');
    expect(told.map((m) => m.actor?.nickname).sort()).toEqual(['Bo', 'Cy']);
  });

  it('purges the guests’ copies that show the counts: the target’s pages and the follower’s', async () => {
    const { user: ada } = await createUser();
    const { user: bo } = await createUser();
    const project = await createProject(ada.id);
    const purged: string[] = [];
    const stop = onPagePurge((tags) => purged.push(...tags));
    try {
      await setFollow(bo.id, { kind: 'user', target: ada.customUrl, value: true });
      expect(purged).toEqual(expect.arrayContaining([`user:${ada.customUrl}`, `user:${bo.customUrl}`]));
      purged.length = 0;
      await setFollow(bo.id, { kind: 'project', target: project.publicId, value: true });
      expect(purged).toEqual(expect.arrayContaining([`project:${project.publicId}`, `user:${bo.customUrl}`]));
    } finally {
      stop();
    }
  });

  it('refuses following yourself, twice, unfollowing what you do not follow, and unknown, deleted or hidden targets, changing nothing', async () => {
    const { user: ada } = await createUser();
    const { user: bo } = await createUser();
    const { user: hiddenMember } = await createUser({ hiddenAt: new Date() });
    const deleted = await createProject(ada.id, { status: 'deleted', deletedAt: new Date() });
    const hidden = await createProject(ada.id, { hiddenAt: new Date() });
    await setFollow(bo.id, { kind: 'user', target: ada.customUrl, value: true });

    await expectRefused(() => setFollow(ada.id, { kind: 'user', target: ada.customUrl, value: true }), 'follow_self');
    await expectRefused(() => setFollow(bo.id, { kind: 'user', target: ada.customUrl, value: true }), 'already_following');
    await expectRefused(() => setFollow(ada.id, { kind: 'user', target: bo.customUrl, value: false }), 'not_following');
    await expectRefused(() => setFollow(bo.id, { kind: 'user', target: 'nobody-here', value: true }), 'user_not_found');
    await expectRefused(() => setFollow(bo.id, { kind: 'user', target: hiddenMember.customUrl, value: true }), 'user_not_found');
    await expectRefused(() => setFollow(bo.id, { kind: 'project', target: deleted.publicId, value: true }), 'project_not_found');
    await expectRefused(() => setFollow(bo.id, { kind: 'project', target: hidden.publicId, value: true }), 'project_not_found');
    await expectRefused(() => setFollow(bo.id, { kind: 'tag', target: 'no-such-tag', value: true }), 'tag_not_found');
    expect(await getFollowState(bo.id, { kind: 'user', target: ada.customUrl })).toMatchObject({ following: true, followers: 1 });
  });
});

describe('the Following feed', () => {
  it('gives each follower of the actor, the project and its tags one entry and one message, never the actor', async () => {
    const { user: author } = await createUser({ nickname: 'Author' });
    const { user: fan } = await createUser({ nickname: 'Fan' });
    const { user: tagFan } = await createUser({ nickname: 'TagFan' });
    const { user: parentFan } = await createUser({ nickname: 'ParentFan' });
    const { user: stranger } = await createUser();
    const parent = await createTag('audio-root');
    const child = await createTag('audio-amps', 'Amps', '功放', parent.id);
    const older = await createProject(author.id, { title: 'Old amp' }, [child.id]);
    await setFollow(fan.id, { kind: 'user', target: author.customUrl, value: true });
    await setFollow(fan.id, { kind: 'project', target: older.publicId, value: true });
    await setFollow(fan.id, { kind: 'tag', target: 'audio-amps', value: true });
    await setFollow(tagFan.id, { kind: 'tag', target: 'audio-amps', value: true });
    await setFollow(parentFan.id, { kind: 'tag', target: 'audio-root', value: true });
    // The author follows their own tag: their own activity never reaches them.
    await setFollow(author.id, { kind: 'tag', target: 'audio-amps', value: true });

    const project = await createProject(author.id, { title: 'Class D amp' }, [child.id]);
    await getDb().transaction((tx) => recordActivity(tx, { kind: 'project', actorId: author.id, projectId: project.id, path: `/d-${project.publicId}` }));
    const logId = await getDb().transaction((tx) => recordActivity(tx, { kind: 'log', actorId: author.id, projectId: older.id, refId: 7, title: 'Week 1: the PCB arrived', path: `/d-${older.publicId}/log/1` }));
    expect(await fanOutActivities()).toBe(2);
    // Done once: a second run delivers nothing again.
    expect(await fanOutActivities()).toBe(0);

    const fanFeed = await feedOf(fan.id);
    expect(fanFeed.map((item) => [item.kind, item.project.title])).toEqual([
      ['log', 'Old amp'],
      ['project', 'Class D amp'],
    ]);
    expect(fanFeed[0]).toMatchObject({ id: logId, title: 'Week 1: the PCB arrived', path: `/d-${older.publicId}/log/1`, actor: { nickname: 'Author' } });
    expect((await feedOf(tagFan.id)).length).toBe(2);
    expect((await feedOf(parentFan.id)).length).toBe(2);
    expect(await feedOf(author.id)).toEqual([]);
    expect(await feedOf(stranger.id)).toEqual([]);

    const fanMessages = await inbox(fan.id);
    expect(fanMessages.map((m) => m.kind).sort()).toEqual(['followed_log', 'followed_project']);
    expect(fanMessages.find((m) => m.kind === 'followed_project')).toMatchObject({ actor: { nickname: 'Author' }, project: { id: project.publicId, title: 'Class D amp' }, path: `/d-${project.publicId}` });
    // A message about a log leads to the log.
    expect(fanMessages.find((m) => m.kind === 'followed_log')?.path).toBe(`/d-${older.publicId}/log/1`);
    expect((await inbox(author.id)).filter((m) => m.kind.startsWith('followed_'))).toEqual([]);
  });

  it('leaves out deleted and hidden projects, and what an unfollowed target brought', async () => {
    const { user: author } = await createUser();
    const { user: other } = await createUser();
    const { user: fan } = await createUser();
    const kept = await createProject(author.id, { title: 'Kept' });
    const gone = await createProject(author.id, { title: 'Gone' });
    const hidden = await createProject(author.id, { title: 'Hidden later' });
    const otherProject = await createProject(other.id, { title: 'Followed project' });
    await setFollow(fan.id, { kind: 'user', target: author.customUrl, value: true });
    await setFollow(fan.id, { kind: 'user', target: other.customUrl, value: true });
    await setFollow(fan.id, { kind: 'project', target: otherProject.publicId, value: true });
    for (const project of [kept, gone, hidden]) {
      await getDb().transaction((tx) => recordActivity(tx, { kind: 'project', actorId: author.id, projectId: project.id, path: `/d-${project.publicId}` }));
    }
    await getDb().transaction((tx) => recordActivity(tx, { kind: 'project', actorId: other.id, projectId: otherProject.id, path: `/d-${otherProject.publicId}` }));
    await fanOutActivities();
    expect((await feedOf(fan.id)).map((item) => item.project.title).sort()).toEqual(['Followed project', 'Gone', 'Hidden later', 'Kept']);

    await getDb().update(projects).set({ status: 'deleted', deletedAt: new Date() }).where(eq(projects.id, gone.id));
    await getDb().update(projects).set({ hiddenAt: new Date() }).where(eq(projects.id, hidden.id));
    expect((await feedOf(fan.id)).map((item) => item.project.title).sort()).toEqual(['Followed project', 'Kept']);

    // Unfollowing the author takes their projects out; the other member's project stays, still
    // brought by following the project itself after unfollowing its author.
    await setFollow(fan.id, { kind: 'user', target: author.customUrl, value: false });
    await setFollow(fan.id, { kind: 'user', target: other.customUrl, value: false });
    expect((await feedOf(fan.id)).map((item) => item.project.title)).toEqual(['Followed project']);
  });

  it('fills a new follower’s feed with the target’s latest activity', async () => {
    const { user: author } = await createUser();
    const { user: fan } = await createUser();
    const project = await createProject(author.id, { title: 'Backfilled' });
    await getDb().transaction((tx) => recordActivity(tx, { kind: 'project', actorId: author.id, projectId: project.id, path: `/d-${project.publicId}` }));
    await fanOutActivities();
    expect(await feedOf(fan.id)).toEqual([]);
    await setFollow(fan.id, { kind: 'user', target: author.customUrl, value: true });
    expect((await feedOf(fan.id)).map((item) => item.project.title)).toEqual(['Backfilled']);
  });

  it('records a new project when it is published', async () => {
    const { user: author } = await createUser();
    const { user: fan } = await createUser();
    await setFollow(fan.id, { kind: 'user', target: author.customUrl, value: true });
    const saved = await saveProject(
      author.id,
      parseInput(saveProjectSchema, { title: 'Published for followers', summary: 's', description: 'd', tags: [], licence: 'MIT', attachments: [], publish: true }),
    );
    const [recorded] = await getDb().select().from(activities).where(and(eq(activities.actorId, author.id), eq(activities.kind, 'project')));
    expect(recorded).toMatchObject({ path: `/d-${saved.id}` });
    await fanOutActivities();
    expect((await feedOf(fan.id)).map((item) => item.project.id)).toEqual([saved.id]);
  });

  it('pages newest first', async () => {
    const { user: author } = await createUser();
    const { user: fan } = await createUser();
    await setFollow(fan.id, { kind: 'user', target: author.customUrl, value: true });
    for (let n = 1; n <= 3; n += 1) {
      const project = await createProject(author.id, { title: `Board ${n}` });
      await getDb().transaction((tx) => recordActivity(tx, { kind: 'project', actorId: author.id, projectId: project.id, path: `/d-${project.publicId}` }));
    }
    await fanOutActivities();
    const first = await listFollowingFeed(fan.id, { page: 1, pageSize: 2 }, 'en-US');
    const second = await listFollowingFeed(fan.id, { page: 2, pageSize: 2 }, 'en-US');
    expect(first.list.map((item) => item.project.title)).toEqual(['Board 3', 'Board 2']);
    expect(first.hasMore).toBe(true);
    expect(second.list.map((item) => item.project.title)).toEqual(['Board 1']);
    expect(second.hasMore).toBe(false);
  });
});

describe('notification settings', () => {
  it('starts with every kind on the site and the old digest kinds by email, and keeps the old email choices', async () => {
    const { user } = await createUser();
    await saveAccountEmailSettings(user.id, { stars: 'never' });
    const settings = await getNotificationSettings(user.id);
    expect(settings.stars).toEqual({ site: true, email: false });
    expect(settings.comments).toEqual({ site: true, email: true });
    expect(settings.follows).toEqual({ site: true, email: false });
    const saved = await saveNotificationSettings(user.id, parseInput(notificationSettingsInput, { comments: { site: false, email: false }, logs: { site: true, email: true } }));
    expect(saved.comments).toEqual({ site: false, email: false });
    expect(saved.logs).toEqual({ site: true, email: true });
    expect(saved.stars).toEqual({ site: true, email: false });
    // The old endpoint sees the same choices.
    expect(await getAccountEmail(user.id)).toMatchObject({ comments: 'never', stars: 'never', replies: 'daily' });
    const [row] = await getDb().select().from(emailPreferences).where(eq(emailPreferences.userId, user.id));
    expect(row?.siteOff).toEqual(['comments']);
  });

  it('refuses an unknown kind', () => {
    expect(() => parseInput(notificationSettingsInput, { pokes: { site: true, email: true } })).toThrow();
  });

  it('creates no site message of a kind turned off: stars, follows, and followed logs', async () => {
    const { user: author } = await createUser();
    const { user: fan } = await createUser();
    const project = await createProject(author.id);
    await saveNotificationSettings(author.id, { stars: { site: false, email: true }, follows: { site: false, email: false } });
    await saveNotificationSettings(fan.id, { logs: { site: false, email: false } });
    expect(await notifyProjectStarred(fan.id, project.id)).toBe(false);
    await setFollow(fan.id, { kind: 'user', target: author.customUrl, value: true });
    expect(await inbox(author.id)).toEqual([]);

    await getDb().transaction((tx) => recordActivity(tx, { kind: 'log', actorId: author.id, projectId: project.id, refId: 1, title: 'Log', path: `/d-${project.publicId}/log/1` }));
    await getDb().transaction((tx) => recordActivity(tx, { kind: 'version', actorId: author.id, projectId: project.id, refId: 1, title: 'v2', path: `/d-${project.publicId}/versions` }));
    await fanOutActivities();
    // The feed has both; the messages only the kind still on.
    expect((await feedOf(fan.id)).map((item) => item.kind).sort()).toEqual(['log', 'version']);
    expect((await inbox(fan.id)).map((m) => m.kind)).toEqual(['followed_version']);
  });

  it('mails news from what a member follows in the digest only when they chose it', async () => {
    const { user: author } = await createUser();
    const { user: keen } = await createUser();
    const { user: quiet } = await createUser();
    for (const member of [keen, quiet]) {
      await getDb().insert(credentials).values({ userId: member.id, email: `${member.customUrl}@example.com`, passwordHash: 'x' });
      await setFollow(member.id, { kind: 'user', target: author.customUrl, value: true });
    }
    await saveNotificationSettings(keen.id, { follows: { site: true, email: true } });
    const project = await createProject(author.id);
    await getDb().transaction((tx) => recordActivity(tx, { kind: 'project', actorId: author.id, projectId: project.id, path: `/d-${project.publicId}` }));
    await fanOutActivities();
    // Both have the message on the site; only the one who chose email gets a digest.
    expect((await inbox(quiet.id)).map((m) => m.kind)).toEqual(['followed_project']);
    expect(await sendDailyDigests()).toEqual({ mailed: 1 });
    const [claimed] = await getDb().select().from(emailPreferences).where(eq(emailPreferences.userId, keen.id));
    expect(claimed?.lastDigestOn).not.toBeNull();
  });
});
