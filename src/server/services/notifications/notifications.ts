import { eq } from 'drizzle-orm';
import { getDb, type Executor } from '../../db/client.ts';
import { comments, messages, projects, type MessageKind } from '../../db/schema/index.ts';
import { siteAllows } from './notification-settings.ts';


interface NewMessage {
  recipientId: number;
  actorId: number;
  kind: MessageKind;
  projectId: number | null;
  commentId: number | null;
  /** Text the message shows beside its kind (a make's note). */
  body?: string | null;
  /** Set for toggles: a second message with the same key is never created. */
  dedupeKey?: string;
}

/**
 * Stores one message unless it would tell people about their own action, repeat a toggle, or is
 * of a kind the recipient turned off on the site (their notification settings).
 */
async function createMessage(db: Executor, message: NewMessage): Promise<boolean> {
  if (message.recipientId === message.actorId) return false;
  if (!(await siteAllows(db, message.recipientId, message.kind))) return false;
  const inserted = await db
    .insert(messages)
    .values({ ...message, dedupeKey: message.dedupeKey ?? null })
    .onConflictDoNothing({ target: messages.dedupeKey })
    .returning({ id: messages.id });
  return inserted.length > 0;
}

async function projectOwner(db: Executor, projectId: number): Promise<number | null> {
  const [row] = await db.select({ ownerId: projects.ownerId }).from(projects).where(eq(projects.id, projectId)).limit(1);
  return row?.ownerId ?? null;
}

/**
 * Tells the owner of project `projectId` (internal id) that `actorId` starred it. Call it when a
 * star is switched on; starring your own project, or starring again after un-starring, creates
 * nothing. Returns whether a message was created.
 */
export async function notifyProjectStarred(actorId: number, projectId: number, db: Executor = getDb()): Promise<boolean> {
  const ownerId = await projectOwner(db, projectId);
  if (ownerId === null) return false;
  return createMessage(db, { recipientId: ownerId, actorId, kind: 'star', projectId, commentId: null, dedupeKey: `star:${actorId}:${projectId}` });
}

/**
 * Tells the owner of project `projectId` (internal id) that `actorId` liked it; once per actor and
 * project however often the like is toggled, never for your own project.
 */
export async function notifyProjectLiked(actorId: number, projectId: number, db: Executor = getDb()): Promise<boolean> {
  const ownerId = await projectOwner(db, projectId);
  if (ownerId === null) return false;
  return createMessage(db, { recipientId: ownerId, actorId, kind: 'like', projectId, commentId: null, dedupeKey: `like:${actorId}:${projectId}` });
}

/**
 * Tells the author of comment `commentId` that `actorId` liked it; once per actor and comment
 * however often the like is toggled, never for your own comment.
 */
export async function notifyCommentLiked(actorId: number, commentId: number, db: Executor = getDb()): Promise<boolean> {
  const [comment] = await db
    .select({ authorId: comments.authorId, projectId: comments.projectId })
    .from(comments)
    .where(eq(comments.id, commentId))
    .limit(1);
  if (!comment) return false;
  return createMessage(db, {
    recipientId: comment.authorId,
    actorId,
    kind: 'comment_like',
    projectId: comment.projectId,
    commentId,
    dedupeKey: `comment_like:${actorId}:${commentId}`,
  });
}

/**
 * Tells member `followedId` that `actorId` followed them; once per pair however often the follow
 * is undone and made again.
 */
export async function notifyFollowed(actorId: number, followedId: number, db: Executor = getDb()): Promise<boolean> {
  return createMessage(db, { recipientId: followedId, actorId, kind: 'follow', projectId: null, commentId: null, dedupeKey: `follow:${actorId}:${followedId}` });
}

/** Tells the owner of project `projectId` that `actorId` wrote comment `commentId` on it (not their own). */
export async function notifyComment(actorId: number, projectId: number, commentId: number, db: Executor = getDb()): Promise<boolean> {
  const ownerId = await projectOwner(db, projectId);
  if (ownerId === null) return false;
  return createMessage(db, { recipientId: ownerId, actorId, kind: 'comment', projectId, commentId });
}

/**
 * Tells the owner of project `projectId` that `actorId` built it (make `makeId`), with the note's
 * excerpt as `body`; never for a make of your own project.
 */
export async function notifyProjectMade(actorId: number, projectId: number, makeId: number, excerpt: string, db: Executor = getDb()): Promise<boolean> {
  const ownerId = await projectOwner(db, projectId);
  if (ownerId === null) return false;
  return createMessage(db, { recipientId: ownerId, actorId, kind: 'make', projectId, commentId: null, body: excerpt, dedupeKey: `make:${makeId}` });
}

/**
 * Tells a reporter that staff handled their report: `body` is the action taken (`dismiss`,
 * `hide`, `suspend`), which their messages page words in the reader's language. No actor: the
 * reporter learns the outcome, not which member of staff decided it.
 */
export async function notifyReportResolved(recipientId: number, action: string, db: Executor = getDb()): Promise<void> {
  await db.insert(messages).values({ recipientId, actorId: null, kind: 'report_resolved', projectId: null, commentId: null, body: action });
}

/** Tells `recipientId` that `actorId` answered them with reply `commentId` (not when answering yourself). */
export async function notifyReply(
  actorId: number,
  recipientId: number,
  projectId: number,
  commentId: number,
  db: Executor = getDb(),
): Promise<boolean> {
  return createMessage(db, { recipientId, actorId, kind: 'reply', projectId, commentId });
}
