import { and, count, desc, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { MessageItem, MessagePage } from '../../../lib/conversation-types.ts';
import { excerptOf } from '../../../lib/text.ts';
import { getDb } from '../../db/client.ts';
import { activities, comments, messages, projectLogs, projects, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';

export type { MessageItem, MessagePage };

const actor = alias(users, 'actor');

/**
 * The badge counts a member's unread messages up to this many (it shows "99+" beyond 99): every
 * signed-in page reads the count, and counting a million unread messages (a member following every
 * tag of a busy site) took 135 ms. The messages page counts them all.
 */
export const UNREAD_BADGE_LIMIT = 1000;

/** The unread messages of the member `recipient` (a column or an id), counted up to `limit`, through `messages_unread_idx`. */
export const unreadCountSql = (recipient: SQLWrapper | number, limit: number = UNREAD_BADGE_LIMIT) =>
  sql<number>`(SELECT count(*)::int FROM (SELECT 1 FROM ${messages} WHERE ${and(eq(messages.recipientId, recipient), isNull(messages.readAt))} LIMIT ${limit}) AS unread)`;

/** How many unread messages `userId` has: all of them, or up to `limit` (the badge: `UNREAD_BADGE_LIMIT`). */
export async function countUnreadMessages(userId: number, limit?: number): Promise<number> {
  if (limit !== undefined) {
    const { rows } = await getDb().execute<{ n: number }>(sql`SELECT ${unreadCountSql(userId, limit)} AS n`);
    return rows[0]?.n ?? 0;
  }
  const [row] = await getDb()
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.recipientId, userId), isNull(messages.readAt)));
  return row?.n ?? 0;
}

/**
 * `message/list`: the messages of `userId`, unread first, then newest first; with `unreadOnly`,
 * only unread ones. `unread` counts every unread message.
 */
export async function listMessages(userId: number, input: { page: number; pageSize: number; unreadOnly?: boolean }): Promise<MessagePage> {
  const db = getDb();
  const where = input.unreadOnly ? and(eq(messages.recipientId, userId), isNull(messages.readAt)) : eq(messages.recipientId, userId);
  const [rows, [total], unread] = await Promise.all([
    db
      .select({
        id: messages.id,
        kind: messages.kind,
        body: messages.body,
        readAt: messages.readAt,
        createdAt: messages.createdAt,
        actorUrl: actor.customUrl,
        actorNickname: actor.nickname,
        actorAvatar: actor.avatar,
        projectId: projects.publicId,
        projectTitle: projects.title,
        projectStatus: projects.status,
        projectHidden: sql<boolean>`${projects.hiddenAt} IS NOT NULL`,
        commentId: comments.id,
        commentBody: comments.body,
        commentDeletedAt: comments.deletedAt,
        logN: projectLogs.n,
        logDeletedAt: projectLogs.deletedAt,
        path: activities.path,
      })
      .from(messages)
      .leftJoin(actor, eq(actor.id, messages.actorId))
      .leftJoin(projects, eq(projects.id, messages.projectId))
      .leftJoin(comments, eq(comments.id, messages.commentId))
      .leftJoin(projectLogs, eq(projectLogs.id, comments.logId))
      .leftJoin(activities, eq(activities.id, messages.activityId))
      .where(where)
      .orderBy(sql`(${messages.readAt} is null) desc`, desc(messages.createdAt), desc(messages.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(messages).where(where),
    countUnreadMessages(userId),
  ]);
  return {
    list: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      actor: row.actorUrl ? { url: row.actorUrl, nickname: row.actorNickname ?? '', avatar: row.actorAvatar } : null,
      project: row.projectId && row.projectStatus === 'published' && !row.projectHidden ? { id: row.projectId, title: row.projectTitle ?? '' } : null,
      comment:
        row.commentId !== null && !row.commentDeletedAt && !row.logDeletedAt && row.projectStatus === 'published'
          ? { id: row.commentId, excerpt: excerptOf(row.commentBody ?? '', 140), ...(row.logN !== null ? { log: row.logN } : {}) }
          : null,
      body: row.body,
      path: row.path,
      read: row.readAt !== null,
      createdAt: row.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
    unread,
  };
}

/** `message/read`: marks one of `userId`'s messages read; someone else's id is a 404. */
export async function markMessageRead(userId: number, id: number): Promise<{ id: number; unread: number }> {
  const db = getDb();
  const [row] = await db
    .select({ id: messages.id, readAt: messages.readAt })
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.recipientId, userId)))
    .limit(1);
  if (!row) throw new AppError('message_not_found');
  if (!row.readAt) {
    await db
      .update(messages)
      .set({ readAt: new Date() })
      .where(and(eq(messages.id, id), isNull(messages.readAt)));
  }
  return { id, unread: await countUnreadMessages(userId) };
}

/** `message/allRead`: marks every unread message of `userId` read; `updated` is how many. */
export async function markAllMessagesRead(userId: number): Promise<{ updated: number }> {
  const updated = await getDb()
    .update(messages)
    .set({ readAt: new Date() })
    .where(and(eq(messages.recipientId, userId), isNull(messages.readAt)))
    .returning({ id: messages.id });
  return { updated: updated.length };
}
