import { and, eq, sql } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { follows, projects, stars, userUrlAliases, users, videos } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { memberProfileColumns, toUserProfile } from '../accounts/index.ts';
import type { z } from 'zod';
import type { publicUserSchema } from '../../../lib/contract/schemas/users.ts';
import { visibleTo, isListed } from '../core/index.ts';
import { videoVisibleTo } from '../media/index.ts';

/** A user as everyone may see them (`user/getCustomizeUrlUserInfo`). */
export type PublicUser = z.infer<typeof publicUserSchema>;

/**
 * The public profile at custom URL `url`. A former URL answers `{ movedTo }` so pages can
 * redirect; an unknown one, or a profile staff hid (except for the member and staff), is a 404
 * `user_not_found`.
 */
export async function findUserByUrl(url: string, viewerId: number | null = null): Promise<{ user: PublicUser } | { movedTo: string }> {
  const db = getDb();
  // The profile and its numbers in one statement (each a subquery of the member's row, named in
  // full: Drizzle writes a lone table's columns unqualified, which the subqueries would take as their own).
  const member = sql`${users}.${sql.identifier(users.id.name)}`;
  const [row] = await db
    .select({
      ...memberProfileColumns,
      projectCount: sql<number>`(SELECT count(*)::int FROM ${projects} WHERE ${projects.ownerId} = ${member} AND ${isListed})`,
      starCount: sql<number>`(SELECT count(*)::int FROM ${stars} INNER JOIN ${projects} ON ${projects.id} = ${stars.projectId} WHERE ${stars.userId} = ${member} AND ${isListed})`,
      videoCount: sql<number>`(SELECT count(*)::int FROM ${videos} WHERE ${videos.ownerId} = ${member} AND ${videos.status} = 'ready' AND ${videoVisibleTo(null)})`,
      // The Follow button's numbers come with the others: a profile page costs no extra statement.
      followerCount: sql<number>`(SELECT count(*)::int FROM ${follows} WHERE ${follows.kind} = 'user' AND ${follows.targetId} = ${member})`,
      followingCount: sql<number>`(SELECT count(*)::int FROM ${follows} WHERE ${follows.followerId} = ${member})`,
      followedByViewer:
        viewerId === null
          ? sql<boolean>`false`
          : sql<boolean>`EXISTS (SELECT 1 FROM ${follows} WHERE ${follows.followerId} = ${viewerId} AND ${follows.kind} = 'user' AND ${follows.targetId} = ${member})`,
    })
    .from(users)
    .where(and(eq(users.customUrl, url), visibleTo(users.hiddenAt, users.id, viewerId)))
    .limit(1);
  if (!row) {
    const [alias] = await db
      .select({ url: users.customUrl })
      .from(userUrlAliases)
      .innerJoin(users, eq(users.id, userUrlAliases.userId))
      .where(and(eq(userUrlAliases.url, url), visibleTo(users.hiddenAt, users.id, viewerId)))
      .limit(1);
    if (alias) return { movedTo: alias.url };
    throw new AppError('user_not_found');
  }
  return {
    user: {
      ...toUserProfile(row),
      counts: { projects: row.projectCount, stars: row.starCount, videos: row.videoCount, followers: row.followerCount, following: row.followingCount },
      followedByViewer: row.followedByViewer,
    },
  };
}

/** Like `findUserByUrl`, but a former URL also resolves (for the API). */
export async function getPublicUser(url: string, viewerId: number | null = null): Promise<PublicUser> {
  const found = await findUserByUrl(url, viewerId);
  if ('user' in found) return found.user;
  const moved = await findUserByUrl(found.movedTo, viewerId);
  if ('user' in moved) return moved.user;
  throw new AppError('user_not_found');
}


