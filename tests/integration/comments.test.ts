import { eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser as createAnyUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { comments, messages, projects } from '../../src/server/db/schema/index.ts';
import { parseInput, z } from '../../src/server/http/validation.ts';
import {
  commentContentSchema,
  deleteComment,
  getCommentThread,
  likeComment,
  listComments,
  replyToComment,
  submitComment,
  type CommentItem,
  type CommentThread,
} from '../../src/server/services/community/index.ts';

useTestDatabase();

/**
 * Members past their first day: these tests are about what established members do; what a new
 * account may not (links, a faster pace) is tested in spam-controls.test.ts.
 */
const createUser = (overrides: Parameters<typeof createAnyUser>[0] = {}) =>
  createAnyUser({ createdAt: new Date(Date.now() - 7 * 24 * 60 * 60 * 1000), ...overrides });

async function commentCount(projectId: number): Promise<number> {
  const [row] = await getDb().select({ n: projects.commentCount }).from(projects).where(eq(projects.id, projectId));
  return row!.n;
}

async function storedComments(projectId: number) {
  return getDb().select().from(comments).where(eq(comments.projectId, projectId));
}

const threads = async (publicId: string, viewerId: number | null, sort: 'newest' | 'oldest' = 'newest') =>
  (await listComments({ id: publicId, page: 1, pageSize: 20, sort }, viewerId)).list as CommentThread[];

describe('comments', () => {
  it('carry the links of their text, found by the server (the browser has no link finder)', async () => {
    const { user: owner } = await createUser();
    const project = await createProject(owner.id);
    const comment = await submitComment(owner.id, project.publicId, 'Datasheet: example.com/ds.pdf');
    expect(comment.links).toEqual([{ start: 11, end: 29, href: 'http://example.com/ds.pdf' }]);
    const reply = await replyToComment(owner.id, comment.id, 'Thanks');
    expect(reply.links).toEqual([]);
    expect((await threads(project.publicId, null))[0]!.links).toEqual(comment.links);
  });

  it('lists top-level comments newest or oldest first, each with its newest three replies and the reply count', async () => {
    const { user: owner } = await createUser({ nickname: 'Owner' });
    const { user: ada } = await createUser({ nickname: 'Ada' });
    const { user: bob } = await createUser({ nickname: 'Bob' });
    const project = await createProject(owner.id);
    const first = await submitComment(ada.id, project.publicId, 'First!\nWith a second line');
    const second = await submitComment(bob.id, project.publicId, 'Second');
    const replies: CommentItem[] = [];
    for (let i = 1; i <= 5; i += 1) replies.push(await replyToComment(i % 2 ? owner.id : bob.id, first.id, `Reply ${i}`));

    const newest = await threads(project.publicId, null);
    expect(newest.map((thread) => thread.id)).toEqual([second.id, first.id]);
    const thread = newest[1]!;
    expect(thread.content).toBe('First!\nWith a second line');
    expect(thread.author).toEqual({ url: ada.customUrl, nickname: 'Ada', avatar: null });
    expect(thread.replyCount).toBe(5);
    // the newest three, in the order they were written
    expect(thread.replies.map((reply) => reply.content)).toEqual(['Reply 3', 'Reply 4', 'Reply 5']);
    expect(thread.replies[0]!.replyTo).toEqual({ url: ada.customUrl, nickname: 'Ada' });
    expect(thread.replies[0]!.byOwner).toBe(true);

    const oldest = await threads(project.publicId, null, 'oldest');
    expect(oldest.map((t) => t.id)).toEqual([first.id, second.id]);

    // the rest of a thread pages through comment/list with commentId, oldest first
    const more = await listComments({ id: project.publicId, page: 1, pageSize: 2, commentId: first.id }, null);
    expect(more.total).toBe(5);
    expect(more.list.map((reply) => reply.content)).toEqual(['Reply 1', 'Reply 2']);
    const page2 = await listComments({ id: project.publicId, page: 2, pageSize: 2, commentId: first.id }, null);
    expect(page2.list.map((reply) => reply.content)).toEqual(['Reply 3', 'Reply 4']);

    // a reply to a reply stays in the thread and names whom it answers
    const answer = await replyToComment(ada.id, replies[1]!.id, 'Thanks Bob');
    expect(answer.parentId).toBe(first.id);
    expect(answer.replyTo).toEqual({ url: bob.customUrl, nickname: 'Bob' });
    expect(await commentCount(project.id)).toBe(8);
  });

  it('counts the top-level comments on every page, also past the last one and with none', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const project = await createProject(owner.id);
    const page = (n: number, pageSize = 2) => listComments({ id: project.publicId, page: n, pageSize }, ada.id);
    expect(await page(1)).toMatchObject({ list: [], total: 0 });
    for (const text of ['One', 'Two', 'Three']) await submitComment(ada.id, project.publicId, text);
    await replyToComment(owner.id, (await page(1)).list[0]!.id, 'A reply is not counted');
    expect(await page(1)).toMatchObject({ total: 3 });
    expect((await page(2)).list).toHaveLength(1);
    expect(await page(2)).toMatchObject({ total: 3 });
    expect(await page(5)).toMatchObject({ list: [], total: 3 });
  });

  it('tells each viewer what they liked and what they may delete', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const { user: bob } = await createUser();
    const project = await createProject(owner.id);
    const comment = await submitComment(ada.id, project.publicId, 'Nice board');
    await likeComment(bob.id, comment.id, true);

    const [asBob] = await threads(project.publicId, bob.id);
    expect(asBob).toMatchObject({ liked: true, likeCount: 1, canDelete: false });
    const [asAda] = await threads(project.publicId, ada.id);
    expect(asAda).toMatchObject({ liked: false, likeCount: 1, canDelete: true });
    const [asOwner] = await threads(project.publicId, owner.id);
    expect(asOwner!.canDelete).toBe(true);
    const [asGuest] = await threads(project.publicId, null);
    expect(asGuest).toMatchObject({ liked: false, canDelete: false });
  });

  it('tells a member which replies they liked, in the thread preview, the replies page and a linked thread', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const { user: bob } = await createUser();
    const project = await createProject(owner.id);
    const comment = await submitComment(ada.id, project.publicId, 'Which regulator?');
    const liked = await replyToComment(owner.id, comment.id, 'An AP2112');
    const other = await replyToComment(owner.id, comment.id, 'Or an LDO of your choice');
    await likeComment(bob.id, liked.id, true);

    const likedIn = (replies: CommentItem[]) => Object.fromEntries(replies.map((reply) => [reply.id, reply.liked]));
    const [asBob] = await threads(project.publicId, bob.id);
    expect(likedIn(asBob!.replies)).toEqual({ [liked.id]: true, [other.id]: false });
    const page = await listComments({ id: project.publicId, page: 1, pageSize: 20, commentId: comment.id }, bob.id);
    expect(likedIn(page.list)).toEqual({ [liked.id]: true, [other.id]: false });
    const focused = await getCommentThread(project.publicId, other.id, bob.id);
    expect(likedIn(focused!.replies)).toEqual({ [liked.id]: true, [other.id]: false });
    const [asAda] = await threads(project.publicId, ada.id);
    expect(likedIn(asAda!.replies)).toEqual({ [liked.id]: false, [other.id]: false });
  });

  it('likes idempotently and toggles off', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const project = await createProject(owner.id);
    const comment = await submitComment(owner.id, project.publicId, 'Build notes');
    expect(await likeComment(ada.id, comment.id, true)).toEqual({ liked: true, likeCount: 1 });
    expect(await likeComment(ada.id, comment.id, true)).toEqual({ liked: true, likeCount: 1 });
    expect(await likeComment(ada.id, comment.id, false)).toEqual({ liked: false, likeCount: 0 });
    expect(await likeComment(ada.id, comment.id, false)).toEqual({ liked: false, likeCount: 0 });
  });

  it('lets only the author and the project owner delete, keeping the count exact', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const { user: mallory } = await createUser();
    const project = await createProject(owner.id);
    const comment = await submitComment(ada.id, project.publicId, 'Where is the BOM?');
    const other = await submitComment(ada.id, project.publicId, 'Found it');
    expect(await commentCount(project.id)).toBe(2);

    await expect(deleteComment(mallory.id, comment.id)).rejects.toMatchObject({ status: 403, errorKey: 'forbidden' });
    const [unchanged] = await getDb().select().from(comments).where(eq(comments.id, comment.id));
    expect(unchanged!.deletedAt).toBeNull();
    expect(await commentCount(project.id)).toBe(2);

    expect(await deleteComment(owner.id, comment.id)).toEqual({ commentId: comment.id });
    expect(await commentCount(project.id)).toBe(1);
    expect(await deleteComment(ada.id, other.id)).toEqual({ commentId: other.id });
    expect(await commentCount(project.id)).toBe(0);
    expect(await threads(project.publicId, null)).toEqual([]);
    // deleting twice is a 404, not a second decrement
    await expect(deleteComment(ada.id, other.id)).rejects.toMatchObject({ status: 404, errorKey: 'comment_not_found' });
    expect(await commentCount(project.id)).toBe(0);
  });

  it('keeps a deleted comment with replies as a tombstone, and drops it once its replies are gone', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser({ nickname: 'Ada' });
    const { user: bob } = await createUser({ nickname: 'Bob' });
    const project = await createProject(owner.id);
    const parent = await submitComment(ada.id, project.publicId, 'Is the footprint right?');
    const reply = await replyToComment(bob.id, parent.id, 'Yes, checked it');
    await deleteComment(ada.id, parent.id);

    const [tombstone] = await threads(project.publicId, bob.id);
    expect(tombstone).toMatchObject({ id: parent.id, deleted: true, content: '', author: null, canDelete: false, replyCount: 1 });
    expect(tombstone!.replies.map((r) => r.id)).toEqual([reply.id]);
    expect(await commentCount(project.id)).toBe(1);
    // nobody can like or answer the tombstone itself, but the thread goes on
    await expect(likeComment(bob.id, parent.id, true)).rejects.toMatchObject({ status: 404 });
    await expect(replyToComment(bob.id, parent.id, 'hello?')).rejects.toMatchObject({ status: 404, errorKey: 'comment_not_found' });

    await deleteComment(bob.id, reply.id);
    expect(await threads(project.publicId, null)).toEqual([]);
    expect(await commentCount(project.id)).toBe(0);
    const page = await listComments({ id: project.publicId, page: 1, pageSize: 20 }, null);
    expect(page.total).toBe(0);
  });

  it('renders the thread of a linked comment in full', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const project = await createProject(owner.id);
    const parent = await submitComment(ada.id, project.publicId, 'Thread');
    const replies = [];
    for (let i = 0; i < 6; i += 1) replies.push(await replyToComment(owner.id, parent.id, `r${i}`));
    const thread = await getCommentThread(project.publicId, replies[0]!.id, null);
    expect(thread!.id).toBe(parent.id);
    expect(thread!.replies.map((r) => r.content)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
    expect(await getCommentThread(project.publicId, 999_999, null)).toBeNull();
    const elsewhere = await createProject(owner.id);
    expect(await getCommentThread(elsewhere.publicId, parent.id, null)).toBeNull();
  });

  it('rejects empty, too long and missing-project comments without storing anything', async () => {
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const project = await createProject(owner.id);
    const deleted = await createProject(owner.id, { status: 'deleted' });

    await expect(submitComment(ada.id, project.publicId, '')).rejects.toMatchObject({ status: 400, errorKey: 'validation', fields: { content: 'required' } });
    await expect(submitComment(ada.id, project.publicId, '  \n\t ')).rejects.toMatchObject({ status: 400, fields: { content: 'required' } });
    await expect(submitComment(ada.id, project.publicId, 'x'.repeat(2001))).rejects.toMatchObject({ status: 400, fields: { content: 'too_big' } });
    await expect(submitComment(ada.id, 'no-such-project', 'Hello')).rejects.toMatchObject({ status: 404, errorKey: 'project_not_found' });
    await expect(submitComment(ada.id, deleted.publicId, 'Hello')).rejects.toMatchObject({ status: 404, errorKey: 'project_not_found' });
    await expect(listComments({ id: deleted.publicId, page: 1, pageSize: 20 }, null)).rejects.toMatchObject({ status: 404, errorKey: 'project_not_found' });
    expect(await storedComments(project.id)).toEqual([]);
    expect(await storedComments(deleted.id)).toEqual([]);
    expect(await commentCount(project.id)).toBe(0);
    expect(await getDb().select().from(messages).where(inArray(messages.projectId, [project.id, deleted.id]))).toEqual([]);

    // exactly 2,000 characters as the reader counts them is fine, even when they are emoji
    const thumbs = '👍🏽'.repeat(2000);
    const accepted = await submitComment(ada.id, project.publicId, thumbs);
    expect(accepted.content).toBe(thumbs);
    await expect(submitComment(ada.id, project.publicId, `${thumbs}!`)).rejects.toMatchObject({ fields: { content: 'too_big' } });
  });

  it('validates endpoint input with the same schema (field errors for the form)', () => {
    const schema = z.object({ id: z.string().min(1), content: commentContentSchema });
    expect(() => parseInput(schema, { id: 'x', content: 'y'.repeat(2001) })).toThrow(expect.objectContaining({ fields: { content: 'too_big' } }));
    expect(() => parseInput(schema, { id: 'x', content: '' })).toThrow(expect.objectContaining({ fields: { content: 'required' } }));
    expect(() => parseInput(schema, { id: 'x' })).toThrow(expect.objectContaining({ fields: { content: 'required' } }));
    expect(parseInput(schema, { id: 'x', content: '  line one\r\nline two  ' }).content).toBe('line one\nline two');
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('rate-limits writing to ten comments a minute per user', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-05-01T12:00:20Z'));
    const { user: owner } = await createUser();
    const { user: ada } = await createUser();
    const project = await createProject(owner.id);
    for (let i = 0; i < 10; i += 1) await submitComment(ada.id, project.publicId, `comment ${i}`);
    await expect(submitComment(ada.id, project.publicId, 'one too many')).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
    await expect(replyToComment(ada.id, (await threads(project.publicId, null))[0]!.id, 'reply')).rejects.toMatchObject({ status: 429 });
    expect(await commentCount(project.id)).toBe(10);
    // someone else is not affected
    await submitComment(owner.id, project.publicId, 'still open');
    expect(await commentCount(project.id)).toBe(11);
    // once a full minute has passed without writing, writing is open again
    vi.setSystemTime(new Date('2030-05-01T12:02:05Z'));
    await submitComment(ada.id, project.publicId, 'a minute later');
    expect(await commentCount(project.id)).toBe(12);
  });
});

describe('comments under concurrency', () => {
  it.each([1, 2, 3, 4])('keeps counts exact when people write, reply, like and delete at the same time (round %i)', async () => {
    const { user: owner } = await createUser();
    const people = await Promise.all(Array.from({ length: 6 }, () => createUser()));
    const project = await createProject(owner.id);
    const roots = await Promise.all(people.slice(0, 3).map(({ user }, i) => submitComment(user.id, project.publicId, `root ${i}`)));
    const results = await Promise.allSettled([
      ...people.map(({ user }, i) => replyToComment(user.id, roots[i % 3]!.id, `reply ${i}`)),
      ...people.map(({ user }) => likeComment(user.id, roots[0]!.id, true)),
      deleteComment(owner.id, roots[1]!.id),
      ...people.map(({ user }) => submitComment(user.id, project.publicId, 'more')),
    ]);
    // the only possible refusal: answering the comment that was deleted meanwhile (no deadlocks)
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ status: 404, errorKey: 'comment_not_found' });
    }
    const rows = await storedComments(project.id);
    const alive = rows.filter((row) => row.deletedAt === null);
    expect(await commentCount(project.id)).toBe(alive.length);
    for (const root of rows.filter((row) => row.parentId === null)) {
      expect(root.replyCount).toBe(alive.filter((row) => row.parentId === root.id).length);
    }
    expect(rows.find((row) => row.id === roots[0]!.id)!.likeCount).toBe(6);
  });
});
