/**
 * The Following feed: fan-out on write. The feed job takes recorded activities not yet delivered
 * and, in set-based statements, gives every follower of the actor, of the project or of one of its
 * tags (or a tag's parent) one feed entry and, as their settings allow, one message; never the
 * actor. A page of the feed then reads one index of `feed_entries` in order.
 */
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Locale } from '../../../lib/i18n.ts';
import type { FeedPage } from '../../../lib/contract/schemas/follows.ts';
import { getDb } from '../../db/client.ts';
import { activities, feedEntries, follows, messages, projects, projectTags, tags, users } from '../../db/schema/index.ts';
import { cardColumns, cardTags, toCards } from '../projects/index.ts';
import { siteAllowsSql } from '../notifications/index.ts';
import { isListed } from '../core/index.ts';

/** Activities delivered per statement: a burst (the seed, an import) is cut into batches. */
const FANOUT_BATCH = 500;

/**
 * Every (follower, activity) pair of the activities `ids`: followers of the actor, the project,
 * the project's tags and those tags' parents, each once, the actor never; only activities of
 * projects everyone may see (a hidden project tells nobody).
 */
function recipientsOf(ids: number[]): SQL {
  const idList = sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::int[]`;
  return sql`
    SELECT DISTINCT f.follower_id AS user_id, a.id AS activity_id, a.created_at, a.kind, a.actor_id, a.project_id
    FROM ${activities} a
    JOIN ${projects} ON ${projects.id} = a.project_id AND ${isListed}
    JOIN LATERAL (
      SELECT follower_id FROM ${follows} WHERE kind = 'user' AND target_id = a.actor_id
      UNION SELECT follower_id FROM ${follows} WHERE kind = 'project' AND target_id = a.project_id
      UNION SELECT follower_id FROM ${follows} WHERE kind = 'tag' AND target_id IN (
        SELECT pt.tag_id FROM ${projectTags} pt WHERE pt.project_id = a.project_id
        UNION SELECT t.parent_id FROM ${projectTags} pt JOIN ${tags} t ON t.id = pt.tag_id WHERE pt.project_id = a.project_id AND t.parent_id IS NOT NULL)
    ) f ON f.follower_id <> a.actor_id
    WHERE a.id = ANY(${idList})`;
}

/** The setting each `followed_*` message falls under (`MESSAGE_KINDS_OF`). */
const settingOfActivity = sql`(CASE r.kind WHEN 'log' THEN 'logs' WHEN 'make' THEN 'makes' ELSE 'follows' END)`;

/**
 * The feed job: delivers every recorded activity not yet fanned out, a batch at a time, each
 * batch in one transaction (entries, messages, and the mark that it is done, together: a crash
 * delivers the batch again, and the conflicts make that a no-op). Answers how many it delivered.
 */
export async function fanOutActivities(): Promise<number> {
  let delivered = 0;
  for (;;) {
    const done = await getDb().transaction(async (tx) => {
      const batch = await tx
        .select({ id: activities.id })
        .from(activities)
        .where(isNull(activities.fannedOutAt))
        .orderBy(activities.id)
        .limit(FANOUT_BATCH)
        .for('update', { skipLocked: true });
      if (batch.length === 0) return 0;
      const ids = batch.map((row) => row.id);
      await tx.execute(sql`
        INSERT INTO ${feedEntries} (user_id, activity_id, created_at)
        SELECT user_id, activity_id, created_at FROM (${recipientsOf(ids)}) r
        ON CONFLICT DO NOTHING`);
      await tx.execute(sql`
        INSERT INTO ${messages} (recipient_id, kind, actor_id, project_id, activity_id, dedupe_key)
        SELECT r.user_id, 'followed_' || r.kind, r.actor_id, r.project_id, r.activity_id, 'followed:' || r.activity_id || ':' || r.user_id
        FROM (${recipientsOf(ids)}) r
        WHERE ${siteAllowsSql(sql`r.user_id`, settingOfActivity)}
        ON CONFLICT (dedupe_key) DO NOTHING`);
      await tx.update(activities).set({ fannedOutAt: new Date() }).where(inArray(activities.id, ids));
      return ids.length;
    });
    delivered += done;
    if (done < FANOUT_BATCH) return delivered;
  }
}

/** Whether activities wait for delivery (the job's resume sweep sends one job when they do). */
export async function hasPendingActivities(): Promise<boolean> {
  const [row] = await getDb().select({ id: activities.id }).from(activities).where(isNull(activities.fannedOutAt)).limit(1);
  return Boolean(row);
}

const actor = alias(users, 'actor');

/** Entries passed from which a page of the feed is read without parallel workers. */
const SERIAL_FROM = 100;

/**
 * `feed/list`: a page of `userId`'s feed, newest first: entries of projects deleted or hidden
 * since are left out (the entries of unfollowed targets are removed when unfollowing). Reads one
 * entry more than it shows to know whether a next page exists, instead of counting the feed.
 */
export async function listFollowingFeed(userId: number, paging: { page: number; pageSize: number }, locale: Locale): Promise<FeedPage> {
  const db = getDb();
  const offset = (paging.page - 1) * paging.pageSize;
  // The page's entries first, from the member's index in order with only what filters them; the
  // cards' costlier columns are then read for those rows alone, not for the rows paged past.
  const read = (tx: Pick<typeof db, 'select'>) => {
    const page = tx
      .select({ activityId: feedEntries.activityId, at: feedEntries.createdAt })
      .from(feedEntries)
      .innerJoin(activities, eq(activities.id, feedEntries.activityId))
      .innerJoin(projects, eq(projects.id, activities.projectId))
      .where(and(eq(feedEntries.userId, userId), isListed))
      .orderBy(desc(feedEntries.createdAt), desc(feedEntries.activityId))
      .limit(paging.pageSize + 1)
      .offset(offset)
      .as('page');
    return tx
      .select({
        ...cardColumns,
        tags: cardTags,
        activityId: activities.id,
        kind: activities.kind,
        activityTitle: activities.title,
        path: activities.path,
        at: page.at,
        actorUrl: actor.customUrl,
        actorNickname: actor.nickname,
        actorAvatar: actor.avatar,
      })
      .from(page)
      .innerJoin(activities, eq(activities.id, page.activityId))
      .innerJoin(projects, eq(projects.id, activities.projectId))
      .innerJoin(users, eq(users.id, projects.ownerId))
      .innerJoin(actor, eq(actor.id, activities.actorId))
      .orderBy(desc(page.at), desc(page.activityId));
  };
  // Past the first pages, in a transaction without parallel workers: a page deep in a feed of a
  // million entries (page 50, a thousand entries to pass) was planned on two workers, whose start
  // cost more than the reading (22-50 ms against 11 ms alone). The first pages (the home page's
  // Following section among them) are planned without workers anyway, in one statement.
  const rows =
    offset < SERIAL_FROM
      ? await read(db)
      : await db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL max_parallel_workers_per_gather = 0`);
          return read(tx);
        });
  const shown = rows.slice(0, paging.pageSize);
  const cards = await toCards(shown, locale);
  return {
    list: shown.map((row, index) => ({
      id: row.activityId,
      kind: row.kind,
      actor: { url: row.actorUrl, nickname: row.actorNickname, avatar: row.actorAvatar },
      project: cards[index]!,
      title: row.activityTitle,
      path: row.path,
      createdAt: row.at.toISOString(),
    })),
    page: paging.page,
    pageSize: paging.pageSize,
    hasMore: rows.length > paging.pageSize,
  };
}
