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
  const [row] = await db
    .select(memberProfileColumns)
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
  const [counts] = await db
    .select({
      projects: sql<number>`(SELECT count(*)::int FROM ${projects} WHERE ${projects.ownerId} = ${row.id} AND ${isListed})`,
      stars: sql<number>`(SELECT count(*)::int FROM ${stars} INNER JOIN ${projects} ON ${projects.id} = ${stars.projectId} WHERE ${stars.userId} = ${row.id} AND ${isListed})`,
      videos: sql<number>`(SELECT count(*)::int FROM ${videos} WHERE ${videos.ownerId} = ${row.id} AND ${videos.status} = 'ready' AND ${videoVisibleTo(null)})`,
      // The Follow button's numbers come with the others: a profile page costs no extra statement.
      followers: sql<number>`(SELECT count(*)::int FROM ${follows} WHERE ${follows.kind} = 'user' AND ${follows.targetId} = ${row.id})`,
      following: sql<number>`(SELECT count(*)::int FROM ${follows} WHERE ${follows.followerId} = ${row.id})`,
      followedByViewer:
        viewerId === null
          ? sql<boolean>`false`
          : sql<boolean>`EXISTS (SELECT 1 FROM ${follows} WHERE ${follows.followerId} = ${viewerId} AND ${follows.kind} = 'user' AND ${follows.targetId} = ${row.id})`,
    })
    .from(users)
    .where(eq(users.id, row.id));
  return {
    user: {
      ...toUserProfile(row),
      counts: { projects: counts?.projects ?? 0, stars: counts?.stars ?? 0, videos: counts?.videos ?? 0, followers: counts?.followers ?? 0, following: counts?.following ?? 0 },
      followedByViewer: counts?.followedByViewer ?? false,
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


