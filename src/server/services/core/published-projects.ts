/**
 * A project as a viewer may see it: the one place that says what "published", "listed" and
 * "visible to this viewer" mean, and finds a published project by its public id. Every service
 * that looks a project up goes through here, so a rule changed here changes everywhere at once.
 */
import { and, eq, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { getDb, type Executor } from '../../db/client.ts';
import { projects, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';

/**
 * Content staff hid after a report (`hidden_at` set) stays visible to its author and to staff,
 * so they can see what was hidden and restore it; everyone else sees nothing of it. Staff are
 * recognised in the same statement (an uncorrelated subquery PostgreSQL runs once), so read
 * paths need only the viewer's id, as they already take it.
 *
 * `hiddenAt` and `owner` are the columns of the row; `viewerId` null is a guest (a placeholder: a
 * member, in a prepared statement).
 */
export function visibleTo(hiddenAt: AnyPgColumn, owner: AnyPgColumn, viewerId: number | null | SQLWrapper): SQL {
  if (viewerId === null) return isNull(hiddenAt);
  return or(isNull(hiddenAt), seesHidden(owner, viewerId))!;
}

/** Whether `viewerId` would still see the row were it hidden: it is theirs, or they are staff (see `visibleTo`). */
export function seesHidden(owner: AnyPgColumn, viewerId: number | SQLWrapper): SQL {
  return or(
    sql`${owner} = ${viewerId}`,
    sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${viewerId} AND ${users.role} IN ('moderator', 'admin'))`,
  )!;
}

/** Published projects only (hidden ones included: see `isListed`). */
export const isPublished = eq(projects.status, 'published');

/** Not hidden by staff after a report. */
export const isVisible = isNull(projects.hiddenAt);

/**
 * What everyone may find: published and not hidden. Every list, search, feed and sitemap reads
 * projects through this, so a hidden project leaves them all at once.
 */
export const isListed = and(isPublished, isVisible)!;

/** A published project `viewerId` may open: not hidden, or theirs, or the viewer is staff. */
export const isPublishedFor = (viewerId: number | null | SQLWrapper) => and(isPublished, visibleTo(projects.hiddenAt, projects.ownerId, viewerId))!;

/** A published project as found by its public id: what the services that show its parts need. */
export interface PublishedProjectRef {
  id: number;
  ownerId: number;
  /** The project it remixes (set where the project page found it): its lineage needs no lookup of its own. */
  remixOfId?: number | null;
}

/**
 * Who a lookup finds a published project for: `'listed'`, what everyone may find (not hidden);
 * `'published'`, hidden or not (staff tools, and an owner's own writes, which check the owner
 * next); `{ viewerId }`, a hidden one only for its owner and staff (`null`: a guest).
 */
export type ProjectAudience = 'listed' | 'published' | { viewerId: number | null | SQLWrapper };

/**
 * The condition "the published project `publicId`, as `audience` may see it", for the lookups that
 * read more of the project than its id (a feed's title, a remix's content) or lock its row.
 */
export function publishedProjectById(publicId: string | SQLWrapper, audience: ProjectAudience): SQL {
  const rule = audience === 'listed' ? isListed : audience === 'published' ? isPublished : isPublishedFor(audience.viewerId);
  return and(eq(projects.publicId, publicId), rule)!;
}

/**
 * The internal id and owner of a published project `viewerId` may see (a hidden one only for its
 * owner and staff), or a 404 `project_not_found`; in the caller's transaction when given `db`.
 */
export async function findPublishedProject(publicId: string, viewerId: number | null = null, db: Executor = getDb()): Promise<PublishedProjectRef> {
  const [row] = await db
    .select({ id: projects.id, ownerId: projects.ownerId })
    .from(projects)
    .where(publishedProjectById(publicId, { viewerId }))
    .limit(1);
  if (!row) throw new AppError('project_not_found');
  return row;
}
