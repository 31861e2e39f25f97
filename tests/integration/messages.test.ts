import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { messages, projects } from '../../src/server/db/schema/index.ts';
import { deleteComment, likeComment, replyToComment, submitComment } from '../../src/server/services/community/index.ts';
import { countUnreadMessages, listMessages, markAllMessagesRead, markMessageRead, notifyProjectLiked, notifyProjectStarred } from '../../src/server/services/notifications/index.ts';
import { getUserInfo } from '../../src/server/services/accounts/index.ts';

useTestDatabase();

const inbox = (userId: number, unreadOnly = false) => listMessages(userId, { page: 1, pageSize: 50, unreadOnly });

describe('messages', () => {
  it('tells the owner about comments and the author about replies, and nobody about their own actions', async () => {
    const { user: alice } = await createUser({ nickname: 'Alice' });
    const { user: bob } = await createUser({ nickname: 'Bob' });
    const project = await createProject(alice.id, { title: 'Tiny synth' });
    const aliceComment = await submitComment(alice.id, project.publicId, 'Ask me anything');
    const bobComment = await submitComment(bob.id, project.publicId, 'What oscillator did you use?');
    const bobReply = await replyToComment(bob.id, aliceComment.id, 'Great project');
    await replyToComment(alice.id, bobComment.id, 'An LM13700');
    await replyToComment(alice.id, aliceComment.id, 'Answering myself');

    const forAlice = await inbox(alice.id);
    expect(forAlice.unread).toBe(2);
    expect(forAlice.total).toBe(2);
    expect(forAlice.list.map((m) => m.kind).sort()).toEqual(['comment', 'reply']);
    const reply = forAlice.list.find((m) => m.kind === 'reply')!;
    expect(reply).toMatchObject({
      actor: { url: bob.customUrl, nickname: 'Bob', avatar: null },
      project: { id: project.publicId, title: 'Tiny synth' },
      comment: { id: bobReply.id, excerpt: 'Great project' },
      read: false,
    });
    const comment = forAlice.list.find((m) => m.kind === 'comment')!;
    expect(comment.comment).toEqual({ id: bobComment.id, excerpt: 'What oscillator did you use?' });

    const forBob = await inbox(bob.id);
    expect(forBob.list.map((m) => [m.kind, m.actor?.nickname])).toEqual([['reply', 'Alice']]);
    expect(forBob.list.every((m) => m.actor?.url !== bob.customUrl)).toBe(true);
  });

  it('tells the owner and the answered author once each when a third person replies', async () => {
    const { user: owner } = await createUser();
    const { user: carol } = await createUser();
    const { user: dave } = await createUser();
    const project = await createProject(owner.id);
    const carolComment = await submitComment(carol.id, project.publicId, 'Question');
    await replyToComment(dave.id, carolComment.id, 'Answer');
    expect((await inbox(carol.id)).list.map((m) => m.kind)).toEqual(['reply']);
    expect((await inbox(owner.id)).list.map((m) => m.kind)).toEqual(['comment', 'comment']);
  });

  it('notifies a comment like once, however often it is toggled, and never for your own comment', async () => {
    const { user: owner } = await createUser();
    const { user: fan } = await createUser();
    const project = await createProject(owner.id);
    const comment = await submitComment(owner.id, project.publicId, 'Rev B is out');
    for (const value of [true, false, true, false, true]) await likeComment(fan.id, comment.id, value);
    await likeComment(owner.id, comment.id, true);
    const likes = (await inbox(owner.id)).list.filter((m) => m.kind === 'comment_like');
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({ actor: { url: fan.customUrl }, comment: { id: comment.id } });
  });

  it('notifies stars and likes of a project once per person, never the owner about themselves', async () => {
    const { user: owner } = await createUser();
    const { user: fan } = await createUser({ nickname: 'Fan' });
    const project = await createProject(owner.id, { title: 'Desk clock' });
    expect(await notifyProjectStarred(fan.id, project.id)).toBe(true);
    expect(await notifyProjectStarred(fan.id, project.id)).toBe(false);
    expect(await notifyProjectLiked(fan.id, project.id)).toBe(true);
    expect(await notifyProjectLiked(fan.id, project.id)).toBe(false);
    expect(await notifyProjectStarred(owner.id, project.id)).toBe(false);
    expect(await notifyProjectLiked(owner.id, project.id)).toBe(false);
    const list = (await inbox(owner.id)).list;
    expect(list.map((m) => m.kind).sort()).toEqual(['like', 'star']);
    expect(list[0]).toMatchObject({ actor: { nickname: 'Fan' }, project: { id: project.publicId, title: 'Desk clock' }, comment: null });
    expect(await inbox(fan.id)).toMatchObject({ total: 0, unread: 0 });
  });

  it('lists unread first, then newest, pages, and filters unread only', async () => {
    const { user: owner } = await createUser();
    const project = await createProject(owner.id);
    const fans = [];
    for (let i = 0; i < 4; i += 1) fans.push((await createUser({ nickname: `Fan ${i}` })).user);
    for (const fan of fans) await notifyProjectStarred(fan.id, project.id);
    const all = await inbox(owner.id);
    expect(all.list.map((m) => m.actor?.nickname)).toEqual(['Fan 3', 'Fan 2', 'Fan 1', 'Fan 0']);
    // reading the newest puts it after the unread ones
    await markMessageRead(owner.id, all.list[0]!.id);
    const after = await inbox(owner.id);
    expect(after.list.map((m) => [m.actor?.nickname, m.read])).toEqual([
      ['Fan 2', false],
      ['Fan 1', false],
      ['Fan 0', false],
      ['Fan 3', true],
    ]);
    expect(after.unread).toBe(3);
    const unreadOnly = await inbox(owner.id, true);
    expect(unreadOnly).toMatchObject({ total: 3, unread: 3 });
    const page2 = await listMessages(owner.id, { page: 2, pageSize: 3 });
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page2.list.map((m) => m.actor?.nickname)).toEqual(['Fan 3']);
  });

  it('marks one message read (only your own) and all read', async () => {
    const { user: owner } = await createUser();
    const { user: other } = await createUser();
    const { user: fan } = await createUser();
    const project = await createProject(owner.id);
    await submitComment(fan.id, project.publicId, 'One');
    await submitComment(fan.id, project.publicId, 'Two');
    await submitComment(fan.id, project.publicId, 'Three');
    const { list } = await inbox(owner.id);
    expect(await countUnreadMessages(owner.id)).toBe(3);

    await expect(markMessageRead(other.id, list[0]!.id)).rejects.toMatchObject({ status: 404, errorKey: 'message_not_found' });
    expect(await countUnreadMessages(owner.id)).toBe(3);

    expect(await markMessageRead(owner.id, list[0]!.id)).toEqual({ id: list[0]!.id, unread: 2 });
    expect(await markMessageRead(owner.id, list[0]!.id)).toEqual({ id: list[0]!.id, unread: 2 });
    expect((await getUserInfo(owner.id)).unreadMessages).toBe(2);
    expect(await markAllMessagesRead(owner.id)).toEqual({ updated: 2 });
    expect(await markAllMessagesRead(owner.id)).toEqual({ updated: 0 });
    expect(await inbox(owner.id)).toMatchObject({ unread: 0, total: 3 });
    expect((await inbox(owner.id, true)).list).toEqual([]);
    expect((await getUserInfo(owner.id)).unreadMessages).toBe(0);
  });

  it('hides the excerpt of a deleted comment and the link to a deleted project', async () => {
    const { user: owner } = await createUser();
    const { user: fan } = await createUser();
    const project = await createProject(owner.id);
    const comment = await submitComment(fan.id, project.publicId, 'Oops, wrong project');
    await deleteComment(fan.id, comment.id);
    const [message] = (await inbox(owner.id)).list;
    expect(message).toMatchObject({ kind: 'comment', comment: null, project: { id: project.publicId } });
    await getDb().update(projects).set({ status: 'deleted' }).where(eq(projects.id, project.id));
    const [hidden] = (await inbox(owner.id)).list;
    expect(hidden!.project).toBeNull();
  });

  it('stores messages with a dedupe key only for toggles', async () => {
    const { user: owner } = await createUser();
    const { user: fan } = await createUser();
    const project = await createProject(owner.id);
    await submitComment(fan.id, project.publicId, 'a');
    await submitComment(fan.id, project.publicId, 'b');
    const rows = await getDb().select().from(messages).where(eq(messages.recipientId, owner.id));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.dedupeKey === null)).toBe(true);
  });
});

describe('messages from project reactions', () => {
  it('stars and likes tell the owner once per person, however often they are toggled', async () => {
    const { setProjectLike, setProjectStar } = await import('../../src/server/services/projects/index.ts');
    const { user: owner } = await createUser();
    const { user: fan } = await createUser({ nickname: 'Toggler' });
    const project = await createProject(owner.id, { title: 'Reaction board' });
    for (const value of [true, false, true, false, true]) {
      await setProjectStar(fan.id, project.publicId, value);
      await setProjectLike(fan.id, project.publicId, value);
    }
    await setProjectStar(owner.id, project.publicId, true);
    await setProjectLike(owner.id, project.publicId, true);
    const list = (await inbox(owner.id)).list;
    expect(list.map((m) => [m.kind, m.actor?.nickname, m.project?.title]).sort()).toEqual([
      ['like', 'Toggler', 'Reaction board'],
      ['star', 'Toggler', 'Reaction board'],
    ]);
  });
});
