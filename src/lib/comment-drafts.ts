/**
 * Unsent comment text kept in the browser, so it survives signing in, a reload or a lost
 * connection: one comment draft and one reply draft per project, for a week. A like pressed by a
 * guest waits in the session until they are back signed in.
 */

export const DRAFT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type DraftKind = 'comment' | 'reply';

export interface StoredDraft {
  text: string;
  /** Set for a reply: the comment it answers. */
  commentId?: number;
  savedAt: number;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const draftKey = (projectId: string, kind: DraftKind) => `copperhub:draft:${projectId}:${kind}`;
const PENDING_LIKE_KEY = 'copperhub:pending-comment-like';

/** The kept draft, unless there is none, it is unreadable or older than a week. */
export function readDraft(projectId: string, kind: DraftKind, storage: KeyValueStorage = localStorage, now = Date.now()): StoredDraft | null {
  try {
    const raw = storage.getItem(draftKey(projectId, kind));
    if (!raw) return null;
    const draft = JSON.parse(raw) as StoredDraft;
    if (typeof draft.text !== 'string' || now - draft.savedAt > DRAFT_TTL_MS) return null;
    return draft;
  } catch {
    return null;
  }
}

/** Keeps `draft` (blank text, or null, forgets it). */
export function writeDraft(projectId: string, kind: DraftKind, draft: Omit<StoredDraft, 'savedAt'> | null, storage: KeyValueStorage = localStorage, now = Date.now()): void {
  try {
    if (!draft || !draft.text.trim()) storage.removeItem(draftKey(projectId, kind));
    else storage.setItem(draftKey(projectId, kind), JSON.stringify({ ...draft, savedAt: now }));
  } catch {
    // storage full or disabled: the draft just is not kept
  }
}

/** Remembers that a guest liked `commentId`, to finish it after sign-in. */
export function rememberPendingLike(projectId: string, commentId: number, storage: KeyValueStorage = sessionStorage): void {
  try {
    storage.setItem(PENDING_LIKE_KEY, JSON.stringify({ projectId, commentId }));
  } catch {
    // the like is simply not completed after sign-in
  }
}

/** The comment of this project a guest liked before signing in, once (it is forgotten). */
export function takePendingLike(projectId: string, storage: KeyValueStorage = sessionStorage): number | null {
  try {
    const pending = JSON.parse(storage.getItem(PENDING_LIKE_KEY) ?? 'null') as { projectId: string; commentId: number } | null;
    storage.removeItem(PENDING_LIKE_KEY);
    return pending?.projectId === projectId ? pending.commentId : null;
  } catch {
    return null;
  }
}
