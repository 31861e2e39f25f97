/**
 * Stars and likes of projects. Both are idempotent (`value` is the wanted state) and the
 * project's count is recomputed from the real rows in the same transaction, with the project
 * row locked, so concurrent presses never drift the count.
 */
import { and, eq, sql } from 'drizzle-orm';
import { getDb, type Executor } from '../../db/client.ts';
import { likes, projects, stars } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { notifyProjectLiked, notifyProjectStarred } from '../notifications/index.ts';
import { purgeProjectConversation, publishedProjectById } from '../core/index.ts';

export interface ReactionChange {
  /** The state now. */
  active: boolean;
  /** The project's count now. */
  count: number;
  /** Whether this call changed anything (false when it already was in that state). */
  changed: boolean;
  /** Who to notify: the project (internal id) and its owner. */
  project: { id: number; publicId: string; ownerId: number };
}

type ReactionTable = typeof stars | typeof likes;

/** Tells the owner, in the same transaction, when a reaction is really switched on. */
type Notify = (actorId: number, projectId: number, db: Executor) => Promise<boolean>;

async function setReaction(
  table: ReactionTable,
  counter: 'starCount' | 'likeCount',
  notify: Notify,
  userId: number,
  publicId: string,
  value: boolean,
): Promise<ReactionChange> {
  return getDb().transaction(async (tx) => {
    const [project] = await tx
      .select({ id: projects.id, publicId: projects.publicId, ownerId: projects.ownerId })
      .from(projects)
      .where(publishedProjectById(publicId, { viewerId: userId }))
      .for('update')
      .limit(1);
    if (!project) throw new AppError('project_not_found');
    const changedRows = value
      ? await tx.insert(table).values({ userId, projectId: project.id }).onConflictDoNothing().returning({ userId: table.userId })
      : await tx
          .delete(table)
          .where(and(eq(table.userId, userId), eq(table.projectId, project.id)))
          .returning({ userId: table.userId });
    const changed = changedRows.length > 0;
    if (changed && value) await notify(userId, project.id, tx);
    const column = projects[counter];
    const [row] = changed
      ? await tx
          .update(projects)
          .set({ [counter]: sql`(SELECT count(*)::int FROM ${table} WHERE ${table.projectId} = ${project.id})` })
          .where(eq(projects.id, project.id))
          .returning({ count: column })
      : await tx.select({ count: column }).from(projects).where(eq(projects.id, project.id));
    return { active: value, count: row?.count ?? 0, changed, project };
  });
}

/**
 * `project/star` and `user/delStarProject`: sets whether `userId` stars the project. The owner
 * gets a message the first time someone stars it (never for their own project).
 */
export async function setProjectStar(userId: number, publicId: string, value: boolean): Promise<ReactionChange> {
  const change = await setReaction(stars, 'starCount', notifyProjectStarred, userId, publicId, value);
  // The project's count, and the member's stars tab.
  if (change.changed) await purgeProjectConversation(publicId, [userId]);
  return change;
}

/** `project/like`: sets whether `userId` likes the project; the owner is told of the first like. */
export async function setProjectLike(userId: number, publicId: string, value: boolean): Promise<ReactionChange> {
  const change = await setReaction(likes, 'likeCount', notifyProjectLiked, userId, publicId, value);
  if (change.changed) await purgeProjectConversation(publicId);
  return change;
}
