import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CommentItem, CommentSort, CommentThread } from '../../../lib/conversation-types.ts';
import { findLinks } from '../../../lib/linkify.ts';
import { countCharacters, normalizePlainText } from '../../../lib/text.ts';
import { getDb, type Database, type Executor } from '../../db/client.ts';
import { preparedShapes } from '../../db/prepared.ts';
import { commentLikes, comments, projectLogs, projects, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { parseInput, z } from '../../http/validation.ts';
import { notifyComment, notifyCommentLiked, notifyReply } from '../notifications/index.ts';
import { DUPLICATE_COMMENT_MS, hitMemberRateLimit, isNewAccount, NEW_ACCOUNT_MS, readAccountCreatedAt, purgeProjectConversation, visibleTo, findPublishedProject, type PublishedProjectRef } from '../core/index.ts';
import { assertEmailVerified } from '../accounts/index.ts';
import { findLogId } from './logs.ts';
import type { Page } from '../../lib/paging.ts';

export type { CommentItem, CommentSort, CommentThread };

/** A comment is 1 to 2,000 characters as the reader counts them. */
export const COMMENT_MAX_CHARACTERS = 2000;
/** Replies shown under each top-level comment before "show more replies". */
export const REPLY_PREVIEW_COUNT = 3;
/** Replies a linked (`?comment=`) thread renders at most. */
const FOCUSED_THREAD_REPLIES = 500;

/**
 * The text of a comment: normalized (line ends, surrounding blank space), then 1–2,000
 * characters. Field errors: `required`, `too_big`.
 */
export const commentContentSchema = z
  .string()
  .max(COMMENT_MAX_CHARACTERS * 10, 'too_big')
  .transform(normalizePlainText)
  .superRefine((text, ctx) => {
    if (!text) ctx.addIssue({ code: 'custom', message: 'required' });
    else if (countCharacters(text) > COMMENT_MAX_CHARACTERS) ctx.addIssue({ code: 'custom', message: 'too_big' });
  });

export const commentIdSchema = z.coerce.number().int().positive().max(2_147_483_647);
export const commentSortSchema = z.enum(['newest', 'oldest']);

const author = alias(users, 'author');
const replyTo = alias(users, 'reply_to');

const commentColumns = {
  id: comments.id,
  body: comments.body,
  parentId: comments.parentId,
  authorId: comments.authorId,
  likeCount: comments.likeCount,
  replyCount: comments.replyCount,
  createdAt: comments.createdAt,
  deletedAt: comments.deletedAt,
  authorUrl: author.customUrl,
  authorNickname: author.nickname,
  authorAvatar: author.avatar,
  replyToUrl: replyTo.customUrl,
  replyToNickname: replyTo.nickname,
};

type CommentRow = {
  id: number;
  body: string;
  parentId: number | null;
  authorId: number;
  likeCount: number;
  replyCount: number;
  createdAt: Date;
  deletedAt: Date | null;
  authorUrl: string;
  authorNickname: string;
  authorAvatar: string | null;
  replyToUrl: string | null;
  replyToNickname: string | null;
  liked: boolean;
};

/** Whether `viewer` (null: a guest, who liked nothing) liked the comment `commentId`, through `comment_likes`' primary key. */
const likedBy = (viewer: number | null | SQLWrapper, commentId: SQLWrapper) =>
  viewer === null ? sql<boolean>`false` : sql<boolean>`EXISTS (SELECT 1 FROM ${commentLikes} WHERE ${commentLikes.userId} = ${viewer} AND ${commentLikes.commentId} = ${commentId})`;

/**
 * The comments matching `where`, each with whether `viewer` (a member's id, or a placeholder for
 * one; null for a guest) liked it: read with the rows, through `comment_likes`' primary key, so a
 * member's comments cost no round trip more than a guest's.
 */
function selectComments<Extra extends Record<string, SQL.Aliased>>(where: SQL | undefined, viewer: number | null | SQLWrapper, db: Database = getDb(), extra?: Extra) {
  return db
    .select({ ...commentColumns, liked: likedBy(viewer, comments.id).as('liked'), ...(extra as Extra) })
    .from(comments)
    .innerJoin(author, eq(author.id, comments.authorId))
    .leftJoin(replyTo, eq(replyTo.id, comments.replyToUserId))
    .where(where);
}

interface ProjectRef {
  id: number;
  ownerId: number;
}

interface Viewer {
  viewerId: number | null;
  project: ProjectRef;
}

function toItem(row: CommentRow, viewer: Viewer): CommentItem {
  const deleted = row.deletedAt !== null;
  const { viewerId, project } = viewer;
  return {
    id: row.id,
    content: deleted ? '' : row.body,
    links: deleted ? [] : findLinks(row.body),
    author: deleted ? null : { url: row.authorUrl, nickname: row.authorNickname, avatar: row.authorAvatar },
    replyTo: row.parentId !== null && row.replyToUrl !== null ? { url: row.replyToUrl, nickname: row.replyToNickname ?? '' } : null,
    parentId: row.parentId,
    likeCount: row.likeCount,
    liked: row.liked,
    createdAt: row.createdAt.toISOString(),
    deleted,
    canDelete: !deleted && viewerId !== null && (viewerId === row.authorId || viewerId === project.ownerId),
    byOwner: !deleted && row.authorId === project.ownerId,
  };
}


/**
 * A comment `viewerId` may read: not hidden by staff, or theirs, or the viewer is staff. A hidden
 * top-level comment takes its thread with it.
 */
export const commentVisibleTo = (viewerId: number | null | SQLWrapper) => visibleTo(comments.hiddenAt, comments.authorId, viewerId);

/** `comments` again, for the number of top-level comments counted beside a page of them. */
const counted = alias(comments, 'counted');

/** The comments of a project's own conversation (`logId` null) or of one of its build logs. */
const onLog = (logId: number | null | SQLWrapper, table: typeof comments | typeof counted = comments) => (logId === null ? isNull(table.logId) : eq(table.logId, logId));

/**
 * Visible top-level comments (in `comments`, or in `counted`): not deleted, or deleted but still
 * holding replies (a tombstone).
 */
const visibleTopLevel = (
  projectId: number | SQLWrapper,
  viewerId: number | null | SQLWrapper,
  logId: number | null | SQLWrapper = null,
  table: typeof comments | typeof counted = comments,
) =>
  and(
    eq(table.projectId, projectId),
    onLog(logId, table),
    isNull(table.parentId),
    or(isNull(table.deletedAt), gt(table.replyCount, 0)),
    visibleTo(table.hiddenAt, table.authorId, viewerId),
  );

/** Replies of `parentIds` (a list, or a placeholder for one, as `= any(…)`) the viewer may read. */
const visibleRepliesOf = (parentIds: number[] | SQLWrapper, viewerId: number | null | SQLWrapper) =>
  and(Array.isArray(parentIds) ? inArray(comments.parentId, parentIds) : sql`${comments.parentId} = any(${parentIds})`, isNull(comments.deletedAt), commentVisibleTo(viewerId));

/** A guest's statement, or a member's (`viewerId` a placeholder): what the comments' prepared statements are built for. */
type Audience = 'guest' | 'member';
const audiences = ['guest', 'member'] as const;
const viewerOf = (audience: Audience) => (audience === 'member' ? sql.placeholder('viewerId') : null);
const audienceOf = (viewerId: number | null): Audience => (viewerId === null ? 'guest' : 'member');

/** The newest replies of each thread shown, on every project page: built once per audience (see `prepared`). */
const newestRepliesOf = preparedShapes('comments_newest_replies', audiences, (db, audience, name) => {
  const ranked = db
    .select({
      id: comments.id,
      rank: sql<number>`row_number() over (partition by ${comments.parentId} order by ${comments.createdAt} desc, ${comments.id} desc)`.as('rank'),
    })
    .from(comments)
    .where(visibleRepliesOf(sql.placeholder('parentIds'), viewerOf(audience)))
    .as('ranked');
  const ids = db.select({ id: ranked.id }).from(ranked).where(lte(ranked.rank, sql.placeholder('perThread')));
  return selectComments(inArray(comments.id, ids), viewerOf(audience), db).orderBy(asc(comments.createdAt), asc(comments.id)).prepare(name);
});

/** A reply as the page's statement carries it, in JSON (timestamps as text). */
type ReplyJson = Omit<CommentRow, 'createdAt' | 'deletedAt'> & { createdAt: string; deletedAt: null };

const reply = alias(comments, 'reply');
const replyAuthor = alias(users, 'reply_author');
const replyTarget = alias(users, 'reply_target');

/**
 * The newest `REPLY_PREVIEW_COUNT` replies of the row's comment that `viewer` may read, oldest
 * first, as a JSON column of the page's statement: read through `comments_parent_idx` for each of
 * the page's comments, so the page and its replies are one round trip, not two.
 */
function newestRepliesColumn(viewer: SQLWrapper | null) {
  return sql<ReplyJson[]>`(SELECT coalesce(json_agg(r ORDER BY r."createdAt", r.id), '[]'::json) FROM (
    SELECT ${reply.id} AS id, ${reply.body} AS body, ${reply.parentId} AS "parentId", ${reply.authorId} AS "authorId",
      ${reply.likeCount} AS "likeCount", ${reply.replyCount} AS "replyCount", ${reply.createdAt} AS "createdAt", ${reply.deletedAt} AS "deletedAt",
      ${replyAuthor.customUrl} AS "authorUrl", ${replyAuthor.nickname} AS "authorNickname", ${replyAuthor.avatar} AS "authorAvatar",
      ${replyTarget.customUrl} AS "replyToUrl", ${replyTarget.nickname} AS "replyToNickname", ${likedBy(viewer, reply.id)} AS liked
    FROM ${comments} AS ${sql.identifier('reply')}
      JOIN ${users} AS ${sql.identifier('reply_author')} ON ${replyAuthor.id} = ${reply.authorId}
      LEFT JOIN ${users} AS ${sql.identifier('reply_target')} ON ${replyTarget.id} = ${reply.replyToUserId}
    WHERE ${reply.parentId} = ${comments.id} AND ${reply.deletedAt} IS NULL AND ${visibleTo(reply.hiddenAt, reply.authorId, viewer)}
    ORDER BY ${reply.createdAt} DESC, ${reply.id} DESC LIMIT ${sql.raw(String(REPLY_PREVIEW_COUNT))}) AS r)`;
}

/** A reply read as JSON, as the other statements read one. */
const fromJson = (row: ReplyJson): CommentRow => ({ ...row, createdAt: new Date(row.createdAt), deletedAt: null });

/** A project's own conversation, or one of its build logs' (`logId` a placeholder). */
type Scope = 'project' | 'log';
const logOf = (scope: Scope) => (scope === 'log' ? sql.placeholder('logId') : null);
const every = <A extends string, B extends string>(as: readonly A[], bs: readonly B[]) => as.flatMap((a) => bs.map((b) => `${a} ${b}` as const));
const scopes = ['project', 'log'] as const;

/**
 * A page of top-level comments, each row with their number (`total`, counted once: the subquery
 * does not depend on the row), on every project page and build log: one round trip where the
 * number was a statement of its own. Built once per audience, order and scope.
 */
const topLevelPage = preparedShapes('comments_top_level', every(every(audiences, ['newest', 'oldest'] as const), scopes), (db, shape, name) => {
  const [audience, sort, scope] = shape.split(' ') as [Audience, CommentSort, Scope];
  const order = sort === 'oldest' ? [asc(comments.createdAt), asc(comments.id)] : [desc(comments.createdAt), desc(comments.id)];
  const total = sql<number>`(SELECT count(*)::int FROM ${comments} AS ${sql.identifier('counted')} WHERE ${visibleTopLevel(sql.placeholder('projectId'), viewerOf(audience), logOf(scope), counted)})`;
  return selectComments(visibleTopLevel(sql.placeholder('projectId'), viewerOf(audience), logOf(scope)), viewerOf(audience), db, {
    total: total.as('total'),
    replies: newestRepliesColumn(viewerOf(audience)).as('replies'),
  })
    .orderBy(...order)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);
});
/** The number alone, for a page past the last (no row to carry it). */
const topLevelCount = preparedShapes('comments_top_level_count', every(audiences, scopes), (db, shape, name) => {
  const [audience, scope] = shape.split(' ') as [Audience, Scope];
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(comments)
    .where(visibleTopLevel(sql.placeholder('projectId'), viewerOf(audience), logOf(scope)))
    .prepare(name);
});

/** The newest `perThread` replies of each thread, in the order they were written. */
async function newestReplies(parentIds: number[], perThread: number, viewerId: number | null): Promise<Map<number, CommentRow[]>> {
  const byParent = new Map<number, CommentRow[]>();
  if (parentIds.length === 0) return byParent;
  const rows = await newestRepliesOf(audienceOf(viewerId)).execute({ parentIds, perThread, viewerId });
  for (const row of rows) {
    const list = byParent.get(row.parentId!) ?? [];
    list.push(row);
    byParent.set(row.parentId!, list);
  }
  return byParent;
}

function toThreads(rows: CommentRow[], replies: Map<number, CommentRow[]>, viewerId: number | null, project: ProjectRef): CommentThread[] {
  const viewer: Viewer = { viewerId, project };
  return rows.map(
    (row): CommentThread => ({
      ...toItem(row, viewer),
      replies: (replies.get(row.id) ?? []).map((reply) => toItem(reply, viewer)),
      replyCount: row.replyCount,
    }),
  );
}

export interface ListCommentsInput {
  /** The project's public id. */
  id: string;
  page: number;
  pageSize: number;
  sort?: CommentSort;
  /** When set: page through the replies of this top-level comment instead (oldest first). */
  commentId?: number;
  /** When set: the comments of the project's build log with this number, not the project's own. */
  log?: number | undefined;
}

/**
 * `comment/list`: a page of a project's top-level comments (newest or oldest first), each with
 * its newest replies and `replyCount`; or, with `commentId`, a page of that thread's replies in
 * the order they were written. Deleted replies are left out; a deleted top-level comment stays
 * as a tombstone while it has replies.
 */
export async function listComments(
  input: ListCommentsInput,
  viewerId: number | null,
  found?: PublishedProjectRef,
  foundLogId?: number,
): Promise<Page<CommentThread> | Page<CommentItem>> {
  // `found`, `foundLogId`: the page already looked the project (and the log) up.
  const project = found ?? (await findPublishedProject(input.id, viewerId));
  const logId = input.log === undefined ? null : (foundLogId ?? (await findLogId(project, input.log, viewerId)));
  const db = getDb();
  const paging = { page: input.page, pageSize: input.pageSize };
  if (input.commentId !== undefined) {
    const [parent] = await db
      .select({ id: comments.id, replyCount: comments.replyCount })
      .from(comments)
      .where(and(eq(comments.id, input.commentId), eq(comments.projectId, project.id), onLog(logId), isNull(comments.parentId)))
      .limit(1);
    if (!parent) throw new AppError('comment_not_found');
    const rows = await selectComments(visibleRepliesOf([parent.id], viewerId), viewerId)
      .orderBy(asc(comments.createdAt), asc(comments.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize);
    const viewer: Viewer = { viewerId, project };
    return { list: rows.map((row) => toItem(row, viewer)), total: parent.replyCount, ...paging };
  }
  const sort = input.sort === 'oldest' ? 'oldest' : 'newest';
  const audience = audienceOf(viewerId);
  const scope: Scope = logId === null ? 'project' : 'log';
  const values = { projectId: project.id, viewerId, logId, limit: paging.pageSize, offset: (paging.page - 1) * paging.pageSize };
  const rows = await topLevelPage(`${audience} ${sort} ${scope}`).execute(values);
  // An empty first page: there are none; an empty later one: past the last, counted apart.
  const total = rows[0]?.total ?? (values.offset === 0 ? 0 : ((await topLevelCount(`${audience} ${scope}`).execute(values))[0]?.n ?? 0));
  const replies = new Map(rows.map((row) => [row.id, row.replies.map(fromJson)]));
  return { list: toThreads(rows, replies, viewerId, project), total, ...paging };
}

/**
 * The whole thread (up to 500 replies) that contains comment `commentId` on project `publicId`
 * (or on its build log `logId`), for a link to one comment (`?comment=<id>`); null when that
 * comment is not shown there.
 */
export async function getCommentThread(
  publicId: string,
  commentId: number,
  viewerId: number | null,
  found?: PublishedProjectRef,
  logId: number | null = null,
): Promise<CommentThread | null> {
  const project = found ?? (await findPublishedProject(publicId, viewerId));
  const [target] = await getDb()
    .select({ id: comments.id, parentId: comments.parentId, deletedAt: comments.deletedAt })
    .from(comments)
    .where(and(eq(comments.id, commentId), eq(comments.projectId, project.id), onLog(logId)))
    .limit(1);
  if (!target) return null;
  const rootId = target.parentId ?? target.id;
  const [root] = await selectComments(and(eq(comments.id, rootId), visibleTopLevel(project.id, viewerId, logId)), viewerId).limit(1);
  if (!root) return null;
  const replies = await newestReplies([root.id], FOCUSED_THREAD_REPLIES, viewerId);
  const [thread] = toThreads([root], replies, viewerId, project);
  return thread ?? null;
}

/** A comment's text as a field, so its errors name `content`: built once, not per comment. */
const commentInputSchema = z.object({ content: commentContentSchema });

function parseContent(content: unknown): string {
  return parseInput(commentInputSchema, { content }).content;
}

/**
 * The spam rules every comment and reply passes before it is written: the member's comment rate
 * (stricter for a new account); no links from an account in its first day (403
 * `links_not_allowed_yet`, with `Retry-After` saying when it may); and not the same text again
 * within `DUPLICATE_COMMENT_MS` (409 `duplicate_comment`), wherever it was posted.
 */
async function assertMayPost(userId: number, text: string, now = new Date()): Promise<void> {
  const createdAt = await readAccountCreatedAt(userId);
  if (isNewAccount(createdAt, now) && findLinks(text).length > 0) {
    const retryAfterSeconds = Math.max(1, Math.ceil((createdAt.getTime() + NEW_ACCOUNT_MS - now.getTime()) / 1000));
    throw new AppError('links_not_allowed_yet', undefined, { retryAfterSeconds });
  }
  const [repeated] = await getDb()
    .select({ id: comments.id })
    .from(comments)
    .where(
      and(
        eq(comments.authorId, userId),
        gt(comments.createdAt, new Date(now.getTime() - DUPLICATE_COMMENT_MS)),
        eq(comments.body, text),
        isNull(comments.deletedAt),
      ),
    )
    .limit(1);
  if (repeated) throw new AppError('duplicate_comment');
  await hitMemberRateLimit('comment', userId, createdAt, now);
}

/**
 * Sets the stored counts from the comments themselves, as a guest is shown them: each project's
 * `comment_count` (its own comments, not its logs', neither deleted nor hidden, outside a thread
 * whose top-level comment is hidden, since that thread goes with it), the same of each of its
 * build logs, and each top-level comment's `reply_count` (its replies neither deleted nor hidden). Hiding, restoring or deleting a comment that was already
 * so then changes nothing, however often it happens. The caller holds the projects' rows locked
 * (as every comment write takes them first), so a comment written meanwhile is either counted
 * here or adds itself once this commits.
 */
export async function recountComments(db: Executor, projectIds: number[], parentIds: number[]): Promise<void> {
  if (projectIds.length) {
    await db
      .update(projects)
      .set({
        commentCount: sql`(SELECT count(*)::int FROM comments c LEFT JOIN comments root ON root.id = c.parent_id
          WHERE c.project_id = projects.id AND c.log_id IS NULL AND c.deleted_at IS NULL AND c.hidden_at IS NULL AND root.hidden_at IS NULL)`,
      })
      .where(inArray(projects.id, projectIds));
    await db
      .update(projectLogs)
      .set({
        commentCount: sql`(SELECT count(*)::int FROM comments c LEFT JOIN comments root ON root.id = c.parent_id
          WHERE c.log_id = project_logs.id AND c.deleted_at IS NULL AND c.hidden_at IS NULL AND root.hidden_at IS NULL)`,
      })
      .where(and(inArray(projectLogs.projectId, projectIds), sql`EXISTS (SELECT 1 FROM comments c WHERE c.log_id = project_logs.id)`));
  }
  if (parentIds.length) {
    await db
      .update(comments)
      .set({
        replyCount: sql`(SELECT count(*)::int FROM comments r WHERE r.parent_id = comments.id AND r.deleted_at IS NULL AND r.hidden_at IS NULL)`,
      })
      .where(inArray(comments.id, parentIds));
  }
}

/**
 * `comment/submit`: `userId` writes a top-level comment on published project `publicId`, or with
 * `logN` on that build log of it. Raises the project's (or the log's) comment count and tells its
 * owner, in one transaction.
 * Errors: 400 `validation` (content), 403 `email_not_verified`, 404 `project_not_found` / `log_not_found`,
 * 409 `duplicate_comment`, 403 `links_not_allowed_yet`, 429 `rate_limited` (see `assertMayPost`).
 */
export async function submitComment(userId: number, publicId: string, content: string, logN?: number): Promise<CommentThread> {
  const text = parseContent(content);
  await assertEmailVerified(userId);
  const project = await findPublishedProject(publicId, userId);
  const logId = logN === undefined ? null : await findLogId(project, logN, userId);
  await assertMayPost(userId, text);
  const id = await getDb().transaction(async (tx) => {
    // The project's own count, or only its lock when the comment is on a log.
    const counted = await tx
      .update(projects)
      .set({ commentCount: sql`${projects.commentCount} + ${logId === null ? 1 : 0}` })
      .where(and(eq(projects.id, project.id), eq(projects.status, 'published')))
      .returning({ id: projects.id });
    if (counted.length === 0) throw new AppError('project_not_found');
    if (logId !== null) {
      const onLiveLog = await tx
        .update(projectLogs)
        .set({ commentCount: sql`${projectLogs.commentCount} + 1` })
        .where(and(eq(projectLogs.id, logId), isNull(projectLogs.deletedAt)))
        .returning({ id: projectLogs.id });
      if (onLiveLog.length === 0) throw new AppError('log_not_found');
    }
    const [row] = await tx.insert(comments).values({ projectId: project.id, logId, authorId: userId, body: text }).returning({ id: comments.id });
    await notifyComment(userId, project.id, row!.id, tx);
    return row!.id;
  });
  await purgeProjectConversation(publicId);
  return (await readComment(id, userId, project)) as CommentThread;
}

/** A comment with the project it belongs to, for writes; 404 when either is gone. */
async function findCommentForWrite(commentId: number, viewerId: number) {
  const [row] = await getDb()
    .select({
      id: comments.id,
      parentId: comments.parentId,
      authorId: comments.authorId,
      projectId: comments.projectId,
      logId: comments.logId,
      deletedAt: comments.deletedAt,
      hiddenAt: comments.hiddenAt,
      projectOwnerId: projects.ownerId,
      projectPublicId: projects.publicId,
      projectStatus: projects.status,
      logDeletedAt: projectLogs.deletedAt,
    })
    .from(comments)
    .innerJoin(projects, eq(projects.id, comments.projectId))
    .leftJoin(projectLogs, eq(projectLogs.id, comments.logId))
    .where(eq(comments.id, commentId))
    .limit(1);
  // A comment on a deleted build log went with it.
  if (!row || row.deletedAt || row.logDeletedAt) throw new AppError('comment_not_found');
  if (row.projectStatus !== 'published') throw new AppError('project_not_found');
  // A hidden comment cannot be answered or liked: only its author and staff still see it.
  if (row.hiddenAt && row.authorId !== viewerId) throw new AppError('comment_not_found');
  return row;
}

/**
 * `comment/reply`: `userId` answers comment or reply `commentId`. The reply joins the thread of
 * the top-level comment and names the author it answers; that author is told (kind `reply`), and
 * the project's owner too (kind `comment`) when they are someone else. Errors: 400 `validation`,
 * 403 `email_not_verified`, 404 `comment_not_found` / `project_not_found`, 409 `duplicate_comment`, 403
 * `links_not_allowed_yet`, 429 `rate_limited` (see `assertMayPost`).
 */
export async function replyToComment(userId: number, commentId: number, content: string): Promise<CommentItem> {
  const text = parseContent(content);
  await assertEmailVerified(userId);
  const target = await findCommentForWrite(commentId, userId);
  await assertMayPost(userId, text);
  const parentId = target.parentId ?? target.id;
  const id = await getDb().transaction(async (tx) => {
    const locked = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.id, target.projectId), eq(projects.status, 'published')))
      .for('no key update');
    if (locked.length === 0) throw new AppError('project_not_found');
    const [row] = await tx
      .insert(comments)
      .values({ projectId: target.projectId, logId: target.logId, authorId: userId, parentId, replyToUserId: target.authorId, body: text })
      .returning({ id: comments.id });
    // Counted rather than added: a reply in a thread staff hid (its author may still answer
    // there) is not among the project's comments a guest is shown.
    await recountComments(tx, [target.projectId], [parentId]);
    await notifyReply(userId, target.authorId, target.projectId, row!.id, tx);
    if (target.projectOwnerId !== target.authorId) await notifyComment(userId, target.projectId, row!.id, tx);
    return row!.id;
  });
  await purgeProjectConversation(target.projectPublicId);
  const { replies: _replies, replyCount: _count, ...item } = await readComment(id, userId, { id: target.projectId, ownerId: target.projectOwnerId });
  return item;
}

async function readComment(id: number, viewerId: number, project: ProjectRef): Promise<CommentThread> {
  const [row] = await selectComments(eq(comments.id, id), viewerId).limit(1);
  const viewer: Viewer = { viewerId, project };
  return { ...toItem(row!, viewer), replies: [], replyCount: row!.replyCount };
}

/**
 * `comment/like`: `userId` likes (`value` true) or unlikes comment `commentId`. Idempotent; the
 * author is told of the first like only, however often it is toggled.
 */
export async function likeComment(userId: number, commentId: number, value: boolean): Promise<{ liked: boolean; likeCount: number }> {
  const target = await findCommentForWrite(commentId, userId);
  await hitMemberRateLimit('comment-like', userId, await readAccountCreatedAt(userId));
  const change = await getDb().transaction(async (tx) => {
    if (value) {
      const added = await tx.insert(commentLikes).values({ userId, commentId }).onConflictDoNothing().returning({ commentId: commentLikes.commentId });
      if (added.length > 0) {
        await tx.update(comments).set({ likeCount: sql`${comments.likeCount} + 1` }).where(eq(comments.id, commentId));
        await notifyCommentLiked(userId, commentId, tx);
      }
    } else {
      const removed = await tx
        .delete(commentLikes)
        .where(and(eq(commentLikes.userId, userId), eq(commentLikes.commentId, commentId)))
        .returning({ commentId: commentLikes.commentId });
      if (removed.length > 0) {
        await tx.update(comments).set({ likeCount: sql`greatest(${comments.likeCount} - 1, 0)` }).where(eq(comments.id, commentId));
      }
    }
    const [row] = await tx.select({ likeCount: comments.likeCount }).from(comments).where(eq(comments.id, target.id));
    return { liked: value, likeCount: row?.likeCount ?? 0 };
  });
  await purgeProjectConversation(target.projectPublicId);
  return change;
}

/**
 * `comment/del`: its author or the project's owner deletes comment `commentId`. The project's
 * comment count drops by one (unless staff had hidden it, which took it out already); a
 * top-level comment with replies stays as a tombstone, anything else disappears from the list.
 * Errors: 403 `forbidden` for anyone else (nothing changes), 404 `comment_not_found` / `project_not_found`.
 */
export async function deleteComment(userId: number, commentId: number): Promise<{ commentId: number }> {
  const target = await findCommentForWrite(commentId, userId);
  if (userId !== target.authorId && userId !== target.projectOwnerId) throw new AppError('forbidden');
  await getDb().transaction(async (tx) => {
    // Lock the project row first, as writing a comment does, so the two never deadlock; NO KEY
    // UPDATE (what an UPDATE takes) still lets likes insert messages that reference the project.
    await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, target.projectId)).for('no key update');
    const removed = await tx
      .update(comments)
      .set({ deletedAt: new Date() })
      .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)))
      .returning({ id: comments.id });
    if (removed.length === 0) throw new AppError('comment_not_found');
    // Counted rather than subtracted: a hidden comment (its author may delete it) left the
    // counts when it was hidden.
    await recountComments(tx, [target.projectId], target.parentId === null ? [] : [target.parentId]);
  });
  await purgeProjectConversation(target.projectPublicId);
  return { commentId };
}
