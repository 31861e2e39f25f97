import type { CommentItem, CommentSort, CommentThread } from './conversation-types.ts';

/**
 * The comments an island shows: the page of threads, and the thread a link points to (shown
 * first, and maybe also in the page). Every change below applies to both, so they never disagree.
 */
export interface ShownThreads {
  threads: CommentThread[];
  focus: CommentThread | null;
}

/** Replies merged by id, in the order they were written. */
export function mergeReplies(current: CommentItem[], more: CommentItem[]): CommentItem[] {
  const byId = new Map<number, CommentItem>();
  for (const item of [...more, ...current]) byId.set(item.id, item);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/** Applies `change` to every thread shown; null removes the thread. */
export function mapThreads(shown: ShownThreads, change: (thread: CommentThread) => CommentThread | null): ShownThreads {
  return {
    threads: shown.threads.map(change).filter((thread): thread is CommentThread => thread !== null),
    focus: shown.focus ? change(shown.focus) : null,
  };
}

/** The comment or reply `id` with `patch` applied, wherever it is shown. */
export function patchComment(shown: ShownThreads, id: number, patch: Partial<CommentItem>): ShownThreads {
  return mapThreads(shown, (thread) =>
    thread.id === id
      ? { ...thread, ...patch }
      : thread.replies.some((item) => item.id === id)
        ? { ...thread, replies: thread.replies.map((item) => (item.id === id ? { ...item, ...patch } : item)) }
        : thread,
  );
}

/** The comment or reply `id` and its thread, or null when it is not shown. */
export function findComment(shown: ShownThreads, id: number): { thread: CommentThread; item: CommentItem } | null {
  for (const thread of shown.focus ? [shown.focus, ...shown.threads] : shown.threads) {
    if (thread.id === id) return { thread, item: thread };
    const item = thread.replies.find((candidate) => candidate.id === id);
    if (item) return { thread, item };
  }
  return null;
}

/** A new top-level comment: first when the newest come first, else last. */
export function addThread(shown: ShownThreads, created: CommentThread, sort: CommentSort): ShownThreads {
  return { ...shown, threads: sort === 'newest' ? [created, ...shown.threads] : [...shown.threads, created] };
}

/** A new reply, added to its thread. */
export function addReply(shown: ShownThreads, created: CommentItem): ShownThreads {
  return mapThreads(shown, (thread) =>
    thread.id === created.parentId ? { ...thread, replies: mergeReplies(thread.replies, [created]), replyCount: thread.replyCount + 1 } : thread,
  );
}

/**
 * The threads once `item` is deleted: a reply goes; a comment with replies stays as a tombstone
 * (so the replies keep their place), one without goes; a tombstone whose last reply goes, goes.
 * `removedThread` tells whether a whole top-level thread left the list (its total shrinks).
 */
export function removeComment(shown: ShownThreads, item: CommentItem): ShownThreads & { removedThread: boolean } {
  if (item.parentId) {
    const next = mapThreads(shown, (thread) => {
      if (thread.id !== item.parentId) return thread;
      const replyCount = Math.max(0, thread.replyCount - 1);
      if (thread.deleted && replyCount === 0) return null;
      return { ...thread, replyCount, replies: thread.replies.filter((candidate) => candidate.id !== item.id) };
    });
    return { ...next, removedThread: false };
  }
  const found = findComment(shown, item.id);
  const next = mapThreads(shown, (thread) =>
    thread.id !== item.id
      ? thread
      : thread.replyCount > 0
        ? { ...thread, deleted: true, content: '', links: [], author: null, canDelete: false, liked: false, byOwner: false }
        : null,
  );
  return { ...next, removedThread: Boolean(found && found.thread.replyCount === 0) };
}

/** A further page of threads after those shown (`replace` for a new first page, e.g. another order). */
export function withPage(threads: CommentThread[], page: CommentThread[], replace: boolean): CommentThread[] {
  if (replace) return page;
  const seen = new Set(threads.map((thread) => thread.id));
  return [...threads, ...page.filter((thread) => !seen.has(thread.id))];
}

/** The sign-in address that comes back to the comments, or to comment `commentId`. */
export function signInAddress(signInUrl: string, here: string, commentId?: number): string {
  const signIn = new URL(signInUrl, here);
  const back = new URL(signIn.searchParams.get('redirect') ?? here);
  if (commentId) {
    back.searchParams.set('comment', String(commentId));
    back.hash = `comment-${commentId}`;
  } else back.hash = 'comments';
  signIn.searchParams.set('redirect', back.toString());
  return signIn.toString();
}
