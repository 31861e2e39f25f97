/**
 * The activity of followed members, projects and tags: each feature records its event here, in the
 * transaction that makes it, and announces it once committed; the feed job delivers it.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { activities, type ActivityKind } from '../../db/schema/index.ts';
import { sendJob } from '../../jobs/queue.ts';
import type { Executor } from '../../db/client.ts';

export interface NewActivity {
  kind: ActivityKind;
  actorId: number;
  /** Internal project id. */
  projectId: number;
  /** The log's, version's or make's id; omitted for a new project. */
  refId?: number | null;
  /** What the feed shows of it (the log's title, the version's name, the make's note); empty for a new project. */
  title?: string;
  /** The desktop path it links to, e.g. `/d-{id}/log/{n}`. */
  path: string;
}

/** Records an event for followers, in the caller's transaction. Call `announceActivities` after it commits. */
export async function recordActivity(db: Executor, activity: NewActivity): Promise<number> {
  const [row] = await db
    .insert(activities)
    .values({ ...activity, refId: activity.refId ?? null, title: (activity.title ?? '').slice(0, 200) })
    .returning({ id: activities.id });
  return row!.id;
}

/** Wakes the feed job for recorded events not yet delivered; one waiting job covers them all. */
export async function announceActivities(): Promise<void> {
  await sendJob('feed', {}, 'fanout');
}

/**
 * Forgets the events of things deleted or hidden (logs, versions, makes; all of one `kind`), in
 * the caller's transaction, with one statement: feeds stop showing them.
 */
export async function forgetActivities(db: Executor, kind: ActivityKind, refIds: number[]): Promise<void> {
  if (refIds.length === 0) return;
  await db.delete(activities).where(and(eq(activities.kind, kind), inArray(activities.refId, refIds)));
}
