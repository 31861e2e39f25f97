/**
 * Members following members, projects and tags. `follow/set` is strict, unlike stars: following
 * what you already follow, or unfollowing what you do not, is an error that changes nothing, so a
 * client showing a stale button learns the truth. The count is always counted from the rows.
 */
import { and, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { getDb, type Executor } from '../../db/client.ts';
import { activities, feedEntries, follows, projects, projectTags, tags, users, type FollowKind } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { notifyFollowed } from '../notifications/index.ts';
import { purgeFollowPages, isListed, publishedProjectById } from '../core/index.ts';

/** How many of a target's latest activities a new follow copies into the follower's feed. */
export const FOLLOW_BACKFILL = 5;

/** A target as `follow/set` names it: a member's custom URL, a project's public id, a tag's slug. */
export interface FollowTargetRef {
  kind: FollowKind;
  target: string;
}

interface ResolvedTarget {
  kind: FollowKind;
  id: number;
  /** What the purge names: the member's URL, the project's public id, the tag's slug. */
  key: string;
}

/** The follow state a button shows. */
export interface FollowState {
  following: boolean;
  followers: number;
}

const NOT_FOUND = { user: 'user_not_found', project: 'project_not_found', tag: 'tag_not_found' } as const;

/**
 * Finds a followable target: a member not hidden by staff, a published project not hidden, a tag.
 * Anything else is its kind's "not found", whoever asks (a hidden profile gains no followers);
 * with `followable` false, any existing one (to show a count).
 */
async function resolveTarget(db: Executor, { kind, target }: FollowTargetRef, { followable = true } = {}): Promise<ResolvedTarget> {
  const [row] =
    kind === 'user'
      ? await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.customUrl, target), followable ? and(isNull(users.hiddenAt), isNull(users.suspendedAt)) : undefined))
          .limit(1)
      : kind === 'project'
        ? await db
            .select({ id: projects.id })
            .from(projects)
            .where(followable ? publishedProjectById(target, 'listed') : eq(projects.publicId, target))
            .limit(1)
        : await db.select({ id: tags.id }).from(tags).where(eq(tags.slug, target)).limit(1);
  if (!row) throw new AppError(NOT_FOUND[kind]);
  return { kind, id: row.id, key: target };
}

async function countFollowers(db: Executor, kind: FollowKind, targetId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(follows)
    .where(and(eq(follows.kind, kind), eq(follows.targetId, targetId)));
  return row?.n ?? 0;
}

/**
 * Copies the target's latest listed activities into a new follower's feed, so it is not empty
 * until the target next does something (never the follower's own activity).
 */
async function backfillFeed(db: Executor, userId: number, target: ResolvedTarget): Promise<void> {
  const matches =
    target.kind === 'user'
      ? eq(activities.actorId, target.id)
      : target.kind === 'project'
        ? eq(activities.projectId, target.id)
        : inArray(
            activities.projectId,
            db
              .select({ id: projectTags.projectId })
              .from(projectTags)
              .innerJoin(tags, eq(tags.id, projectTags.tagId))
              .where(or(eq(tags.id, target.id), eq(tags.parentId, target.id))),
          );
  const latest = db
    .select({ userId: sql<number>`${userId}`.as('user_id'), activityId: activities.id, createdAt: activities.createdAt })
    .from(activities)
    .innerJoin(projects, eq(projects.id, activities.projectId))
    .where(and(matches, isListed, sql`${activities.actorId} <> ${userId}`))
    .orderBy(desc(activities.createdAt), desc(activities.id))
    .limit(FOLLOW_BACKFILL);
  await db.insert(feedEntries).select(latest).onConflictDoNothing();
}

/**
 * Removes from `userId`'s feed what none of their remaining follows brings: after an unfollow,
 * the entries only that target brought. Only entries of activities the target could have brought
 * are looked at.
 */
async function pruneFeed(db: Executor, userId: number, target: ResolvedTarget): Promise<void> {
  const brought =
    target.kind === 'user'
      ? sql`${activities.actorId} = ${target.id}`
      : target.kind === 'project'
        ? sql`${activities.projectId} = ${target.id}`
        : sql`${activities.projectId} IN (SELECT ${projectTags.projectId} FROM ${projectTags} JOIN ${tags} ON ${tags.id} = ${projectTags.tagId} WHERE ${tags.id} = ${target.id} OR ${tags.parentId} = ${target.id})`;
  await db.execute(sql`
    DELETE FROM ${feedEntries} fe USING ${activities}
    WHERE fe.user_id = ${userId} AND fe.activity_id = ${activities.id} AND ${brought}
      AND NOT EXISTS (SELECT 1 FROM ${follows} f WHERE f.follower_id = ${userId} AND (
        (f.kind = 'user' AND f.target_id = ${activities.actorId})
        OR (f.kind = 'project' AND f.target_id = ${activities.projectId})
        OR (f.kind = 'tag' AND f.target_id IN (
          SELECT t.id FROM ${projectTags} pt JOIN ${tags} t ON t.id = pt.tag_id WHERE pt.project_id = ${activities.projectId}
          UNION SELECT t.parent_id FROM ${projectTags} pt JOIN ${tags} t ON t.id = pt.tag_id WHERE pt.project_id = ${activities.projectId} AND t.parent_id IS NOT NULL))))`);
}

/**
 * `follow/set`: `userId` starts (`value` true) or stops following the target, and answers the new
 * state with the target's follower count. Errors change nothing: `follow_self`,
 * `already_following`, `not_following`, and the target kind's "not found".
 * A followed member is told once per follower; a new follow brings the target's latest activity
 * into the feed, an unfollow takes out what only it brought.
 */
export async function setFollow(userId: number, ref: FollowTargetRef & { value: boolean }): Promise<FollowState> {
  const { state, target } = await getDb().transaction(async (tx) => {
    const target = await resolveTarget(tx, ref);
    if (target.kind === 'user' && target.id === userId) throw new AppError('follow_self');
    const key = and(eq(follows.followerId, userId), eq(follows.kind, target.kind), eq(follows.targetId, target.id));
    if (ref.value) {
      const added = await tx.insert(follows).values({ followerId: userId, kind: target.kind, targetId: target.id }).onConflictDoNothing().returning({ id: follows.targetId });
      if (added.length === 0) throw new AppError('already_following');
      if (target.kind === 'user') await notifyFollowed(userId, target.id, tx);
      await backfillFeed(tx, userId, target);
    } else {
      const removed = await tx.delete(follows).where(key).returning({ id: follows.targetId });
      if (removed.length === 0) throw new AppError('not_following');
      await pruneFeed(tx, userId, target);
    }
    return { state: { following: ref.value, followers: await countFollowers(tx, target.kind, target.id) }, target };
  });
  await purgeFollowPages(userId, target.kind, target.key);
  return state;
}

/** What a follow button shows, with (for a member) how many things that member follows. */
export interface FollowInfo extends FollowState {
  /** How many members, projects and tags the target follows (a member only; 0 otherwise). */
  followingCount: number;
}

/**
 * What the follow button of a target shows to `viewerId` (a guest: not following), in one
 * statement: pages that show it count their queries. Pages that may show a hidden target to its
 * owner or staff call it too, so any existing target is counted; an unknown one is the kind's
 * "not found".
 */
export async function getFollowState(viewerId: number | null, ref: FollowTargetRef): Promise<FollowInfo> {
  const target =
    ref.kind === 'user'
      ? sql`SELECT ${users.id} AS id FROM ${users} WHERE ${users.customUrl} = ${ref.target}`
      : ref.kind === 'project'
        ? sql`SELECT ${projects.id} AS id FROM ${projects} WHERE ${projects.publicId} = ${ref.target}`
        : sql`SELECT ${tags.id} AS id FROM ${tags} WHERE ${tags.slug} = ${ref.target}`;
  const { rows } = await getDb().execute<{ followers: number; following: boolean; following_count: number }>(sql`
    SELECT
      (SELECT count(*)::int FROM ${follows} f WHERE f.kind = ${ref.kind} AND f.target_id = t.id) AS followers,
      ${viewerId === null ? sql`false` : sql`EXISTS (SELECT 1 FROM ${follows} f WHERE f.follower_id = ${viewerId} AND f.kind = ${ref.kind} AND f.target_id = t.id)`} AS following,
      ${ref.kind === 'user' ? sql`(SELECT count(*)::int FROM ${follows} f WHERE f.follower_id = t.id)` : sql`0`} AS following_count
    FROM (${target} LIMIT 1) t`);
  const row = rows[0];
  if (!row) throw new AppError(NOT_FOUND[ref.kind]);
  return { following: row.following, followers: row.followers, followingCount: row.following_count };
}

/** How many members, projects and tags `userId` follows (the profile's "following" count). */
export async function countFollowing(userId: number): Promise<number> {
  const [row] = await getDb().select({ n: count() }).from(follows).where(eq(follows.followerId, userId));
  return row?.n ?? 0;
}
