/**
 * Reports and moderation: members report a project, comment, video or profile; staff dismiss
 * the report, hide the content (it stays for its author and staff, and can be restored) or
 * suspend the member behind it. Every staff action is written to the audit log, and every
 * reporter of the target is told the outcome.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { logPath } from '../../../lib/logs.ts';
import { projectPath, userPath } from '../../../lib/paths.ts';
import { excerptOf } from '../../../lib/text.ts';
import {
  REPORT_ACTIONS,
  REPORT_KINDS,
  REPORT_REASONS,
  type auditPageSchema,
  type contentRestoredSchema,
  type reportItemSchema,
  type reportPageSchema,
  type reportResolvedSchema,
  type reportSubmittedSchema,
} from '../../../lib/contract/schemas/moderation.ts';
import { getDb, type Executor } from '../../db/client.ts';
import { auditLog, comments, projectLogs, projects, reports, sessions, users, videos, type ReportKind } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { z as zod } from '../../http/validation.ts';
import { commentVisibleTo, recountComments } from '../community/index.ts';
import { notifyReportResolved } from '../notifications/index.ts';
import { purgeModeratedPages, hitRateLimit, visibleTo, isPublishedFor, publishedProjectById } from '../core/index.ts';
import { hasRole } from '../accounts/index.ts';
import type { SessionUser } from '../accounts/index.ts';
import { videoVisibleTo } from '../media/index.ts';

export type ReportSubmitted = z.infer<typeof reportSubmittedSchema>;
export type ReportItem = z.infer<typeof reportItemSchema>;
export type ReportPage = z.infer<typeof reportPageSchema>;
export type ReportResolved = z.infer<typeof reportResolvedSchema>;
export type ContentRestored = z.infer<typeof contentRestoredSchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The id of a target as the API names it: a public id, a comment number, a member's custom URL. */
const targetIdSchema = zod
  .union([zod.string(), zod.number().int().positive()])
  .transform(String)
  .pipe(zod.string().trim().min(1).max(64));

/** `report/submit`: "other" needs a word of explanation; the note is at most 1,000 characters. */
export const reportInputSchema = zod
  .object({
    kind: zod.enum(REPORT_KINDS),
    id: targetIdSchema,
    reason: zod.enum(REPORT_REASONS),
    note: zod.string().trim().max(1000).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.reason === 'other' && !input.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'required' });
  });

export const resolveInputSchema = zod.object({
  id: zod.coerce.number().int().positive().max(2_147_483_647),
  action: zod.enum(REPORT_ACTIONS),
  note: zod.string().trim().max(1000).optional(),
  /** With `suspend`: also hide every project, comment and video of the member. */
  hideContent: zod.boolean().optional(),
});

export const restoreInputSchema = zod.object({ kind: zod.enum(REPORT_KINDS), id: targetIdSchema });

/** A reported target as found: its canonical id (stored on the report) and whose it is. */
interface FoundTarget {
  targetId: string;
  ownerId: number;
}

const NOT_FOUND: Record<ReportKind, 'project_not_found' | 'comment_not_found' | 'video_not_found' | 'user_not_found'> = {
  project: 'project_not_found',
  comment: 'comment_not_found',
  video: 'video_not_found',
  user: 'user_not_found',
};

const asCommentId = (id: string) => (/^\d{1,10}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null);

/**
 * The target `viewerId` may see (staff see hidden ones), or the kind's 404. A member is found by
 * custom URL and stored by internal id, so a report survives a change of address.
 */
async function findTarget(db: Executor, kind: ReportKind, id: string, viewerId: number): Promise<FoundTarget> {
  let row: { ownerId: number; targetId: string } | undefined;
  if (kind === 'project') {
    [row] = await db
      .select({ ownerId: projects.ownerId, targetId: projects.publicId })
      .from(projects)
      .where(publishedProjectById(id, { viewerId }))
      .limit(1);
  } else if (kind === 'comment') {
    const commentId = asCommentId(id);
    if (commentId !== null) {
      [row] = await db
        .select({ ownerId: comments.authorId, targetId: sql<string>`${comments.id}::text` })
        .from(comments)
        .innerJoin(projects, eq(projects.id, comments.projectId))
        .where(and(eq(comments.id, commentId), isNull(comments.deletedAt), commentVisibleTo(viewerId), isPublishedFor(viewerId)))
        .limit(1);
    }
  } else if (kind === 'video') {
    [row] = await db
      .select({ ownerId: videos.ownerId, targetId: videos.id })
      .from(videos)
      .where(and(eq(videos.id, id), eq(videos.status, 'ready'), videoVisibleTo(viewerId)))
      .limit(1);
  } else {
    [row] = await db
      .select({ ownerId: users.id, targetId: sql<string>`${users.id}::text` })
      .from(users)
      .where(and(eq(users.customUrl, id), visibleTo(users.hiddenAt, users.id, viewerId)))
      .limit(1);
  }
  if (!row) throw new AppError(NOT_FOUND[kind]);
  return row;
}

/**
 * `report/submit`: `reporterId` reports a target. Counted against `report:user` first, so a flood
 * is refused whatever it names. Reporting the same target again while the first report is open
 * answers that report (`merged: true`) and changes nothing: a double click or a retry is not a
 * second voice, and the queue's count of reports on a target stays a count of members.
 * Errors: 400 `validation`, 404 `<kind>_not_found`, 429 `rate_limited`.
 */
export async function submitReport(reporterId: number, input: z.output<typeof reportInputSchema>): Promise<ReportSubmitted> {
  await hitRateLimit('report:user', reporterId);
  const db = getDb();
  const target = await findTarget(db, input.kind, input.id, reporterId);
  const [inserted] = await db
    .insert(reports)
    .values({ reporterId, kind: input.kind, targetId: target.targetId, targetUserId: target.ownerId, reason: input.reason, note: input.note ?? '' })
    .onConflictDoNothing({ target: [reports.reporterId, reports.kind, reports.targetId], where: sql`${reports.status} = 'open'` })
    .returning({ id: reports.id });
  if (inserted) return { id: inserted.id, merged: false };
  const [open] = await db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.reporterId, reporterId), eq(reports.kind, input.kind), eq(reports.targetId, target.targetId), eq(reports.status, 'open')))
    .limit(1);
  if (!open) throw new AppError('conflict');
  return { id: open.id, merged: true };
}

const reporter = alias(users, 'reporter');
const resolver = alias(users, 'resolver');
const owner = alias(users, 'owner');

const userRef = (row: { url: string | null; nickname: string | null; avatar: string | null }) =>
  row.url ? { url: row.url, nickname: row.nickname ?? '', avatar: row.avatar } : null;

type TargetContext = NonNullable<ReportItem['target']>;

/** What each reported target looks like now, by `kind:targetId`, read a kind at a time. */
async function loadTargets(list: { kind: ReportKind; targetId: string }[]): Promise<Map<string, TargetContext>> {
  const db = getDb();
  const ids = (kind: ReportKind) => [...new Set(list.filter((item) => item.kind === kind).map((item) => item.targetId))];
  const out = new Map<string, TargetContext>();
  const ownerColumns = { url: owner.customUrl, nickname: owner.nickname, avatar: owner.avatar, suspendedAt: owner.suspendedAt };
  const put = (
    kind: ReportKind,
    id: string,
    target: Omit<TargetContext, 'suspended' | 'author'>,
    o: { url: string; nickname: string; avatar: string | null; suspendedAt: Date | null },
  ) =>
    out.set(`${kind}:${id}`, { ...target, author: userRef(o), suspended: o.suspendedAt !== null });
  const projectIds = ids('project');
  const commentIds = ids('comment').map(asCommentId).filter((id): id is number => id !== null);
  const videoIds = ids('video');
  const userIds = ids('user').map(Number).filter(Number.isSafeInteger);
  const [projectRows, commentRows, videoRows, userRows] = await Promise.all([
    projectIds.length
      ? db
          .select({ id: projects.publicId, title: projects.title, summary: projects.summary, hiddenAt: projects.hiddenAt, status: projects.status, ...ownerColumns })
          .from(projects)
          .innerJoin(owner, eq(owner.id, projects.ownerId))
          .where(inArray(projects.publicId, projectIds))
      : [],
    commentIds.length
      ? db
          .select({ id: comments.id, body: comments.body, hiddenAt: comments.hiddenAt, deletedAt: comments.deletedAt, projectId: projects.publicId, projectTitle: projects.title, logN: projectLogs.n, ...ownerColumns })
          .from(comments)
          .innerJoin(projects, eq(projects.id, comments.projectId))
          .leftJoin(projectLogs, eq(projectLogs.id, comments.logId))
          .innerJoin(owner, eq(owner.id, comments.authorId))
          .where(inArray(comments.id, commentIds))
      : [],
    videoIds.length
      ? db
          .select({ id: videos.id, title: videos.title, hiddenAt: videos.hiddenAt, ...ownerColumns })
          .from(videos)
          .innerJoin(owner, eq(owner.id, videos.ownerId))
          .where(inArray(videos.id, videoIds))
      : [],
    userIds.length
      ? db
          .select({ id: owner.id, bio: owner.bio, hiddenAt: owner.hiddenAt, ...ownerColumns })
          .from(owner)
          .where(inArray(owner.id, userIds))
      : [],
  ]);
  for (const row of projectRows) {
    if (row.status !== 'published') continue;
    put('project', row.id, { ref: row.id, title: row.title, excerpt: excerptOf(row.summary, 200), href: projectPath(row.id), hidden: row.hiddenAt !== null }, row);
  }
  for (const row of commentRows) {
    if (row.deletedAt) continue;
    // A comment on a build log is shown on the log's page.
    const href = `${row.logN !== null ? logPath(row.projectId, row.logN) : projectPath(row.projectId)}?comment=${row.id}#comment-${row.id}`;
    put('comment', String(row.id), { ref: String(row.id), title: row.projectTitle, excerpt: excerptOf(row.body, 200), href, hidden: row.hiddenAt !== null }, row);
  }
  for (const row of videoRows) {
    put('video', row.id, { ref: row.id, title: row.title, excerpt: '', href: `/video/player?id=${encodeURIComponent(row.id)}`, hidden: row.hiddenAt !== null }, row);
  }
  for (const row of userRows) {
    put('user', String(row.id), { ref: row.url, title: row.nickname, excerpt: excerptOf(row.bio, 200), href: userPath(row.url), hidden: row.hiddenAt !== null }, row);
  }
  return out;
}

/**
 * `admin/report/list`: open reports oldest first (the queue), or closed ones most recently
 * resolved first; each with what it is about as it is now, its reporter, and how many open
 * reports name the same target.
 */
export async function listReports(input: { status?: 'open' | 'closed' | undefined; page: number; pageSize: number }): Promise<ReportPage> {
  const db = getDb();
  const status = input.status ?? 'open';
  const openOnTarget = sql<number>`(SELECT count(*)::int FROM reports r2 WHERE r2.kind = ${reports.kind} AND r2.target_id = ${reports.targetId} AND r2.status = 'open')`;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        report: reports,
        openOnTarget,
        reporterUrl: reporter.customUrl,
        reporterNickname: reporter.nickname,
        reporterAvatar: reporter.avatar,
        resolverUrl: resolver.customUrl,
        resolverNickname: resolver.nickname,
        resolverAvatar: resolver.avatar,
      })
      .from(reports)
      .leftJoin(reporter, eq(reporter.id, reports.reporterId))
      .leftJoin(resolver, eq(resolver.id, reports.resolvedBy))
      .where(eq(reports.status, status))
      .orderBy(...(status === 'open' ? [asc(reports.createdAt), asc(reports.id)] : [desc(reports.resolvedAt), desc(reports.id)]))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(reports).where(eq(reports.status, status)),
  ]);
  const targets = await loadTargets(rows.map((row) => row.report));
  return {
    list: rows.map(({ report, ...row }) => ({
      id: report.id,
      kind: report.kind,
      targetId: report.targetId,
      reason: report.reason,
      note: report.note,
      status: report.status,
      createdAt: report.createdAt.toISOString(),
      reporter: userRef({ url: row.reporterUrl, nickname: row.reporterNickname, avatar: row.reporterAvatar }),
      openOnTarget: row.openOnTarget,
      target: targets.get(`${report.kind}:${report.targetId}`) ?? null,
      resolution:
        report.action && report.resolvedAt
          ? {
              action: report.action,
              by: userRef({ url: row.resolverUrl, nickname: row.resolverNickname, avatar: row.resolverAvatar }),
              at: report.resolvedAt.toISOString(),
              note: report.resolutionNote,
            }
          : null,
    })),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * Hides (`staffId` set) or restores (null) one target, when it is not so already: the rows
 * changed (none when it was). A comment's counts follow it (see `hideComments`).
 */
async function hideTarget(db: Executor, kind: ReportKind, targetId: string, staffId: number | null): Promise<unknown[]> {
  const set = { hiddenAt: staffId === null ? null : new Date(), hiddenBy: staffId };
  const pending = (column: typeof projects.hiddenAt | typeof comments.hiddenAt | typeof videos.hiddenAt | typeof users.hiddenAt) =>
    staffId === null ? isNotNull(column) : isNull(column);
  switch (kind) {
    case 'project':
      return db.update(projects).set(set).where(and(eq(projects.publicId, targetId), pending(projects.hiddenAt))).returning({ id: projects.id });
    case 'comment':
      return hideComments(db, and(eq(comments.id, asCommentId(targetId) ?? 0), pending(comments.hiddenAt))!, set);
    case 'video':
      return db.update(videos).set(set).where(and(eq(videos.id, targetId), pending(videos.hiddenAt))).returning({ id: videos.ownerId });
    case 'user':
      return db.update(users).set(set).where(and(eq(users.id, Number(targetId) || 0), pending(users.hiddenAt))).returning({ id: users.id });
  }
}

/**
 * Hides or restores the comments `where` picks, and sets their projects' comment counts and their
 * threads' reply counts to what a guest is then shown. The projects' rows are locked first, in
 * id order, as every comment write locks its project before touching comments.
 */
async function hideComments(db: Executor, where: SQL, set: { hiddenAt: Date | null; hiddenBy: number | null }) {
  const touched = await db.select({ projectId: comments.projectId }).from(comments).where(where);
  const projectIds = [...new Set(touched.map((row) => row.projectId))].sort((a, b) => a - b);
  if (projectIds.length === 0) return [];
  await db.select({ id: projects.id }).from(projects).where(inArray(projects.id, projectIds)).orderBy(asc(projects.id)).for('no key update');
  const changed = await db
    .update(comments)
    .set(set)
    .where(where)
    .returning({ id: comments.id, projectId: comments.projectId, parentId: comments.parentId });
  const parentIds = [...new Set(changed.flatMap((row) => (row.parentId === null ? [] : [row.parentId])))];
  await recountComments(db, [...new Set(changed.map((row) => row.projectId))], parentIds);
  return changed;
}

/** The public ids of the projects whose pages show a target (to purge them), by kind. */
async function pagesOf(db: Executor, kind: ReportKind, targetId: string): Promise<string[]> {
  if (kind === 'project') return [targetId];
  if (kind === 'comment') {
    const rows = await db
      .select({ id: projects.publicId })
      .from(comments)
      .innerJoin(projects, eq(projects.id, comments.projectId))
      .where(eq(comments.id, asCommentId(targetId) ?? 0));
    return rows.map((row) => row.id);
  }
  if (kind === 'video') {
    const rows = await db
      .select({ id: projects.publicId })
      .from(videos)
      .innerJoin(projects, eq(projects.id, videos.projectId))
      .where(eq(videos.id, targetId));
    return rows.map((row) => row.id);
  }
  return [];
}

/** One entry of the audit log, in the caller's transaction. `actorId` null: the operator at the console (`npm run ops`). */
export async function writeAudit(
  db: Executor,
  entry: { actorId: number | null; action: string; targetKind: string; targetId: string; note: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({ ...entry, details: entry.details ?? {} });
}

/**
 * `admin/report/resolve`: staff act on report `id`, and every open report on the same target is
 * closed with it (its reporters all told the outcome): `dismiss` changes nothing else; `hide`
 * hides the target; `suspend` suspends the member behind it (their sessions end, signing in is
 * refused), with `hideContent` also hiding all their projects, comments and videos. Staff cannot
 * be suspended (403 `forbidden`: an admin changes their role first). Written to the audit log.
 * Errors: 404 `report_not_found`, 409 `report_closed`, 404 `user_not_found` (suspending a
 * member who no longer exists).
 */
export async function resolveReport(staff: SessionUser, input: z.output<typeof resolveInputSchema>): Promise<ReportResolved> {
  const note = input.note ?? '';
  const purge = { projects: [] as string[], users: [] as number[] };
  const result = await getDb().transaction(async (tx) => {
    const [report] = await tx.select().from(reports).where(eq(reports.id, input.id)).for('update').limit(1);
    if (!report) throw new AppError('report_not_found');
    if (report.status !== 'open') throw new AppError('report_closed');
    let hidden = 0;
    const details: Record<string, unknown> = { reportId: report.id, reason: report.reason };
    if (input.action === 'hide') {
      hidden = (await hideTarget(tx, report.kind, report.targetId, staff.id)).length;
      purge.projects.push(...(await pagesOf(tx, report.kind, report.targetId)));
      if (report.targetUserId !== null) purge.users.push(report.targetUserId);
    } else if (input.action === 'suspend') {
      const [member] = report.targetUserId === null ? [] : await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, report.targetUserId)).for('update');
      if (!member) throw new AppError('user_not_found');
      if (hasRole(member.role, 'moderator')) throw new AppError('forbidden');
      await tx.update(users).set({ suspendedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, member.id));
      const ended = await tx.delete(sessions).where(eq(sessions.userId, member.id)).returning({ userId: sessions.userId });
      details.sessionsEnded = ended.length;
      details.userId = member.id;
      purge.users.push(member.id);
      if (input.hideContent) {
        const set = { hiddenAt: new Date(), hiddenBy: staff.id };
        const hiddenProjects = await tx
          .update(projects)
          .set(set)
          .where(and(eq(projects.ownerId, member.id), isNull(projects.hiddenAt)))
          .returning({ id: projects.publicId });
        const hiddenComments = await hideComments(tx, and(eq(comments.authorId, member.id), isNull(comments.hiddenAt))!, set);
        const hiddenVideos = await tx
          .update(videos)
          .set(set)
          .where(and(eq(videos.ownerId, member.id), isNull(videos.hiddenAt)))
          .returning({ id: videos.id });
        hidden = hiddenProjects.length + hiddenComments.length + hiddenVideos.length;
        details.hidden = { projects: hiddenProjects.length, comments: hiddenComments.length, videos: hiddenVideos.length };
        purge.projects.push(...hiddenProjects.map((row) => row.id));
        const commented = [...new Set(hiddenComments.map((row) => row.projectId))];
        if (commented.length) {
          const rows = await tx.select({ id: projects.publicId }).from(projects).where(inArray(projects.id, commented));
          purge.projects.push(...rows.map((row) => row.id));
        }
      }
    }
    const closed = await tx
      .update(reports)
      .set({ status: 'closed', action: input.action, resolvedBy: staff.id, resolvedAt: new Date(), resolutionNote: note })
      .where(and(eq(reports.kind, report.kind), eq(reports.targetId, report.targetId), eq(reports.status, 'open')))
      .returning({ id: reports.id, reporterId: reports.reporterId });
    for (const reporterId of new Set(closed.map((row) => row.reporterId))) await notifyReportResolved(reporterId, input.action, tx);
    details.closedReports = closed.map((row) => row.id);
    await writeAudit(tx, { actorId: staff.id, action: `report.${input.action}`, targetKind: report.kind, targetId: report.targetId, note, details });
    return { id: report.id, action: input.action, closed: closed.length, hidden };
  });
  if (purge.projects.length || purge.users.length) await purgeModeratedPages([...new Set(purge.projects)], [...new Set(purge.users)]);
  return result;
}

/**
 * `admin/content/restore`: shows hidden content again (`kind` and the id the API names it by: a
 * member by custom URL). Restoring a member also lifts their suspension; the content hidden with
 * it is restored item by item. Written to the audit log. 404 `<kind>_not_found` when no such item
 * exists; `restored: false` when it was not hidden (nothing changes, nothing is logged).
 */
export async function restoreContent(staff: SessionUser, input: z.output<typeof restoreInputSchema>): Promise<ContentRestored> {
  const purge = { projects: [] as string[], users: [] as number[] };
  const restored = await getDb().transaction(async (tx) => {
    const target = await findTarget(tx, input.kind, input.id, staff.id);
    let changed: boolean;
    if (input.kind === 'user') {
      const rows = await tx
        .update(users)
        .set({ hiddenAt: null, hiddenBy: null, suspendedAt: null, updatedAt: new Date() })
        .where(and(eq(users.id, target.ownerId), sql`(${users.hiddenAt} IS NOT NULL OR ${users.suspendedAt} IS NOT NULL)`))
        .returning({ id: users.id });
      changed = rows.length > 0;
    } else {
      const hiddenNow = await isHidden(tx, input.kind, target.targetId);
      changed = hiddenNow && (await hideTarget(tx, input.kind, target.targetId, null)).length > 0;
    }
    if (!changed) return false;
    purge.projects.push(...(await pagesOf(tx, input.kind, target.targetId)));
    purge.users.push(target.ownerId);
    await writeAudit(tx, { actorId: staff.id, action: 'content.restore', targetKind: input.kind, targetId: target.targetId, note: '' });
    return true;
  });
  if (restored) await purgeModeratedPages(purge.projects, purge.users);
  return { kind: input.kind, id: input.id, restored };
}

async function isHidden(db: Executor, kind: Exclude<ReportKind, 'user'>, targetId: string): Promise<boolean> {
  const rows =
    kind === 'project'
      ? await db.select({ id: projects.id }).from(projects).where(and(eq(projects.publicId, targetId), isNotNull(projects.hiddenAt)))
      : kind === 'comment'
        ? await db.select({ id: comments.id }).from(comments).where(and(eq(comments.id, asCommentId(targetId) ?? 0), isNotNull(comments.hiddenAt)))
        : await db.select({ id: videos.id }).from(videos).where(and(eq(videos.id, targetId), isNotNull(videos.hiddenAt)));
  return rows.length > 0;
}

const actor = alias(users, 'actor');

/** `admin/audit/list`: every staff action, newest first. */
export async function listAudit(input: { page: number; pageSize: number }): Promise<AuditPage> {
  const db = getDb();
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: auditLog, url: actor.customUrl, nickname: actor.nickname, avatar: actor.avatar })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorId))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(auditLog),
  ]);
  return {
    list: rows.map(({ entry, ...row }) => ({
      id: entry.id,
      actor: userRef(row),
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      note: entry.note,
      details: entry.details,
      createdAt: entry.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

