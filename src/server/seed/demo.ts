/**
 * Demo content for the first start of an empty database (`SEED_DEMO`, on by default): people with
 * sign-in credentials, the tag tree, published projects with generated PCB cover art, stars,
 * likes, comments with replies, banners, collections, donations and a few messages.
 * Everything goes in one transaction, so a crash leaves nothing half-seeded.
 */
import { count, sql } from 'drizzle-orm';
import { getDb, type Database } from '../db/client.ts';
import {
  banners,
  collectionProjects,
  collections,
  commentLikes,
  comments,
  credentials,
  donations,
  likes,
  messages,
  projects,
  projectTags,
  stars,
  tags,
  uploads,
  users,
} from '../db/schema/index.ts';
import type { UploadPurpose } from '../db/schema/index.ts';
import { newPublicId } from '../services/ids.ts';
import { fileUrl, getStorage } from '../storage/index.ts';
import {
  COMMENTS,
  DEMO_BANNERS,
  DEMO_COLLECTIONS,
  DEMO_DONATIONS,
  DEMO_PROJECTS,
  DEMO_USERS,
  TAG_TREE,
  type ProjectSeed,
  type TagParentSeed,
} from './demo-content.ts';
import { avatarSvg, bannerSvg, collectionSvg, coverSvg, mapLimit, renderWebp } from './images.ts';
import { htmlToText, renderMarkdown } from '../services/markdown.ts';

const markdownToText = (source: string) => htmlToText(renderMarkdown(source));
import { hashDemoPassword } from './password.ts';
import { createRng, hashString, type Rng } from './random.ts';

export { TAG_TREE, LICENCES } from './demo-content.ts';
export type { TagParentSeed, TagSeed } from './demo-content.ts';

/** The password of every demo account; emails are `<custom_url>@demo.copperhub.dev`. */
export const DEMO_PASSWORD = 'copperhub-demo';
export const DEMO_EMAIL_DOMAIN = 'demo.copperhub.dev';

/** Serialises concurrent seeders (several app instances starting on one empty database). */
const SEED_LOCK = 0x63687562; // "chub"

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything that can run Drizzle queries: the database, a transaction, or a drizzle() on one client. */
type Executor = Pick<Database, 'select' | 'insert'>;

const DAY = 24 * 60 * 60 * 1000;

/**
 * Makes sure the tag tree exists and returns every tag by slug, with both names (for search
 * text). By default tags of `tree` missing by slug are added (an operator's own tags are kept);
 * with `onlyIfEmpty` the tree is inserted only into an empty tags table. Shared by the demo and
 * the synthetic generator.
 */
export async function ensureTagTree(
  db: Executor,
  tree: TagParentSeed[] = TAG_TREE,
  options: { onlyIfEmpty?: boolean } = {},
): Promise<Map<string, { id: number; nameEn: string; nameZh: string }>> {
  const existing = await db.select({ id: tags.id, slug: tags.slug }).from(tags);
  if (existing.length === 0 || !options.onlyIfEmpty) {
    const idBySlug = new Map(existing.map((row) => [row.slug, row.id]));
    const parents = tree
      .map((parent, sort) => ({ slug: parent.slug, nameEn: parent.nameEn, nameZh: parent.nameZh, sort }))
      .filter((parent) => !idBySlug.has(parent.slug));
    if (parents.length) {
      const inserted = await db.insert(tags).values(parents).onConflictDoNothing().returning({ id: tags.id, slug: tags.slug });
      for (const row of inserted) idBySlug.set(row.slug, row.id);
    }
    const children = tree.flatMap((parent) =>
      parent.children
        .map((child, sort) => ({ ...child, parentId: idBySlug.get(parent.slug)!, sort }))
        .filter((child) => !idBySlug.has(child.slug)),
    );
    if (children.length) await db.insert(tags).values(children).onConflictDoNothing();
  }
  const rows = await db.select({ id: tags.id, slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh }).from(tags);
  return new Map(rows.map((row) => [row.slug, { id: row.id, nameEn: row.nameEn, nameZh: row.nameZh }]));
}

/** The Markdown description of a demo project, in its language. */
export function demoDescription(project: ProjectSeed): string {
  const zh = project.lang === 'zh';
  const h = zh
    ? { overview: '项目简介', features: '功能特点', specs: '规格参数', build: '制作说明', files: '文件说明', param: '参数', value: '数值' }
    : { overview: 'Overview', features: 'Features', specs: 'Specifications', build: 'Build notes', files: 'Files', param: 'Parameter', value: 'Value' };
  const parts = [`## ${h.overview}`, project.intro, `## ${h.features}`, project.features.map((item) => `- ${item}`).join('\n')];
  if (project.specs) {
    parts.push(`## ${h.specs}`, [`| ${h.param} | ${h.value} |`, '| --- | --- |', ...project.specs.map(([k, v]) => `| ${k} | ${v} |`)].join('\n'));
  }
  parts.push(`## ${h.build}`, project.build);
  parts.push(
    `## ${h.files}`,
    zh
      ? `工程包含原理图、PCB、Gerber 和 BOM。本项目以 **${project.licence}** 协议开源，欢迎在评论区交流改进建议。`
      : `The project includes the schematic, the PCB layout, Gerber files and the BOM. It is released under **${project.licence}**; questions and improvements are welcome in the comments.`,
  );
  return parts.join('\n\n') + '\n';
}

interface StoredImage {
  key: string;
  url: string;
  size: number;
  width: number;
  height: number;
  name: string;
  purpose: UploadPurpose;
  ownerUrl: string | null;
}

interface ImageJob {
  key: string;
  name: string;
  purpose: UploadPurpose;
  ownerUrl: string | null;
  width: number;
  height: number;
  svg: () => string;
}

async function renderAndStore(jobs: ImageJob[]): Promise<Map<string, StoredImage>> {
  const storage = getStorage();
  const stored = await mapLimit(jobs, 4, async (job) => {
    const image = await renderWebp(job.svg(), job.width, job.height);
    await storage.put(job.key, image.data);
    return {
      key: job.key,
      url: fileUrl(job.key),
      size: image.data.length,
      width: image.width,
      height: image.height,
      name: job.name,
      purpose: job.purpose,
      ownerUrl: job.ownerUrl,
    } satisfies StoredImage;
  });
  return new Map(stored.map((image) => [image.key, image]));
}

/** A time between `from` and `to`, skewed towards `from` when `skew` > 1. */
function between(rng: Rng, from: number, to: number, skew = 1): Date {
  return new Date(from + (to - from) * Math.pow(rng.next(), skew));
}

/** Fills an empty database with demo content. Returns whether it seeded. */
export async function seedDemoIfEmpty(): Promise<boolean> {
  const db = getDb();
  const { rows } = await db.$client.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if (rows[0]!.n > 0) return false;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    const [again] = await tx.select({ n: count() }).from(users);
    if ((again?.n ?? 0) > 0) return false; // another instance seeded meanwhile
    await insertDemo(tx);
    return true;
  });
}

async function insertDemo(tx: Tx): Promise<void> {
  const rng = createRng(20240611);
  const now = Date.now();
  const projectSeeds = DEMO_PROJECTS.map((seed) => ({ seed, publicId: newPublicId() }));

  // images (rendered and stored while scrypt runs on the thread pool)
  const jobs: ImageJob[] = [
    ...DEMO_USERS.map((user) => ({
      key: `demo/avatars/${user.url}.webp`,
      name: `${user.url}.webp`,
      purpose: 'avatar' as const,
      ownerUrl: user.url,
      width: 160,
      height: 160,
      svg: () => avatarSvg(user.initials, hashString(user.url)),
    })),
    ...projectSeeds.map(({ seed, publicId }) => ({
      key: `demo/covers/${publicId}.webp`,
      name: `${seed.short.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.webp`,
      purpose: 'cover' as const,
      ownerUrl: seed.owner,
      width: 800,
      height: 600,
      svg: () => coverSvg({ title: seed.short, chip: seed.chip, mask: seed.mask, seed: hashString(seed.title) }),
    })),
    ...DEMO_BANNERS.map((banner, i) => ({
      key: `demo/banners/banner-${i + 1}.webp`,
      name: `banner-${i + 1}.webp`,
      purpose: 'image' as const,
      ownerUrl: null,
      width: 1200,
      height: 360,
      svg: () => bannerSvg({ title: banner.titleEn, subtitle: banner.subtitle, from: banner.from, to: banner.to }),
    })),
    ...DEMO_COLLECTIONS.map((collection) => ({
      key: `demo/collections/${collection.name}.webp`,
      name: `${collection.name}.webp`,
      purpose: 'image' as const,
      ownerUrl: null,
      width: 800,
      height: 600,
      svg: () => collectionSvg(collection.coverTitle, collection.from, collection.to),
    })),
  ];
  const [passwordHash, images] = await Promise.all([hashDemoPassword(DEMO_PASSWORD), renderAndStore(jobs)]);
  const image = (key: string) => images.get(key)!;

  // users and credentials
  const userRows = await tx
    .insert(users)
    .values(
      DEMO_USERS.map((user) => {
        const createdAt = new Date(now - rng.int(150, 420) * DAY - rng.int(0, DAY));
        return {
          customUrl: user.url,
          nickname: user.nickname,
          avatar: image(`demo/avatars/${user.url}.webp`).url,
          bio: user.bio,
          location: user.location,
          website: user.website,
          createdAt,
          updatedAt: new Date(createdAt.getTime() + rng.int(1, 100) * DAY),
        };
      }),
    )
    .returning({ id: users.id, url: users.customUrl });
  const userId = new Map(userRows.map((row) => [row.url, row.id]));
  const allUserIds = userRows.map((row) => row.id);
  await tx
    .insert(credentials)
    .values(userRows.map((row) => ({ userId: row.id, email: `${row.url}@${DEMO_EMAIL_DOMAIN}`, passwordHash })));

  await tx.insert(uploads).values(
    [...images.values()].map((img) => ({
      id: newPublicId(),
      ownerId: img.ownerUrl ? userId.get(img.ownerUrl)! : null,
      purpose: img.purpose,
      storageKey: img.key,
      name: img.name,
      mime: 'image/webp',
      size: img.size,
      width: img.width,
      height: img.height,
      createdAt: new Date(now - 121 * DAY),
    })),
  );

  const tagBySlug = await ensureTagTree(tx);

  // projects, with their stars, likes and comments worked out first so the counts match
  type Planned = {
    seed: ProjectSeed;
    publicId: string;
    ownerId: number;
    publishedAt: Date;
    starUsers: number[];
    likeUsers: number[];
  };
  const planned: Planned[] = projectSeeds.map(({ seed, publicId }) => {
    const ownerId = userId.get(seed.owner)!;
    const publishedAt = new Date(now - rng.int(2 * 60 * 60 * 1000, 120 * DAY));
    const others = allUserIds.filter((id) => id !== ownerId);
    const popular = seed.recommend ? 4 : 0;
    return {
      seed,
      publicId,
      ownerId,
      publishedAt,
      starUsers: rng.sample(others, Math.min(others.length, rng.int(0, 6) + popular)),
      likeUsers: rng.sample(others, Math.min(others.length, rng.int(1, 9) + popular)),
    };
  });

  type PlannedComment = {
    author: number;
    body: string;
    at: Date;
    replies: { author: number; replyTo: number; body: string; at: Date }[];
  };
  const commentPlans = planned.map((project) => {
    const age = now - project.publishedAt.getTime();
    const topCount = age < DAY ? rng.int(0, 1) : project.seed.recommend ? rng.int(2, 6) : rng.int(0, 4);
    const pools = { en: rng.shuffle(COMMENTS.en), zh: rng.shuffle(COMMENTS.zh) };
    const list: PlannedComment[] = [];
    for (let i = 0; i < topCount; i++) {
      const zh = project.seed.lang === 'zh' ? !rng.chance(0.1) : rng.chance(0.15);
      const seed = (zh ? pools.zh : pools.en).pop()!;
      const author = rng.pick(allUserIds.filter((id) => id !== project.ownerId));
      const at = between(rng, project.publishedAt.getTime() + 10 * 60 * 1000, now - 60 * 1000, 1.6);
      const replies: PlannedComment['replies'] = [];
      const replyCount = rng.chance(0.55) ? rng.int(1, 3) : 0;
      const followUps = rng.shuffle(zh ? COMMENTS.zhFollowUps : COMMENTS.enFollowUps);
      let last = at.getTime();
      let lastAuthor = author;
      for (let r = 0; r < replyCount; r++) {
        if (last + 5 * 60 * 1000 >= now - 30 * 1000) break; // no time left for a reply
        // the owner answers first; then someone else follows up, and the owner may answer again
        const replier = r === 0 ? project.ownerId : rng.pick(allUserIds.filter((id) => id !== lastAuthor && id !== project.ownerId));
        const body = r === 0 ? seed.answer : followUps.pop()!;
        const replyAt = between(rng, last + 5 * 60 * 1000, now - 30 * 1000, 2);
        replies.push({ author: replier, replyTo: lastAuthor, body, at: replyAt });
        last = replyAt.getTime();
        lastAuthor = replier;
      }
      list.push({ author, body: seed.body, at, replies });
    }
    return list;
  });

  const projectRows = await tx
    .insert(projects)
    .values(
      planned.map((project, i) => {
        const { seed } = project;
        const description = demoDescription(seed);
        const tagNames = seed.tags.flatMap((slug) => {
          const tag = tagBySlug.get(slug);
          if (!tag) throw new Error(`demo project "${seed.title}" uses unknown tag ${slug}`);
          return [tag.nameEn, tag.nameZh];
        });
        const commentTotal = commentPlans[i]!.reduce((sum, c) => sum + 1 + c.replies.length, 0);
        const published = project.publishedAt.getTime();
        const updatedAt = rng.chance(0.4) ? between(rng, published, now, 2) : project.publishedAt;
        return {
          publicId: project.publicId,
          ownerId: project.ownerId,
          title: seed.title,
          summary: seed.summary,
          cover: image(`demo/covers/${project.publicId}.webp`).url,
          descriptionMd: description,
          descriptionHtml: renderMarkdown(description),
          licence: seed.licence,
          status: 'published' as const,
          viewCount: 40 + project.starUsers.length * 55 + project.likeUsers.length * 25 + commentTotal * 30 + rng.int(0, 900),
          starCount: project.starUsers.length,
          likeCount: project.likeUsers.length,
          commentCount: commentTotal,
          recommendRank: seed.recommend ?? null,
          createdAt: new Date(published - rng.int(1, 21) * DAY - rng.int(0, DAY)),
          publishedAt: project.publishedAt,
          updatedAt,
          searchText: [seed.title, seed.summary, markdownToText(description), ...new Set(tagNames)].join(' '),
        };
      }),
    )
    .returning({ id: projects.id, publicId: projects.publicId });
  const projectId = new Map(projectRows.map((row) => [row.publicId, row.id]));
  const projectIdByTitle = new Map(planned.map((project) => [project.seed.title, projectId.get(project.publicId)!]));

  await tx.insert(projectTags).values(
    planned.flatMap((project) =>
      project.seed.tags.map((slug) => ({ projectId: projectId.get(project.publicId)!, tagId: tagBySlug.get(slug)!.id })),
    ),
  );

  const reaction = (project: Planned, userIds: number[]) =>
    userIds.map((user) => ({
      userId: user,
      projectId: projectId.get(project.publicId)!,
      createdAt: between(rng, project.publishedAt.getTime(), now, 1.5),
    }));
  const starRows = planned.flatMap((project) => reaction(project, project.starUsers));
  const likeRows = planned.flatMap((project) => reaction(project, project.likeUsers));
  if (starRows.length) await tx.insert(stars).values(starRows);
  if (likeRows.length) await tx.insert(likes).values(likeRows);

  // comments: top level first, then replies pointing at them
  const topValues = planned.flatMap((project, i) =>
    commentPlans[i]!.map((comment) => ({
      projectId: projectId.get(project.publicId)!,
      authorId: comment.author,
      body: comment.body,
      replyCount: comment.replies.length,
      createdAt: comment.at,
    })),
  );
  const topRows = topValues.length
    ? await tx.insert(comments).values(topValues).returning({ id: comments.id })
    : [];
  const plannedTop = planned.flatMap((project, i) => commentPlans[i]!.map((comment) => ({ project, comment })));
  const replyValues = plannedTop.flatMap(({ project, comment }, k) =>
    comment.replies.map((reply) => ({
      projectId: projectId.get(project.publicId)!,
      authorId: reply.author,
      parentId: topRows[k]!.id,
      replyToUserId: reply.replyTo,
      body: reply.body,
      createdAt: reply.at,
    })),
  );
  const replyRows = replyValues.length
    ? await tx.insert(comments).values(replyValues).returning({ id: comments.id, authorId: comments.authorId })
    : [];

  // a few comment likes, with like_count kept equal to the rows
  const allComments = [
    ...topRows.map((row, k) => ({ id: row.id, authorId: plannedTop[k]!.comment.author, at: plannedTop[k]!.comment.at })),
    ...replyRows.map((row, k) => ({ id: row.id, authorId: row.authorId, at: replyValues[k]!.createdAt })),
  ];
  const commentLikeRows = allComments.flatMap((comment) =>
    rng.chance(0.35)
      ? rng
          .sample(allUserIds.filter((id) => id !== comment.authorId), rng.int(1, 4))
          .map((user) => ({ userId: user, commentId: comment.id, createdAt: between(rng, comment.at.getTime(), now) }))
      : [],
  );
  if (commentLikeRows.length) {
    await tx.insert(commentLikes).values(commentLikeRows);
    await tx.execute(
      sql`UPDATE comments SET like_count = l.n FROM (SELECT comment_id, count(*)::int AS n FROM comment_likes GROUP BY comment_id) l WHERE l.comment_id = comments.id`,
    );
  }

  // messages to project owners: comments, replies and stars (older ones read)
  const messageRows: (typeof messages.$inferInsert)[] = [];
  const readIfOld = (at: Date) => (now - at.getTime() > 5 * DAY ? new Date(at.getTime() + DAY) : null);
  plannedTop.forEach(({ project, comment }, k) => {
    const pid = projectId.get(project.publicId)!;
    messageRows.push({ recipientId: project.ownerId, kind: 'comment', actorId: comment.author, projectId: pid, commentId: topRows[k]!.id, body: comment.body, readAt: readIfOld(comment.at), createdAt: comment.at });
  });
  replyValues.forEach((reply, k) => {
    if (reply.replyToUserId === reply.authorId) return;
    messageRows.push({ recipientId: reply.replyToUserId, kind: 'reply', actorId: reply.authorId, projectId: reply.projectId, commentId: replyRows[k]!.id, body: reply.body, readAt: readIfOld(reply.createdAt), createdAt: reply.createdAt });
  });
  for (const star of starRows) {
    const owner = planned.find((project) => projectId.get(project.publicId) === star.projectId)!.ownerId;
    messageRows.push({ recipientId: owner, kind: 'star', actorId: star.userId, projectId: star.projectId, dedupeKey: `star:${star.userId}:${star.projectId}`, readAt: readIfOld(star.createdAt), createdAt: star.createdAt });
  }
  if (messageRows.length) await tx.insert(messages).values(messageRows);

  // banners (always active), collections, donations
  await tx.insert(banners).values(
    DEMO_BANNERS.map((banner, i) => ({
      image: image(`demo/banners/banner-${i + 1}.webp`).url,
      link: banner.link,
      titleEn: banner.titleEn,
      titleZh: banner.titleZh,
      sort: i,
    })),
  );
  const collectionRows = await tx
    .insert(collections)
    .values(
      DEMO_COLLECTIONS.map((collection, sort) => ({
        name: collection.name,
        titleEn: collection.titleEn,
        titleZh: collection.titleZh,
        descriptionEn: collection.descriptionEn,
        descriptionZh: collection.descriptionZh,
        cover: image(`demo/collections/${collection.name}.webp`).url,
        featured: true,
        sort,
        createdAt: new Date(now - (30 + sort * 20) * DAY),
      })),
    )
    .returning({ id: collections.id, name: collections.name });
  await tx.insert(collectionProjects).values(
    DEMO_COLLECTIONS.flatMap((collection) => {
      const collectionId = collectionRows.find((row) => row.name === collection.name)!.id;
      return collection.projects.map((title, position) => {
        const pid = projectIdByTitle.get(title);
        if (!pid) throw new Error(`demo collection ${collection.name} lists unknown project "${title}"`);
        return { collectionId, projectId: pid, position };
      });
    }),
  );
  await tx.insert(donations).values(
    DEMO_DONATIONS.map((donation, i) => {
      const pid = donation.project ? projectIdByTitle.get(donation.project) : undefined;
      if (donation.project && !pid) throw new Error(`demo donation refers to unknown project "${donation.project}"`);
      return {
        donorName: donation.donor,
        userId: donation.user ? userId.get(donation.user)! : null,
        amount: donation.amount,
        currency: donation.currency,
        message: donation.message,
        projectId: pid ?? null,
        providerRef: `demo-${String(i + 1).padStart(4, '0')}`,
        createdAt: new Date(now - Math.round(((DEMO_DONATIONS.length - i) / DEMO_DONATIONS.length) * 60 * DAY) + rng.int(0, 12 * 60 * 60 * 1000)),
      };
    }),
  );
}
