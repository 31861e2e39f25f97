/**
 * Reports and moderation: members report a project, comment, video, profile, build log, make or
 * collection (each kind in `moderation-targets.ts`); staff dismiss the report, hide the content
 * (it stays for its author and staff, and can be restored) or suspend the member behind it. Every staff action is written to the audit log, and every
 * reporter of the target is told the outcome.
 */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
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
import { auditLog, reports, sessions, users, type ReportKind } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { z as zod } from '../../http/validation.ts';
import { notifyReportResolved } from '../notifications/index.ts';
import { purgeModeratedPages, hitRateLimit } from '../core/index.ts';
import { hasRole } from '../accounts/index.ts';
import type { SessionUser } from '../accounts/index.ts';
import { POSTED_KINDS, TARGET_KINDS, type FoundTarget } from './moderation-targets.ts';

export type ReportSubmitted = z.infer<typeof reportSubmittedSchema>;
export type ReportItem = z.infer<typeof reportItemSchema>;
export type ReportPage = z.infer<typeof reportPageSchema>;
export type ReportResolved = z.infer<typeof reportResolvedSchema>;
export type ContentRestored = z.infer<typeof contentRestoredSchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;

/**
 * The id of a target as the API names it: a public id, a comment's or make's number, a member's
 * custom URL, `<project>/<n>` for a build log, `<member>/<slug>` for a collection.
 */
const targetIdSchema = zod
  .union([zod.string(), zod.number().int().positive()])
  .transform(String)
  .pipe(zod.string().trim().min(1).max(200));

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
  /** With `suspend`: also hide everything the member posted (projects, comments, videos, build logs, makes, collections). */
  hideContent: zod.boolean().optional(),
});

export const restoreInputSchema = zod.object({ kind: zod.enum(REPORT_KINDS), id: targetIdSchema });

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

const userRef = (row: { url: string | null; nickname: string | null; avatar: string | null }) =>
  row.url ? { url: row.url, nickname: row.nickname ?? '', avatar: row.avatar } : null;

type TargetContext = NonNullable<ReportItem['target']>;

/** The target `viewerId` may see (staff see hidden ones), or the kind's 404. */
async function findTarget(db: Executor, kind: ReportKind, id: string, viewerId: number): Promise<FoundTarget> {
  const found = await TARGET_KINDS[kind].find(db, id, viewerId);
  if (!found) throw new AppError(TARGET_KINDS[kind].notFound);
  return found;
}

/** What each reported target looks like now, by `kind:targetId`, read a kind at a time. */
async function loadTargets(list: { kind: ReportKind; targetId: string }[]): Promise<Map<string, TargetContext>> {
  const db = getDb();
  const out = new Map<string, TargetContext>();
  const described = await Promise.all(
    REPORT_KINDS.map(async (kind) => {
      const ids = [...new Set(list.filter((item) => item.kind === kind).map((item) => item.targetId))];
      return { kind, rows: ids.length ? await TARGET_KINDS[kind].describe(db, ids) : [] };
    }),
  );
  for (const { kind, rows } of described) {
    for (const { targetId, target, owner } of rows) out.set(`${kind}:${targetId}`, { ...target, author: userRef(owner), suspended: owner.suspendedAt !== null });
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
 * refused), with `hideContent` also hiding everything they posted (`POSTED_KINDS`). What that
 * hides is stamped with the moment of the suspension, so restoring the member brings back that
 * and nothing staff hid one by one. Staff cannot be suspended (403 `forbidden`: an admin changes
 * their role first). Written to the audit log. Errors: 404 `report_not_found`, 409
 * `report_closed`, 404 `user_not_found` (suspending a member who no longer exists).
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
      const outcome = await TARGET_KINDS[report.kind].setHidden(tx, { targetId: report.targetId }, { hiddenAt: new Date(), hiddenBy: staff.id });
      hidden = outcome.changed;
      purge.projects.push(...outcome.projects);
      if (report.targetUserId !== null) purge.users.push(report.targetUserId);
    } else if (input.action === 'suspend') {
      const [member] =
        report.targetUserId === null
          ? []
          : await tx.select({ id: users.id, role: users.role, suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, report.targetUserId)).for('update');
      if (!member) throw new AppError('user_not_found');
      if (hasRole(member.role, 'moderator')) throw new AppError('forbidden');
      // Suspended again, the member keeps the moment of the first suspension: what it hid stays
      // tied to it, and restoring them brings it all back.
      const suspendedAt = member.suspendedAt ?? new Date();
      await tx.update(users).set({ suspendedAt, updatedAt: new Date() }).where(eq(users.id, member.id));
      const ended = await tx.delete(sessions).where(eq(sessions.userId, member.id)).returning({ userId: sessions.userId });
      details.sessionsEnded = ended.length;
      details.userId = member.id;
      purge.users.push(member.id);
      if (input.hideContent) {
        const counts: Record<string, number> = {};
        for (const kind of POSTED_KINDS) {
          const outcome = await TARGET_KINDS[kind].setHidden(tx, { ownerId: member.id }, { hiddenAt: suspendedAt, hiddenBy: staff.id });
          counts[kind] = outcome.changed;
          hidden += outcome.changed;
          purge.projects.push(...outcome.projects);
        }
        details.hidden = counts;
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
 * member by custom URL, a build log as `<project>/<n>`, a collection as `<member>/<slug>`).
 * Restoring a member also lifts their suspension and restores what the suspension hid; what staff
 * hid one by one stays hidden. Written to the audit log. 404 `<kind>_not_found` when no such item
 * exists; `restored: false` when it was not hidden (nothing changes, nothing is logged).
 */
export async function restoreContent(staff: SessionUser, input: z.output<typeof restoreInputSchema>): Promise<ContentRestored> {
  const purge = { projects: [] as string[], users: [] as number[] };
  const restored = await getDb().transaction(async (tx) => {
    const target = await findTarget(tx, input.kind, input.id, staff.id);
    const shown = { hiddenAt: null, hiddenBy: null };
    const details: Record<string, unknown> = {};
    if (input.kind === 'user') {
      const [member] = await tx
        .select({ hiddenAt: users.hiddenAt, suspendedAt: users.suspendedAt })
        .from(users)
        .where(eq(users.id, target.ownerId))
        .for('update');
      if (!member || (member.hiddenAt === null && member.suspendedAt === null)) return false;
      await tx.update(users).set({ ...shown, suspendedAt: null, updatedAt: new Date() }).where(eq(users.id, target.ownerId));
      if (member.suspendedAt) {
        const counts: Record<string, number> = {};
        for (const kind of POSTED_KINDS) {
          const outcome = await TARGET_KINDS[kind].setHidden(tx, { ownerId: target.ownerId, hiddenAt: member.suspendedAt }, shown);
          counts[kind] = outcome.changed;
          purge.projects.push(...outcome.projects);
        }
        details.restored = counts;
      }
    } else {
      const outcome = await TARGET_KINDS[input.kind].setHidden(tx, { targetId: target.targetId }, shown);
      if (outcome.changed === 0) return false;
      purge.projects.push(...outcome.projects);
    }
    purge.users.push(target.ownerId);
    await writeAudit(tx, { actorId: staff.id, action: 'content.restore', targetKind: input.kind, targetId: target.targetId, note: '', details });
    return true;
  });
  if (restored) await purgeModeratedPages([...new Set(purge.projects)], purge.users);
  return { kind: input.kind, id: input.id, restored };
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

