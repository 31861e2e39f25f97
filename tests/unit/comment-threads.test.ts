import { describe, expect, it } from 'vitest';
import { addReply, addThread, findComment, mergeReplies, patchComment, removeComment, signInAddress, withPage } from '../../src/lib/comment-threads.ts';
import type { CommentItem, CommentThread } from '../../src/lib/conversation-types.ts';

const author = { url: 'ada', nickname: 'Ada', avatar: null };

function reply(id: number, parentId: number, minute: number): CommentItem {
  return { id, content: `reply ${id}`, links: [], author, replyTo: { url: 'ada', nickname: 'Ada' }, parentId, likeCount: 0, liked: false, createdAt: `2026-03-01T12:${String(minute).padStart(2, '0')}:00.000Z`, deleted: false, canDelete: true, byOwner: false };
}

function thread(id: number, replies: CommentItem[] = [], replyCount = replies.length): CommentThread {
  return { ...reply(id, 0, 0), parentId: null, replyTo: null, content: `comment ${id}`, replies, replyCount };
}

describe('comment threads', () => {
  it('merge replies once each, in the order they were written', () => {
    const merged = mergeReplies([reply(3, 1, 3), reply(2, 1, 2)], [reply(4, 1, 1), { ...reply(3, 1, 3), likeCount: 5 }]);
    expect(merged.map((item) => item.id)).toEqual([4, 2, 3]);
    expect(merged.find((item) => item.id === 3)!.likeCount).toBe(0);
  });

  it('change a comment wherever it is shown: in the page and in the linked thread', () => {
    const linked = thread(1, [reply(2, 1, 1)]);
    const shown = patchComment({ threads: [linked, thread(5)], focus: linked }, 2, { liked: true, likeCount: 1 });
    expect(shown.threads[0]!.replies[0]).toMatchObject({ liked: true, likeCount: 1 });
    expect(shown.focus!.replies[0]).toMatchObject({ liked: true, likeCount: 1 });
    expect(findComment(shown, 2)).toMatchObject({ thread: { id: 1 }, item: { id: 2, liked: true } });
    expect(findComment(shown, 99)).toBeNull();
  });

  it('put a new comment first when the newest come first, else last; a reply into its thread', () => {
    const shown = { threads: [thread(1), thread(2)], focus: null };
    expect(addThread(shown, thread(3), 'newest').threads.map((item) => item.id)).toEqual([3, 1, 2]);
    expect(addThread(shown, thread(3), 'oldest').threads.map((item) => item.id)).toEqual([1, 2, 3]);
    const answered = addReply(shown, reply(7, 2, 5));
    expect(answered.threads[1]).toMatchObject({ replyCount: 1, replies: [{ id: 7 }] });
  });

  it('keep a deleted comment with replies as a tombstone and drop one without', () => {
    const shown = { threads: [thread(1, [reply(2, 1, 1)]), thread(3)], focus: null };
    const tombstone = removeComment(shown, shown.threads[0]!);
    expect(tombstone.removedThread).toBe(false);
    expect(tombstone.threads[0]).toMatchObject({ id: 1, deleted: true, content: '', author: null, canDelete: false });
    const gone = removeComment(shown, shown.threads[1]!);
    expect(gone.removedThread).toBe(true);
    expect(gone.threads.map((item) => item.id)).toEqual([1]);
    // the last reply of a tombstone takes the tombstone with it
    const emptied = removeComment(tombstone, reply(2, 1, 1));
    expect(emptied.threads.map((item) => item.id)).toEqual([3]);
  });

  it('append further pages without repeating a thread, or replace them for another order', () => {
    const shown = [thread(1), thread(2)];
    expect(withPage(shown, [thread(2), thread(3)], false).map((item) => item.id)).toEqual([1, 2, 3]);
    expect(withPage(shown, [thread(9)], true).map((item) => item.id)).toEqual([9]);
  });

  it('send guests to sign in with a way back to the comments, or to the comment they acted on', () => {
    const here = 'https://copperhub.test/d-abc?commentSort=oldest';
    const signIn = '/sso/login?redirect=https%3A%2F%2Fcopperhub.test%2Fd-abc&siteId=copperhub';
    const toComments = new URL(signInAddress(signIn, here));
    expect(toComments.pathname).toBe('/sso/login');
    expect(toComments.searchParams.get('siteId')).toBe('copperhub');
    expect(toComments.searchParams.get('redirect')).toBe('https://copperhub.test/d-abc#comments');
    const toComment = new URL(signInAddress(signIn, here, 42));
    expect(toComment.searchParams.get('redirect')).toBe('https://copperhub.test/d-abc?comment=42#comment-42');
  });
});
