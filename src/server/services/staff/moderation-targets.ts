/**
 * What members may report, one entry per kind: how a target is found by the id the API names it
 * by, how staff see it in the queue, and how it is hidden and restored with the counts, feeds and
 * pages that show it. `moderation.ts` runs reports, suspensions and restores through these alone,
 * so a kind is added here and nowhere else in the flow.
 */
import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { logPath } from '../../../lib/logs.ts';
import { memberCollectionPath, projectPath, userPath } from '../../../lib/paths.ts';
import { projectTabPath } from '../../../lib/project-tabs.ts';
import { excerptOf } from '../../../lib/text.ts';
import type { reportItemSchema } from '../../../lib/contract/schemas/moderation.ts';
import type { Executor } from '../../db/client.ts';
import { comments, makes, memberCollections, projectLogs, projects, users, videos, type ReportKind } from '../../db/schema/index.ts';
import type { ErrorKey } from '../../http/errors.ts';
import { commentVisibleTo, recountComments, recountLogs, recountMakes } from '../community/index.ts';
import { forgetActivities } from '../notifications/index.ts';
import { isPublishedFor, publishedProjectById, visibleTo } from '../core/index.ts';
import { videoVisibleTo } from '../media/index.ts';

/** A reported target as found: its stored id (`reports.targetId`) and whose it is. */
export interface FoundTarget {
  targetId: string;
  ownerId: number;
}

type TargetContext = NonNullable<z.infer<typeof reportItemSchema>['target']>;

/** A target as the queue shows it, with the member behind it (joined as `owner`). */
export interface DescribedTarget {
  targetId: string;
  target: Omit<TargetContext, 'author' | 'suspended'>;
  owner: { url: string; nickname: string; avatar: string | null; suspendedAt: Date | null };
}

/**
 * Which targets of a kind a hide or restore touches: one by its stored id, or everything of one
 * member (a suspension's "hide all their content"); with `hiddenAt`, only what was hidden at that
 * moment (what that suspension hid, not what staff hid one by one).
 */
export type TargetPick = { targetId: string } | { ownerId: number; hiddenAt?: Date };

/** What a hide or restore changed: how many items, and the projects (public ids) whose pages show them. */
export interface HideOutcome {
  changed: number;
  projects: string[];
}

export interface HiddenState {
  hiddenAt: Date | null;
  hiddenBy: number | null;
}

interface TargetKind {
  notFound: ErrorKey;
  /** The target `viewerId` may see (staff see hidden ones) by the id the API names it by. */
  find(db: Executor, id: string, viewerId: number): Promise<FoundTarget | undefined>;
  /** The targets by stored id as they are now; those that no longer exist are left out. */
  describe(db: Executor, targetIds: string[]): Promise<DescribedTarget[]>;
  /** Hides (`state.hiddenAt` set) or restores what `pick` selects, where it is not so already. */
  setHidden(db: Executor, pick: TargetPick, state: HiddenState): Promise<HideOutcome>;
}

const owner = alias(users, 'owner');
const ownerColumns = { url: owner.customUrl, nickname: owner.nickname, avatar: owner.avatar, suspendedAt: owner.suspendedAt };

/** A stored id that is a row number (a comment, a make, a member, a collection), or null. */
export const asRowId = (id: string) => (/^\d{1,10}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null);

/** The stored ids that are row numbers, as numbers; the others left out. */
const rowIds = (ids: string[]) => ids.map(asRowId).filter((id): id is number => id !== null);

/** A build log is named `<project public id>/<n>`, the way its page's address names it. */
function asLogRef(id: string): { publicId: string; n: number } | null {
  const match = /^([A-Za-z0-9_-]{1,64})\/(\d{1,10})$/.exec(id);
  return match && Number(match[2]) <= 2_147_483_647 ? { publicId: match[1]!, n: Number(match[2]) } : null;
}

/** A member's collection is named `<custom URL>/<slug>`, the way its page's address names it. */
function asCollectionRef(id: string): { url: string; slug: string } | null {
  const slash = id.lastIndexOf('/');
  return slash > 0 && slash < id.length - 1 ? { url: id.slice(0, slash), slug: id.slice(slash + 1) } : null;
}

/**
 * The rows `pick` selects of a table: `byId` for one target, else the member's through `ownerColumn`;
 * only those not hidden when hiding, only those hidden (at `pick.hiddenAt`, if given) when restoring.
 */
function picked(pick: TargetPick, columns: { hiddenAt: AnyPgColumn; owner: AnyPgColumn }, byId: (targetId: string) => SQL, hiding: boolean): SQL {
  const which = 'targetId' in pick ? byId(pick.targetId) : eq(columns.owner, pick.ownerId);
  const pending = hiding ? isNull(columns.hiddenAt) : 'hiddenAt' in pick && pick.hiddenAt ? eq(columns.hiddenAt, pick.hiddenAt) : isNotNull(columns.hiddenAt);
  return and(which, pending)!;
}

/** The public ids of projects by internal id. */
async function publicIdsOf(db: Executor, ids: number[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db.select({ id: projects.publicId }).from(projects).where(inArray(projects.id, unique));
  return rows.map((row) => row.id);
}

/**
 * Locks the projects' rows, in id order, before their counts are set again: every comment, log
 * and make write locks its project first, so a moderation that touches several never deadlocks
 * with them.
 */
async function lockProjects(db: Executor, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length) await db.select({ id: projects.id }).from(projects).where(inArray(projects.id, unique)).orderBy(asc(projects.id)).for('no key update');
}

const project: TargetKind = {
  notFound: 'project_not_found',
  async find(db, id, viewerId) {
    const [row] = await db
      .select({ ownerId: projects.ownerId, targetId: projects.publicId })
      .from(projects)
      .where(publishedProjectById(id, { viewerId }))
      .limit(1);
    return row;
  },
  async describe(db, ids) {
    const rows = await db
      .select({ id: projects.publicId, title: projects.title, summary: projects.summary, hiddenAt: projects.hiddenAt, status: projects.status, ...ownerColumns })
      .from(projects)
      .innerJoin(owner, eq(owner.id, projects.ownerId))
      .where(inArray(projects.publicId, ids));
    return rows
      .filter((row) => row.status === 'published')
      .map((row) => ({ targetId: row.id, owner: row, target: { ref: row.id, title: row.title, excerpt: excerptOf(row.summary, 200), href: projectPath(row.id), hidden: row.hiddenAt !== null } }));
  },
  async setHidden(db, pick, state) {
    const rows = await db
      .update(projects)
      .set(state)
      .where(picked(pick, { hiddenAt: projects.hiddenAt, owner: projects.ownerId }, (id) => eq(projects.publicId, id), state.hiddenAt !== null))
      .returning({ id: projects.publicId });
    return { changed: rows.length, projects: rows.map((row) => row.id) };
  },
};

const comment: TargetKind = {
  notFound: 'comment_not_found',
  async find(db, id, viewerId) {
    const commentId = asRowId(id);
    if (commentId === null) return undefined;
    const [row] = await db
      .select({ ownerId: comments.authorId, targetId: sql<string>`${comments.id}::text` })
      .from(comments)
      .innerJoin(projects, eq(projects.id, comments.projectId))
      .where(and(eq(comments.id, commentId), isNull(comments.deletedAt), commentVisibleTo(viewerId), isPublishedFor(viewerId)))
      .limit(1);
    return row;
  },
  async describe(db, ids) {
    const commentIds = rowIds(ids);
    if (commentIds.length === 0) return [];
    const rows = await db
      .select({ id: comments.id, body: comments.body, hiddenAt: comments.hiddenAt, deletedAt: comments.deletedAt, projectId: projects.publicId, projectTitle: projects.title, logN: projectLogs.n, ...ownerColumns })
      .from(comments)
      .innerJoin(projects, eq(projects.id, comments.projectId))
      .leftJoin(projectLogs, eq(projectLogs.id, comments.logId))
      .innerJoin(owner, eq(owner.id, comments.authorId))
      .where(inArray(comments.id, commentIds));
    return rows
      .filter((row) => !row.deletedAt)
      .map((row) => {
        // A comment on a build log is shown on the log's page.
        const href = `${row.logN !== null ? logPath(row.projectId, row.logN) : projectPath(row.projectId)}?comment=${row.id}#comment-${row.id}`;
        return { targetId: String(row.id), owner: row, target: { ref: String(row.id), title: row.projectTitle, excerpt: excerptOf(row.body, 200), href, hidden: row.hiddenAt !== null } };
      });
  },
  async setHidden(db, pick, state) {
    const where = picked(pick, { hiddenAt: comments.hiddenAt, owner: comments.authorId }, (id) => eq(comments.id, asRowId(id) ?? 0), state.hiddenAt !== null);
    const touched = await db.select({ projectId: comments.projectId }).from(comments).where(where);
    if (touched.length === 0) return { changed: 0, projects: [] };
    await lockProjects(db, touched.map((row) => row.projectId));
    const changed = await db.update(comments).set(state).where(where).returning({ projectId: comments.projectId, parentId: comments.parentId });
    // The projects' comment counts and the threads' reply counts follow what a guest is shown.
    const projectIds = [...new Set(changed.map((row) => row.projectId))];
    await recountComments(db, projectIds, [...new Set(changed.flatMap((row) => (row.parentId === null ? [] : [row.parentId])))]);
    return { changed: changed.length, projects: await publicIdsOf(db, projectIds) };
  },
};

const video: TargetKind = {
  notFound: 'video_not_found',
  async find(db, id, viewerId) {
    const [row] = await db
      .select({ ownerId: videos.ownerId, targetId: videos.id })
      .from(videos)
      .where(and(eq(videos.id, id), eq(videos.status, 'ready'), videoVisibleTo(viewerId)))
      .limit(1);
    return row;
  },
  async describe(db, ids) {
    const rows = await db
      .select({ id: videos.id, title: videos.title, hiddenAt: videos.hiddenAt, ...ownerColumns })
      .from(videos)
      .innerJoin(owner, eq(owner.id, videos.ownerId))
      .where(inArray(videos.id, ids));
    return rows.map((row) => ({ targetId: row.id, owner: row, target: { ref: row.id, title: row.title, excerpt: '', href: `/video/player?id=${encodeURIComponent(row.id)}`, hidden: row.hiddenAt !== null } }));
  },
  async setHidden(db, pick, state) {
    const rows = await db
      .update(videos)
      .set(state)
      .where(picked(pick, { hiddenAt: videos.hiddenAt, owner: videos.ownerId }, (id) => eq(videos.id, id), state.hiddenAt !== null))
      .returning({ projectId: videos.projectId });
    return { changed: rows.length, projects: await publicIdsOf(db, rows.flatMap((row) => (row.projectId === null ? [] : [row.projectId]))) };
  },
};

/** A profile: found by custom URL, stored by internal id. Suspension hides what the member posted, not the profile. */
const user: TargetKind = {
  notFound: 'user_not_found',
  async find(db, id, viewerId) {
    const [row] = await db
      .select({ ownerId: users.id, targetId: sql<string>`${users.id}::text` })
      .from(users)
      .where(and(eq(users.customUrl, id), visibleTo(users.hiddenAt, users.id, viewerId)))
      .limit(1);
    return row;
  },
  async describe(db, ids) {
    const userIds = rowIds(ids);
    if (userIds.length === 0) return [];
    const rows = await db
      .select({ id: owner.id, bio: owner.bio, hiddenAt: owner.hiddenAt, ...ownerColumns })
      .from(owner)
      .where(inArray(owner.id, userIds));
    return rows.map((row) => ({ targetId: String(row.id), owner: row, target: { ref: row.url, title: row.nickname, excerpt: excerptOf(row.bio, 200), href: userPath(row.url), hidden: row.hiddenAt !== null } }));
  },
  async setHidden(db, pick, state) {
    const rows = await db
      .update(users)
      .set(state)
      .where(picked(pick, { hiddenAt: users.hiddenAt, owner: users.id }, (id) => eq(users.id, asRowId(id) ?? 0), state.hiddenAt !== null))
      .returning({ id: users.id });
    return { changed: rows.length, projects: [] };
  },
};

const logRef = sql<string>`${projects.publicId} || '/' || ${projectLogs.n}`;

/** A build log: hidden, it leaves its project's log count and its followers' feeds (restoring does not announce it again). */
const log: TargetKind = {
  notFound: 'log_not_found',
  async find(db, id, viewerId) {
    const ref = asLogRef(id);
    if (!ref) return undefined;
    const [row] = await db
      .select({ ownerId: projectLogs.authorId, targetId: logRef })
      .from(projectLogs)
      .innerJoin(projects, eq(projects.id, projectLogs.projectId))
      .where(and(publishedProjectById(ref.publicId, { viewerId }), eq(projectLogs.n, ref.n), isNull(projectLogs.deletedAt), visibleTo(projectLogs.hiddenAt, projectLogs.authorId, viewerId)))
      .limit(1);
    return row;
  },
  async describe(db, ids) {
    const rows = await db
      .select({ ref: logRef, n: projectLogs.n, title: projectLogs.title, bodyText: projectLogs.bodyText, hiddenAt: projectLogs.hiddenAt, projectId: projects.publicId, ...ownerColumns })
      .from(projectLogs)
      .innerJoin(projects, eq(projects.id, projectLogs.projectId))
      .innerJoin(owner, eq(owner.id, projectLogs.authorId))
      .where(and(inArray(logRef, ids), isNull(projectLogs.deletedAt), eq(projects.status, 'published')));
    return rows.map((row) => ({ targetId: row.ref, owner: row, target: { ref: row.ref, title: row.title, excerpt: excerptOf(row.bodyText, 200), href: logPath(row.projectId, row.n), hidden: row.hiddenAt !== null } }));
  },
  async setHidden(db, pick, state) {
    const byId = (id: string) => {
      const ref = asLogRef(id);
      return ref ? and(eq(projectLogs.n, ref.n), sql`${projectLogs.projectId} = (SELECT ${projects.id} FROM ${projects} WHERE ${projects.publicId} = ${ref.publicId})`)! : sql`false`;
    };
    const where = and(picked(pick, { hiddenAt: projectLogs.hiddenAt, owner: projectLogs.authorId }, byId, state.hiddenAt !== null), isNull(projectLogs.deletedAt))!;
    const touched = await db.select({ projectId: projectLogs.projectId }).from(projectLogs).where(where);
    if (touched.length === 0) return { changed: 0, projects: [] };
    await lockProjects(db, touched.map((row) => row.projectId));
    const rows = await db.update(projectLogs).set(state).where(where).returning({ id: projectLogs.id, projectId: projectLogs.projectId });
    const counted = await recountLogs(db, [...new Set(rows.map((row) => row.projectId))]);
    if (state.hiddenAt) await forgetActivities(db, 'log', rows.map((row) => row.id));
    return { changed: rows.length, projects: counted.map((row) => row.publicId) };
  },
};

/** A make: hidden, it leaves its project's make count and followers' feeds (restoring does not announce it again). */
const make: TargetKind = {
  notFound: 'make_not_found',
  async find(db, id, viewerId) {
    const makeId = asRowId(id);
    if (makeId === null) return undefined;
    const [row] = await db
      .select({ ownerId: makes.makerId, targetId: sql<string>`${makes.id}::text` })
      .from(makes)
      .innerJoin(projects, eq(projects.id, makes.projectId))
      .where(and(eq(makes.id, makeId), isPublishedFor(viewerId), visibleTo(makes.hiddenAt, makes.makerId, viewerId)))
      .limit(1);
    return row;
  },
  async describe(db, ids) {
    const makeIds = rowIds(ids);
    if (makeIds.length === 0) return [];
    const rows = await db
      .select({ id: makes.id, body: makes.body, hiddenAt: makes.hiddenAt, projectId: projects.publicId, projectTitle: projects.title, ...ownerColumns })
      .from(makes)
      .innerJoin(projects, eq(projects.id, makes.projectId))
      .innerJoin(owner, eq(owner.id, makes.makerId))
      .where(inArray(makes.id, makeIds));
    return rows.map((row) => ({
      targetId: String(row.id),
      owner: row,
      target: { ref: String(row.id), title: row.projectTitle, excerpt: excerptOf(row.body, 200), href: `${projectTabPath(row.projectId, 'makes')}#make-${row.id}`, hidden: row.hiddenAt !== null },
    }));
  },
  async setHidden(db, pick, state) {
    const where = picked(pick, { hiddenAt: makes.hiddenAt, owner: makes.makerId }, (id) => eq(makes.id, asRowId(id) ?? 0), state.hiddenAt !== null);
    const touched = await db.select({ projectId: makes.projectId }).from(makes).where(where);
    if (touched.length === 0) return { changed: 0, projects: [] };
    await lockProjects(db, touched.map((row) => row.projectId));
    const rows = await db.update(makes).set(state).where(where).returning({ id: makes.id, projectId: makes.projectId });
    const counted = await recountMakes(db, [...new Set(rows.map((row) => row.projectId))]);
    if (state.hiddenAt) await forgetActivities(db, 'make', rows.map((row) => row.id));
    return { changed: rows.length, projects: counted.map((row) => row.publicId) };
  },
};

/** A member's public collection: found by `<custom URL>/<slug>`, stored by internal id (both may change). */
const collection: TargetKind = {
  notFound: 'collection_not_found',
  async find(db, id, viewerId) {
    const ref = asCollectionRef(id);
    if (!ref) return undefined;
    const [row] = await db
      .select({ ownerId: memberCollections.ownerId, targetId: sql<string>`${memberCollections.id}::text` })
      .from(memberCollections)
      .innerJoin(users, eq(users.id, memberCollections.ownerId))
      .where(
        and(
          eq(users.customUrl, ref.url),
          eq(memberCollections.slug, ref.slug),
          sql`(${memberCollections.isPublic} OR ${memberCollections.ownerId} = ${viewerId})`,
          visibleTo(memberCollections.hiddenAt, memberCollections.ownerId, viewerId),
          visibleTo(users.hiddenAt, users.id, viewerId),
        ),
      )
      .limit(1);
    return row;
  },
  async describe(db, ids) {
    const collectionIds = rowIds(ids);
    if (collectionIds.length === 0) return [];
    const rows = await db
      .select({ id: memberCollections.id, slug: memberCollections.slug, title: memberCollections.title, description: memberCollections.description, hiddenAt: memberCollections.hiddenAt, ...ownerColumns })
      .from(memberCollections)
      .innerJoin(owner, eq(owner.id, memberCollections.ownerId))
      .where(inArray(memberCollections.id, collectionIds));
    return rows.map((row) => ({
      targetId: String(row.id),
      owner: row,
      target: { ref: `${row.url}/${row.slug}`, title: row.title, excerpt: excerptOf(row.description, 200), href: memberCollectionPath(row.url, row.slug), hidden: row.hiddenAt !== null },
    }));
  },
  async setHidden(db, pick, state) {
    const rows = await db
      .update(memberCollections)
      .set(state)
      .where(picked(pick, { hiddenAt: memberCollections.hiddenAt, owner: memberCollections.ownerId }, (id) => eq(memberCollections.id, asRowId(id) ?? 0), state.hiddenAt !== null))
      .returning({ id: memberCollections.id });
    // Its pages are the owner's, purged by the caller with the member.
    return { changed: rows.length, projects: [] };
  },
};

export const TARGET_KINDS: Record<ReportKind, TargetKind> = { project, comment, video, user, log, make, collection };

/** The kinds a suspension with "hide their content" hides, and restoring the member restores: everything they posted. */
export const POSTED_KINDS = ['project', 'comment', 'video', 'log', 'make', 'collection'] as const satisfies readonly ReportKind[];
