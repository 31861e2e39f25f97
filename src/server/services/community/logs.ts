/**
 * Build logs: dated entries a project's owner posts as the work goes on (`log/save`, `log/list`,
 * `log/del`), each with its own page (`/d-{id}/log/{n}`), comments, a place in the project's
 * Atom feed and an activity for followers.
 */
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { LOG_BODY_MAX, LOG_TITLE_MAX, logPath } from '../../../lib/logs.ts';
import { countCharacters, excerptOf } from '../../../lib/text.ts';
import type { LogEntry } from '../../../lib/contract/schemas/logs.ts';
import { getDb, type Executor } from '../../db/client.ts';
import { activities, projectLogs, projects, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { parseInput, pagingSchema, z } from '../../http/validation.ts';
import { announceActivities, forgetActivities, recordActivity } from '../notifications/index.ts';
import { imagesInHtml, renderDescription, purgeProjectPages, hitMemberRateLimitById, visibleTo, findPublishedProject, type PublishedProjectRef } from '../core/index.ts';
import type { Page } from '../../lib/paging.ts';
import type { FeedEntry } from '../../lib/syndication.ts';

export type { LogEntry };

/** A log's title: one line, 1–120 characters. Field errors: `required`, `too_big`. */
export const logTitleSchema = z
  .string()
  .max(LOG_TITLE_MAX * 10, 'too_big')
  .transform((text) => text.replace(/\s+/g, ' ').trim())
  .superRefine((text, ctx) => {
    if (!text) ctx.addIssue({ code: 'custom', message: 'required' });
    else if (countCharacters(text) > LOG_TITLE_MAX) ctx.addIssue({ code: 'custom', message: 'too_big' });
  });

/**
 * A log's Markdown: line ends made `\n`, surrounding blank space gone (trailing spaces inside
 * stay: they are Markdown's line breaks), then 1–20,000 characters. Field errors: `required`, `too_big`.
 */
export const logContentSchema = z
  .string()
  .max(LOG_BODY_MAX * 4, 'too_big')
  .transform((text) => text.replace(/\r\n?/g, '\n').trim())
  .superRefine((text, ctx) => {
    if (!text) ctx.addIssue({ code: 'custom', message: 'required' });
    else if (countCharacters(text) > LOG_BODY_MAX) ctx.addIssue({ code: 'custom', message: 'too_big' });
  });

export const logNumberSchema = z.coerce.number().int().positive().max(2_147_483_647);
const projectIdSchema = z.string().trim().min(1).max(64);

export const saveLogInputSchema = z.object({ id: projectIdSchema, n: logNumberSchema.optional(), title: logTitleSchema, content: logContentSchema });
export const listLogsInputSchema = pagingSchema.extend({ id: projectIdSchema });
export const deleteLogInputSchema = z.object({ id: projectIdSchema, n: logNumberSchema });

const logColumns = {
  id: projectLogs.id,
  n: projectLogs.n,
  title: projectLogs.title,
  body: projectLogs.body,
  bodyHtml: projectLogs.bodyHtml,
  bodyText: projectLogs.bodyText,
  commentCount: projectLogs.commentCount,
  createdAt: projectLogs.createdAt,
  updatedAt: projectLogs.updatedAt,
  hiddenAt: projectLogs.hiddenAt,
  authorUrl: users.customUrl,
  authorNickname: users.nickname,
  authorAvatar: users.avatar,
};

function toEntry(publicId: string, row: LogRow): LogEntry {
  return {
    n: row.n,
    title: row.title,
    content: row.body,
    contentHtml: row.bodyHtml,
    excerpt: excerptOf(row.bodyText, 280),
    author: { url: row.authorUrl, nickname: row.authorNickname, avatar: row.authorAvatar },
    commentCount: row.commentCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    path: logPath(publicId, row.n),
    hidden: row.hiddenAt !== null,
  };
}

/** The logs of project `projectId` that `viewerId` may read: not deleted; not hidden, unless theirs or the viewer is staff. */
const readableLogs = (projectId: number, viewerId: number | null) =>
  and(eq(projectLogs.projectId, projectId), isNull(projectLogs.deletedAt), visibleTo(projectLogs.hiddenAt, projectLogs.authorId, viewerId));

function selectLogs() {
  return getDb().select(logColumns).from(projectLogs).innerJoin(users, eq(users.id, projectLogs.authorId));
}

type LogRow = Awaited<ReturnType<typeof selectLogs>>[number];

/** The project `userId` may write logs on: published (a deleted one is `project_not_found`) and theirs (`log_owner_only`). */
async function findOwnProject(userId: number, publicId: string): Promise<PublishedProjectRef> {
  const project = await findPublishedProject(publicId, userId);
  if (project.ownerId !== userId) throw new AppError('log_owner_only');
  return project;
}

/**
 * Locks the project's row for a log write (so two posts never take the same number) and checks it
 * is still published: deleted between the look-up and now, it is `project_not_found`.
 */
async function lockProject(tx: Executor, projectId: number): Promise<void> {
  const locked = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.status, 'published')))
    .for('no key update');
  if (locked.length === 0) throw new AppError('project_not_found');
}

/**
 * Sets the `logCount` of projects (internal ids) to their logs as a guest sees them (neither
 * deleted nor hidden), in the caller's transaction: after a log is posted, deleted, hidden or restored.
 */
export function recountLogs(db: Executor, projectIds: number[]): Promise<{ publicId: string; logCount: number }[]> {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .update(projects)
    .set({ logCount: sql`(SELECT count(*)::int FROM ${projectLogs} WHERE ${projectLogs.projectId} = ${projects.id} AND ${projectLogs.deletedAt} IS NULL AND ${projectLogs.hiddenAt} IS NULL)` })
    .where(inArray(projects.id, projectIds))
    .returning({ publicId: projects.publicId, logCount: projects.logCount });
}

async function readLog(publicId: string, id: number): Promise<LogEntry> {
  const [row] = await selectLogs().where(eq(projectLogs.id, id)).limit(1);
  return toEntry(publicId, row!);
}

/**
 * `log/save`: the owner of project `id` posts its next log (numbered after the highest it ever
 * had), or with `n` edits log `n`. The body is rendered and sanitized as a description is. A new
 * log raises `logCount` and is recorded for followers in the same transaction.
 * Errors: 400 `validation`, 403 `log_owner_only`, 404 `project_not_found` (also a deleted project) /
 * `log_not_found`, 429 `rate_limited`.
 */
export async function saveLog(userId: number, input: unknown): Promise<LogEntry> {
  const { id: publicId, n, title, content } = parseInput(saveLogInputSchema, input);
  const project = await findOwnProject(userId, publicId);
  await hitMemberRateLimitById('log:user', userId);
  const rendered = await renderDescription(content);
  const written = { title, body: content, bodyHtml: rendered.html, bodyText: rendered.text };
  const { id, created } = await getDb().transaction(async (tx) => {
    await lockProject(tx, project.id);
    if (n !== undefined) {
      const [edited] = await tx
        .update(projectLogs)
        .set({ ...written, updatedAt: new Date() })
        .where(and(eq(projectLogs.projectId, project.id), eq(projectLogs.n, n), isNull(projectLogs.deletedAt)))
        .returning({ id: projectLogs.id });
      if (!edited) throw new AppError('log_not_found');
      // Followers' feeds show the title as it is now.
      await tx.update(activities).set({ title: title.slice(0, 200) }).where(and(eq(activities.kind, 'log'), eq(activities.refId, edited.id)));
      return { id: edited.id, created: false };
    }
    // Deleted logs keep their rows, so the highest number ever given is still here.
    const [last] = await tx.select({ n: sql<number>`coalesce(max(${projectLogs.n}), 0)::int` }).from(projectLogs).where(eq(projectLogs.projectId, project.id));
    const next = (last?.n ?? 0) + 1;
    const [row] = await tx
      .insert(projectLogs)
      .values({ projectId: project.id, n: next, authorId: userId, ...written })
      .returning({ id: projectLogs.id });
    await recountLogs(tx, [project.id]);
    await recordActivity(tx, { kind: 'log', actorId: userId, projectId: project.id, refId: row!.id, title, path: logPath(publicId, next) });
    return { id: row!.id, created: true };
  });
  if (created) await announceActivities();
  await purgeProjectPages(publicId, project.ownerId);
  return readLog(publicId, id);
}

/**
 * `log/del`: the owner deletes log `n` of project `id`. Its number is never given again; its
 * comments go with it; followers' feeds forget it. Errors: 403 `log_owner_only`, 404
 * `project_not_found` / `log_not_found`.
 */
export async function deleteLog(userId: number, input: unknown): Promise<{ n: number }> {
  const { id: publicId, n } = parseInput(deleteLogInputSchema, input);
  const project = await findOwnProject(userId, publicId);
  await getDb().transaction(async (tx) => {
    await lockProject(tx, project.id);
    const [removed] = await tx
      .update(projectLogs)
      .set({ deletedAt: new Date() })
      .where(and(eq(projectLogs.projectId, project.id), eq(projectLogs.n, n), isNull(projectLogs.deletedAt)))
      .returning({ id: projectLogs.id });
    if (!removed) throw new AppError('log_not_found');
    await recountLogs(tx, [project.id]);
    await forgetActivities(tx, 'log', [removed.id]);
  });
  await purgeProjectPages(publicId, project.ownerId);
  return { n };
}

/**
 * `log/list`: a page of the logs of project `id`, newest first, as `viewerId` may read them (a
 * hidden project's only for its owner and staff).
 */
export async function listLogs(input: unknown, viewerId: number | null, found?: PublishedProjectRef): Promise<Page<LogEntry>> {
  const { id: publicId, page, pageSize } = parseInput(listLogsInputSchema, input);
  const project = found ?? (await findPublishedProject(publicId, viewerId));
  const where = readableLogs(project.id, viewerId);
  const [rows, [counted]] = await Promise.all([
    selectLogs()
      .where(where)
      .orderBy(desc(projectLogs.createdAt), desc(projectLogs.n))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    getDb().select({ n: sql<number>`count(*)::int` }).from(projectLogs).where(where),
  ]);
  return { list: rows.map((row) => toEntry(publicId, row)), total: counted?.n ?? 0, page, pageSize };
}

/** A neighbouring log, for the previous/next links of a log's page. */
export interface LogNeighbour {
  n: number;
  title: string;
}

/** One log as its page shows it, with the logs before and after it. */
export interface LogView {
  log: LogEntry;
  /** The internal id: comments on the log are kept by it. */
  logId: number;
  previous: LogNeighbour | null;
  next: LogNeighbour | null;
}

/** The internal id of log `n` of `project` as `viewerId` may read it, or 404 `log_not_found`. */
export async function findLogId(project: PublishedProjectRef, n: number, viewerId: number | null): Promise<number> {
  const [row] = await getDb()
    .select({ id: projectLogs.id })
    .from(projectLogs)
    .where(and(readableLogs(project.id, viewerId), eq(projectLogs.n, n)))
    .limit(1);
  if (!row) throw new AppError('log_not_found');
  return row.id;
}

/** Log `n` of the published project `publicId` (found as `project`) for `viewerId`, or 404 `log_not_found`. */
export async function getLogView(publicId: string, project: PublishedProjectRef, n: number, viewerId: number | null): Promise<LogView> {
  const readable = readableLogs(project.id, viewerId);
  const [row] = await selectLogs().where(and(readable, eq(projectLogs.n, n))).limit(1);
  if (!row) throw new AppError('log_not_found');
  const neighbour = { n: projectLogs.n, title: projectLogs.title };
  const [[previous], [next]] = await Promise.all([
    getDb().select(neighbour).from(projectLogs).where(and(readable, lt(projectLogs.n, n))).orderBy(desc(projectLogs.n)).limit(1),
    getDb().select(neighbour).from(projectLogs).where(and(readable, gt(projectLogs.n, n))).orderBy(asc(projectLogs.n)).limit(1),
  ]);
  return { log: toEntry(publicId, row), logId: row.id, previous: previous ?? null, next: next ?? null };
}

/**
 * The newest logs of project `projectId` (public id `publicId`) as entries of its Atom feed, as a
 * guest reads them: the whole sanitized body with its first picture as the entry's image.
 */
export async function listLogFeedEntries(project: PublishedProjectRef, publicId: string, limit: number): Promise<FeedEntry[]> {
  const rows = await selectLogs()
    .where(readableLogs(project.id, null))
    .orderBy(desc(projectLogs.createdAt), desc(projectLogs.n))
    .limit(limit);
  return rows.map((row) => ({
    id: publicId,
    path: logPath(publicId, row.n),
    contentHtml: row.bodyHtml,
    title: row.title,
    summary: excerptOf(row.bodyText, 280),
    author: { url: row.authorUrl, nickname: row.authorNickname },
    publishedAt: row.createdAt,
    updatedAt: row.updatedAt,
    image: imagesInHtml(row.bodyHtml).find(({ src }) => src.startsWith('/files/'))?.src ?? null,
    tags: [],
  }));
}
