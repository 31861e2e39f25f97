import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import { readDraft, rememberPendingLike, takePendingLike, writeDraft } from '../lib/comment-drafts.ts';
import { addReply, addThread, findComment, mergeReplies, mapThreads, patchComment, removeComment, signInAddress, withPage, type ShownThreads } from '../lib/comment-threads.ts';
import type { CommentItem, CommentSort, CommentThread, CommentUser, ListPage } from '../lib/conversation-types.ts';
import { fail, say, warn, type Notice } from '../lib/notice.ts';
import { countCharacters } from '../lib/text.ts';
import { createConfirmAction } from './confirm-action.ts';

const REPLY_PAGE_SIZE = 50;

export interface CommentsInit {
  /** The project's public id. */
  projectId: string;
  /** The number of the project's build log these comments are on; absent for the project's own. */
  logN?: number | undefined;
  /** The project's (or the log's) comment count (comments and replies, deleted ones excluded). */
  commentCount: number;
  /** The page of top-level comments the server rendered. */
  initial: ListPage<CommentThread>;
  sort: CommentSort;
  /** The whole thread of a linked comment (`?comment=<id>`), shown first. */
  focus: CommentThread | null;
  /** The linked comment itself (highlighted). */
  focusId: number | null;
  viewer: CommentUser | null;
  /** Sign-in address that returns to `#comments` (guests are sent there to write). */
  signInUrl: string;
  maxLength: number;
}

/** A text being written: the new comment, or a reply. */
export interface Draft {
  text: string;
  busy: boolean;
  error: Notice | null;
}

export interface OpenReply extends Draft {
  /** The thread the reply box is under. */
  threadId: number;
  /** The comment or reply answered. */
  target: CommentItem;
}

export interface CommentsState extends ShownThreads {
  count: number;
  sort: CommentSort;
  /** Top-level comments in all pages, and the last page shown. */
  total: number;
  page: number;
  listBusy: boolean;
  listError: Notice | null;
  /** The thread whose older replies are loading. */
  loadingReplies: number | null;
  /** Pages of older replies loaded per thread (replies page oldest first). */
  replyPages: Record<number, number>;
  highlightId: number | null;
  composer: Draft & { restored: boolean };
  reply: OpenReply | null;
  /** The comment whose deletion is being confirmed. */
  confirm: CommentItem | null;
  deleting: boolean;
  /** Announced politely (screen readers). */
  status: Notice | null;
}

/** Why `text` cannot be posted (empty, or longer than `max` characters), or null. */
export function contentProblem(text: string, max: number): Notice | null {
  const length = countCharacters(text.trim());
  if (length === 0) return warn('comments.composer.empty');
  if (length > max) return warn('comments.composer.tooLong', { max: max.toLocaleString() });
  return null;
}

/** Why posting failed: the content's own problem when the server names one, else the call's. */
export function postFailure(error: unknown, max: number): Notice {
  const field = error instanceof ApiError ? error.fields?.content : undefined;
  if (field === 'too_big') return warn('comments.composer.tooLong', { max: max.toLocaleString() });
  if (field === 'required') return warn('comments.composer.empty');
  return fail(error);
}

const isSignedOut = (error: unknown) => error instanceof ApiError && error.retCode === 401;

/** Scrolls to a comment just written and moves keyboard focus there. */
function reveal(id: number): void {
  requestAnimationFrame(() => {
    const element = document.getElementById(`comment-${id}`);
    element?.scrollIntoView({ block: 'nearest' });
    element?.focus({ preventScroll: true });
  });
}

/**
 * The discussion of a project: writing comments and replies (drafts kept across sign-in and
 * reloads), likes (optimistic, rolled back on failure), deletion after confirming, sorting and
 * paging without reloads, and the comment a link points to.
 */
export function createComments(init: CommentsInit) {
  const { projectId, viewer, maxLength } = init;
  // A log's conversation keeps its drafts apart from the project's, and names the log to the API.
  const draftScope = init.logN ? `${projectId}/log/${init.logN}` : projectId;
  const onLog = init.logN ? { log: init.logN } : {};
  const guest = viewer === null;
  const $comments = map<CommentsState>({
    threads: init.initial.list,
    focus: init.focus,
    count: init.commentCount,
    sort: init.sort,
    total: init.initial.total,
    page: init.initial.page,
    listBusy: false,
    listError: null,
    loadingReplies: null,
    replyPages: {},
    highlightId: init.focusId,
    composer: { text: '', busy: false, error: null, restored: false },
    reply: null,
    confirm: null,
    deleting: false,
    status: null,
  });
  const get = () => $comments.get();
  const update = (patch: Partial<CommentsState>) => $comments.set({ ...get(), ...patch });
  const shown = (): ShownThreads => ({ threads: get().threads, focus: get().focus });

  function goSignIn(commentId?: number): void {
    window.location.assign(signInAddress(init.signInUrl, window.location.href, commentId));
  }

  function setText(text: string): void {
    update({ composer: { ...get().composer, text, error: null, restored: false } });
    writeDraft(draftScope, 'comment', { text });
  }

  function setReplyText(text: string): void {
    const { reply } = get();
    if (!reply) return;
    update({ reply: { ...reply, text, error: null } });
    writeDraft(draftScope, 'reply', { text, commentId: reply.target.id });
  }

  async function submit(): Promise<void> {
    const { composer, sort } = get();
    if (composer.busy) return;
    if (guest) {
      writeDraft(draftScope, 'comment', { text: composer.text });
      goSignIn();
      return;
    }
    const problem = contentProblem(composer.text, maxLength);
    if (problem) {
      update({ composer: { ...composer, error: problem } });
      return;
    }
    update({ composer: { ...composer, busy: true, error: null } });
    try {
      const created = await apiCall<CommentThread>('comment/submit', { id: projectId, content: composer.text, ...onLog });
      const state = get();
      update({
        ...addThread(shown(), created, sort),
        total: state.total + 1,
        count: state.count + 1,
        composer: { text: '', busy: false, error: null, restored: false },
        highlightId: created.id,
        status: say('comments.posted'),
      });
      writeDraft(draftScope, 'comment', null);
      reveal(created.id);
    } catch (error) {
      update({ composer: { ...get().composer, busy: false, error: isSignedOut(error) ? null : postFailure(error, maxLength) } });
      // The session ended meanwhile: sign in again, the text is kept as for guests.
      if (isSignedOut(error)) goSignIn();
    }
  }

  function openReply(threadId: number, target: CommentItem): void {
    const draft = readDraft(draftScope, 'reply');
    update({ reply: { threadId, target, text: draft?.commentId === target.id ? draft.text : '', busy: false, error: null } });
  }

  function closeReply(): void {
    update({ reply: null });
    writeDraft(draftScope, 'reply', null);
  }

  async function submitReply(): Promise<void> {
    const { reply } = get();
    if (!reply || reply.busy) return;
    if (guest) {
      writeDraft(draftScope, 'reply', { text: reply.text, commentId: reply.target.id });
      goSignIn(reply.target.id);
      return;
    }
    const problem = contentProblem(reply.text, maxLength);
    if (problem) {
      update({ reply: { ...reply, error: problem } });
      return;
    }
    update({ reply: { ...reply, busy: true, error: null } });
    try {
      const created = await apiCall<CommentItem>('comment/reply', { commentId: reply.target.id, content: reply.text });
      update({ ...addReply(shown(), created), count: get().count + 1, reply: null, highlightId: created.id, status: say('comments.replyPosted') });
      writeDraft(draftScope, 'reply', null);
      reveal(created.id);
    } catch (error) {
      const current = get().reply;
      if (current) update({ reply: { ...current, busy: false, error: isSignedOut(error) ? null : postFailure(error, maxLength) } });
      if (isSignedOut(error)) {
        writeDraft(draftScope, 'reply', { text: reply.text, commentId: reply.target.id });
        goSignIn(reply.target.id);
      }
    }
  }

  /** Likes or unlikes at once, confirmed by the server or rolled back; guests sign in first. */
  async function like(item: CommentItem): Promise<void> {
    if (guest) {
      rememberPendingLike(draftScope, item.id);
      goSignIn(item.id);
      return;
    }
    const value = !item.liked;
    update(patchComment(shown(), item.id, { liked: value, likeCount: Math.max(0, item.likeCount + (value ? 1 : -1)) }));
    try {
      const result = await apiCall<{ liked: boolean; likeCount: number }>('comment/like', { commentId: item.id, value });
      update(patchComment(shown(), item.id, result));
    } catch (error) {
      update({ ...patchComment(shown(), item.id, { liked: item.liked, likeCount: item.likeCount }), status: fail(error) });
    }
  }

  const deletion = createConfirmAction<CommentItem>({
    act: (item) => apiCall<{ commentId: number }>('comment/del', { commentId: item.id }),
    done: (item) => {
      const { removedThread, ...next } = removeComment(shown(), item);
      const state = get();
      update({
        ...next,
        total: removedThread ? Math.max(0, state.total - 1) : state.total,
        count: Math.max(0, state.count - 1),
        status: say('comments.removed'),
      });
      if (get().reply?.target.id === item.id) closeReply();
    },
    failed: (error) => update({ status: fail(error) }),
  });
  deletion.$confirm.listen(({ asking, busy }) => update({ confirm: asking, deleting: busy }));

  async function loadPage(page: number, sort: CommentSort, replace: boolean): Promise<void> {
    update({ listBusy: true, listError: null });
    try {
      const result = await apiCall<ListPage<CommentThread>>('comment/list', { id: projectId, page, pageSize: init.initial.pageSize, sort, ...onLog });
      update({ threads: withPage(get().threads, result.list, replace), total: result.total, page, listBusy: false });
    } catch (error) {
      update({ listError: fail(error), listBusy: false });
    }
  }

  /** Shows the first page in the other order. */
  function changeSort(sort: CommentSort): void {
    if (sort === get().sort || get().listBusy) return;
    update({ sort });
    void loadPage(1, sort, true);
  }

  function loadMore(): void {
    const { listBusy, page, sort } = get();
    if (!listBusy) void loadPage(page + 1, sort, false);
  }

  /** Loads the next page of a thread's older replies. */
  async function loadReplies(thread: CommentThread): Promise<void> {
    update({ loadingReplies: thread.id });
    try {
      const page = (get().replyPages[thread.id] ?? 0) + 1;
      const result = await apiCall<ListPage<CommentItem>>('comment/list', { id: projectId, commentId: thread.id, page, pageSize: REPLY_PAGE_SIZE, ...onLog });
      update({
        ...mapThreads(shown(), (candidate) => (candidate.id === thread.id ? { ...candidate, replies: mergeReplies(candidate.replies, result.list), replyCount: result.total } : candidate)),
        replyPages: { ...get().replyPages, [thread.id]: page },
        loadingReplies: null,
      });
    } catch (error) {
      update({ status: fail(error), loadingReplies: null });
    }
  }

  /**
   * Live in the browser (after sign-in or a reload): brings back unsent text, finishes a like
   * started as a guest, and shows the comment a link points to, now and on every hash change.
   */
  function start(): () => void {
    const draft = readDraft(draftScope, 'comment');
    if (draft) update({ composer: { ...get().composer, text: draft.text, restored: true } });
    // A reply draft reopens only when coming back to that comment (the sign-in return address).
    const replyDraft = readDraft(draftScope, 'reply');
    if (replyDraft?.commentId && window.location.hash === `#comment-${replyDraft.commentId}`) {
      const found = findComment(shown(), replyDraft.commentId);
      if (found && !found.item.deleted) update({ reply: { threadId: found.thread.id, target: found.item, text: replyDraft.text, busy: false, error: null } });
    }
    if (viewer) {
      const pending = takePendingLike(draftScope);
      const found = pending === null ? null : findComment(shown(), pending);
      if (found && !found.item.liked) void like(found.item);
    }
    const showTarget = () => {
      const match = /^#comment-(\d+)$/.exec(window.location.hash);
      if (!match) return;
      update({ highlightId: Number(match[1]) });
      document.getElementById(`comment-${match[1]}`)?.scrollIntoView({ block: 'center' });
    };
    showTarget();
    if (draft && !window.location.hash.startsWith('#comment-')) document.getElementById('comments')?.scrollIntoView();
    window.addEventListener('hashchange', showTarget);
    return () => window.removeEventListener('hashchange', showTarget);
  }

  return {
    $comments,
    guest,
    maxLength,
    setText,
    setReplyText,
    submit,
    openReply,
    closeReply,
    submitReply,
    like,
    askDelete: deletion.ask,
    cancelDelete: deletion.cancel,
    confirmDelete: deletion.confirm,
    changeSort,
    loadMore,
    loadReplies,
    start,
  };
}

export type CommentsStore = ReturnType<typeof createComments>;
