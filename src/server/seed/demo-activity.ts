/**
 * The demo content of what members do with projects once published: build logs (with a few
 * comments), makes with generated photos, a remix, members' own collections, follows, and the
 * activities followers hear about. Written in the seed's transaction after the projects, with the
 * activities undelivered (`fannedOutAt` null) as a post leaves them; once it commits,
 * `deliverDemoActivity` delivers them by the feed job's own function.
 * It draws from its own generator, so the projects, comments and stars before it stay as they were.
 */
import { sql } from 'drizzle-orm';
import { logPath } from '../../lib/logs.ts';
import { slugify } from '../../lib/slug.ts';
import { excerptOf } from '../../lib/text.ts';
import { getDb, type Tx } from '../db/client.ts';
import {
  activities,
  comments,
  follows,
  makeImages,
  makes,
  memberCollectionProjects,
  memberCollections,
  messages,
  projectLogs,
  projects,
  type ActivityKind,
} from '../db/schema/index.ts';
import { fanOutActivities } from '../services/community/index.ts';
import { renderDescription } from '../services/core/index.ts';
import type { CommentPool, DemoContent } from './demo-content.ts';
import { createRng, type Rng } from './random.ts';


const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** A seeded project as the rest of the seed wrote it. */
export interface SeededProject {
  id: number;
  publicId: string;
  ownerId: number;
  publishedAt: Date;
  lang: 'en' | 'zh';
  tagIds: number[];
}

export interface ActivityContext {
  now: number;
  /** Member id by url. */
  userId: Map<string, number>;
  /** Project by file name. */
  projectBySlug: Map<string, SeededProject>;
  /** The upload ids of each make's photos, in the order of `content.makes`. */
  makePhotos: string[][];
}

/** A time between `from` and `to`, skewed towards `from` when `skew` > 1. */
function between(rng: Rng, from: number, to: number, skew = 1): Date {
  return new Date(from + (to - from) * Math.pow(rng.next(), skew));
}

/** `count` times between `from` and `to`, oldest first, each at least a quarter of an even share apart. */
function spread(rng: Rng, from: number, to: number, count: number): Date[] {
  const share = (to - from) / count;
  return Array.from({ length: count }, (_, i) => new Date(from + share * i + share * (0.25 + 0.7 * rng.next())));
}

/** Messages older than five days are read, as elsewhere in the seed. */
function readIfOld(now: number, at: Date): Date | null {
  return now - at.getTime() > 5 * DAY ? new Date(at.getTime() + DAY) : null;
}

export async function insertDemoActivity(tx: Tx, content: DemoContent, context: ActivityContext): Promise<void> {
  const rng = createRng(20261125);
  const { now, userId, projectBySlug } = context;
  const allUserIds = [...userId.values()];
  const project = (slug: string) => projectBySlug.get(slug)!;
  const activityRows: (typeof activities.$inferInsert)[] = [];
  const messageRows: (typeof messages.$inferInsert)[] = [];
  const activity = (kind: ActivityKind, actorId: number, on: SeededProject, refId: number | null, title: string, path: string, createdAt: Date) =>
    activityRows.push({ kind, actorId, projectId: on.id, refId, title: title.slice(0, 200), path, createdAt, fannedOutAt: null });

  // every project's publication, as publishing records it
  for (const seeded of projectBySlug.values()) activity('project', seeded.ownerId, seeded, null, '', `/d-${seeded.publicId}`, seeded.publishedAt);

  // a remix: "Based on …" on the remix, "Remixed 1 time" on the original
  for (const seed of content.projects) {
    if (!seed.remixOf) continue;
    await tx.update(projects).set({ remixOfId: project(seed.remixOf).id }).where(sql`${projects.id} = ${project(seed.slug).id}`);
  }
  await tx.execute(
    sql`UPDATE projects SET remix_count = r.n FROM (SELECT remix_of_id, count(*)::int AS n FROM projects WHERE remix_of_id IS NOT NULL AND status = 'published' GROUP BY remix_of_id) r WHERE r.remix_of_id = projects.id`,
  );

  // build logs by the owner, spread from publication to now, numbered 1..n
  const logPlans = content.logs.flatMap((entry) => {
    const on = project(entry.project);
    const times = spread(rng, on.publishedAt.getTime() + HOUR, now - HOUR, entry.logs.length);
    return entry.logs.map((log, i) => ({ on, n: i + 1, title: log.title, body: log.body, at: times[i]! }));
  });
  const rendered = await Promise.all(logPlans.map((log) => renderDescription(log.body)));
  const logRows = logPlans.length
    ? await tx
        .insert(projectLogs)
        .values(
          logPlans.map((log, i) => ({
            projectId: log.on.id,
            n: log.n,
            authorId: log.on.ownerId,
            title: log.title,
            body: log.body,
            bodyHtml: rendered[i]!.html,
            bodyText: rendered[i]!.text,
            createdAt: log.at,
            updatedAt: log.at,
          })),
        )
        .returning({ id: projectLogs.id })
    : [];
  logPlans.forEach((log, i) => activity('log', log.on.ownerId, log.on, logRows[i]!.id, log.title, logPath(log.on.publicId, log.n), log.at));
  await tx.execute(sql`UPDATE projects SET log_count = l.n FROM (SELECT project_id, count(*)::int AS n FROM project_logs GROUP BY project_id) l WHERE l.project_id = projects.id`);

  // a comment on about half the logs, in the project's language, which the owner often answers
  for (const [i, log] of logPlans.entries()) {
    if (!rng.chance(0.5) || log.at.getTime() > now - 3 * HOUR) continue;
    const pool: CommentPool = content.comments[log.on.lang];
    const seed = rng.pick(pool.comments);
    const author = rng.pick(allUserIds.filter((id) => id !== log.on.ownerId));
    const at = between(rng, log.at.getTime() + 20 * 60 * 1000, now - 2 * HOUR, 2);
    const answered = rng.chance(0.6);
    const [top] = await tx
      .insert(comments)
      .values({ projectId: log.on.id, logId: logRows[i]!.id, authorId: author, body: seed.body, replyCount: answered ? 1 : 0, createdAt: at })
      .returning({ id: comments.id });
    messageRows.push({ recipientId: log.on.ownerId, kind: 'comment', actorId: author, projectId: log.on.id, commentId: top!.id, body: seed.body, readAt: readIfOld(now, at), createdAt: at });
    if (answered) {
      const replyAt = between(rng, at.getTime() + 10 * 60 * 1000, now - HOUR, 2);
      const [reply] = await tx
        .insert(comments)
        .values({ projectId: log.on.id, logId: logRows[i]!.id, authorId: log.on.ownerId, parentId: top!.id, replyToUserId: author, body: seed.answer, createdAt: replyAt })
        .returning({ id: comments.id });
      messageRows.push({ recipientId: author, kind: 'reply', actorId: log.on.ownerId, projectId: log.on.id, commentId: reply!.id, body: seed.answer, readAt: readIfOld(now, replyAt), createdAt: replyAt });
    }
  }
  await tx.execute(sql`UPDATE project_logs SET comment_count = c.n FROM (SELECT log_id, count(*)::int AS n FROM comments WHERE log_id IS NOT NULL GROUP BY log_id) c WHERE c.log_id = project_logs.id`);

  // makes by other members, oldest first per project, each with its generated photos
  const makeTimes = new Map<string, Date[]>();
  for (const slug of new Set(content.makes.map((make) => make.project))) {
    const on = project(slug);
    const count = content.makes.filter((make) => make.project === slug).length;
    // a build takes a while: none in the first two days after publication (or right away for a new project)
    const from = Math.min(on.publishedAt.getTime() + 2 * DAY, now - 6 * HOUR);
    makeTimes.set(slug, spread(rng, from, now - HOUR, count));
  }
  for (const [i, make] of content.makes.entries()) {
    const on = project(make.project);
    const at = makeTimes.get(make.project)!.shift()!;
    const makerId = userId.get(make.maker)!;
    const [row] = await tx
      .insert(makes)
      .values({ projectId: on.id, makerId, body: make.note, link: make.link ?? null, createdAt: at })
      .returning({ id: makes.id });
    await tx.insert(makeImages).values(context.makePhotos[i]!.map((uploadId, sort) => ({ makeId: row!.id, uploadId, sort })));
    const excerpt = excerptOf(make.note);
    messageRows.push({ recipientId: on.ownerId, kind: 'make', actorId: makerId, projectId: on.id, body: excerpt, dedupeKey: `make:${row!.id}`, readAt: readIfOld(now, at), createdAt: at });
    activity('make', makerId, on, row!.id, excerpt, `/d-${on.publicId}/makes`, at);
  }
  await tx.execute(sql`UPDATE projects SET make_count = m.n FROM (SELECT project_id, count(*)::int AS n FROM makes GROUP BY project_id) m WHERE m.project_id = projects.id`);

  // members' own collections, the slug made from the title as the service makes it
  const slugsOf = new Map<number, Set<string>>();
  for (const [k, collection] of content.memberCollections.entries()) {
    const ownerId = userId.get(collection.owner)!;
    const taken = slugsOf.get(ownerId) ?? new Set<string>();
    slugsOf.set(ownerId, taken);
    const base = slugify(collection.title, 'collection');
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    const createdAt = new Date(now - (50 - k * 7) * DAY);
    const [row] = await tx
      .insert(memberCollections)
      .values({ ownerId, slug, title: collection.title, description: collection.description, isPublic: collection.public, createdAt, updatedAt: new Date(createdAt.getTime() + rng.int(1, 20) * DAY) })
      .returning({ id: memberCollections.id });
    await tx.insert(memberCollectionProjects).values(
      collection.projects.map((slug, position) => {
        const added = Math.max(createdAt.getTime(), project(slug).publishedAt.getTime()) + rng.int(1, 48) * HOUR;
        return { collectionId: row!.id, projectId: project(slug).id, position, addedAt: new Date(Math.min(added, now - HOUR)) };
      }),
    );
  }

  // follows: some members, projects on the member's topics, and tags of their own projects
  const seeded = [...projectBySlug.values()];
  const followRows: (typeof follows.$inferInsert)[] = [];
  for (const follower of allUserIds) {
    const own = seeded.filter((p) => p.ownerId === follower);
    const ownTags = new Set(own.flatMap((p) => p.tagIds));
    const since = () => between(rng, now - 90 * DAY, now - 2 * HOUR);
    for (const member of rng.sample(allUserIds.filter((id) => id !== follower), rng.int(2, 5))) {
      const at = since();
      followRows.push({ followerId: follower, kind: 'user', targetId: member, createdAt: at });
      messageRows.push({ recipientId: member, kind: 'follow', actorId: follower, dedupeKey: `follow:${follower}:${member}`, readAt: readIfOld(now, at), createdAt: at });
    }
    const related = seeded.filter((p) => p.ownerId !== follower && p.tagIds.some((tag) => ownTags.has(tag)));
    const others = seeded.filter((p) => p.ownerId !== follower);
    for (const followed of rng.sample(related.length >= 3 ? related : others, rng.int(1, 3))) {
      followRows.push({ followerId: follower, kind: 'project', targetId: followed.id, createdAt: since() });
    }
    for (const tag of rng.sample([...ownTags], rng.int(1, 2))) followRows.push({ followerId: follower, kind: 'tag', targetId: tag, createdAt: since() });
  }
  if (followRows.length) await tx.insert(follows).values(followRows);

  if (activityRows.length) await tx.insert(activities).values(activityRows);
  if (messageRows.length) await tx.insert(messages).values(messageRows);
}

/**
 * Delivers the seeded activities to followers' feeds and messages, by the feed job's function, so
 * the Following feeds are full when the site first serves; then dates the `followed_*` messages at
 * the events they tell of, read when older than five days like the seed's other messages: the
 * fan-out stamps them now, and a first inbox would otherwise hold a score of "new" messages about
 * months-old projects. Should the process stop before this, the feed job's resume sweep delivers
 * them at the next start (with that day's date).
 */
export async function deliverDemoActivity(): Promise<void> {
  await fanOutActivities();
  await getDb().execute(sql`
    UPDATE ${messages} m SET created_at = a.created_at,
      read_at = CASE WHEN a.created_at < now() - interval '5 days' THEN a.created_at + interval '1 day' END
    FROM ${activities} a WHERE m.activity_id = a.id AND m.kind LIKE 'followed\\_%'`);
}
