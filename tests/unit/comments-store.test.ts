import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/lib/api-client.ts';
import { DRAFT_TTL_MS, readDraft, rememberPendingLike, takePendingLike, writeDraft } from '../../src/lib/comment-drafts.ts';
import type { CommentThread } from '../../src/lib/conversation-types.ts';
import { contentProblem, createComments, postFailure } from '../../src/stores/comments.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const author = { url: 'ada', nickname: 'Ada', avatar: null };
const first: CommentThread = { id: 1, content: 'First', links: [], author, replyTo: null, parentId: null, likeCount: 2, liked: false, createdAt: '2026-03-01T12:00:00.000Z', deleted: false, canDelete: true, byOwner: false, replies: [], replyCount: 0 };

const init = (viewer: typeof author | null = author) => ({
  projectId: 'p1',
  commentCount: 1,
  initial: { list: [first], total: 1, page: 1, pageSize: 20 },
  sort: 'newest' as const,
  focus: null,
  focusId: null,
  viewer,
  signInUrl: '/sso/login',
  maxLength: 10,
});

describe('the comments store', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('sessionStorage', memoryStorage());
  });

  it('refuses empty and too long text before sending, counting characters as readers do', () => {
    expect(contentProblem('   ', 10)).toEqual({ key: 'comments.composer.empty', alert: true });
    expect(contentProblem('👍🏽'.repeat(10), 10)).toBeNull();
    expect(contentProblem('x'.repeat(11), 10)).toEqual({ key: 'comments.composer.tooLong', values: { max: '10' }, alert: true });
  });

  it('says why posting failed in the composer’s words when the server names the content', () => {
    expect(postFailure(new ApiError(400, 'validation', 'x', { content: 'too_big' }), 2000)).toMatchObject({ key: 'comments.composer.tooLong' });
    expect(postFailure(new ApiError(400, 'validation', 'x', { content: 'required' }), 2000)).toMatchObject({ key: 'comments.composer.empty' });
    const limited = new ApiError(429, 'rate_limited', 'x');
    expect(postFailure(limited, 2000)).toEqual({ error: limited });
  });

  it('keeps what is typed as a draft, and a reply draft only for the comment it answers', () => {
    const comments = createComments(init());
    comments.setText('Half a thought');
    expect(readDraft('p1', 'comment')?.text).toBe('Half a thought');
    comments.openReply(1, first);
    comments.setReplyText('A reply');
    expect(readDraft('p1', 'reply')).toMatchObject({ text: 'A reply', commentId: 1 });
    comments.closeReply();
    expect(comments.$comments.get().reply).toBeNull();
    expect(readDraft('p1', 'reply')).toBeNull();
    writeDraft('p1', 'reply', { text: 'Kept', commentId: 1 });
    comments.openReply(1, first);
    expect(comments.$comments.get().reply).toMatchObject({ threadId: 1, target: { id: 1 }, text: 'Kept' });
    comments.openReply(1, { ...first, id: 2 });
    expect(comments.$comments.get().reply?.text).toBe('');
  });

  it('shows the problem instead of sending an empty comment, and clears it on typing', async () => {
    const comments = createComments(init());
    await comments.submit();
    expect(comments.$comments.get().composer.error).toMatchObject({ key: 'comments.composer.empty' });
    comments.setText('Better');
    expect(comments.$comments.get().composer.error).toBeNull();
  });

  it('asks before deleting and forgets the question when cancelled', () => {
    const comments = createComments(init());
    comments.askDelete(first);
    expect(comments.$comments.get().confirm?.id).toBe(1);
    comments.cancelDelete();
    expect(comments.$comments.get().confirm).toBeNull();
  });
});

describe('comment drafts', () => {
  it('are forgotten after a week, and when blank', () => {
    const storage = memoryStorage();
    writeDraft('p1', 'comment', { text: 'Old' }, storage, 0);
    expect(readDraft('p1', 'comment', storage, DRAFT_TTL_MS)?.text).toBe('Old');
    expect(readDraft('p1', 'comment', storage, DRAFT_TTL_MS + 1)).toBeNull();
    writeDraft('p1', 'comment', { text: '  ' }, storage, 0);
    expect(storage.length).toBe(0);
  });

  it('finish a guest’s like once, on the same project only', () => {
    const storage = memoryStorage();
    rememberPendingLike('p1', 7, storage);
    expect(takePendingLike('p2', storage)).toBeNull();
    rememberPendingLike('p1', 7, storage);
    expect(takePendingLike('p1', storage)).toBe(7);
    expect(takePendingLike('p1', storage)).toBeNull();
  });
});
