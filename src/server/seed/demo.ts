/**
 * Demo content for the first start of an empty database (`SEED_DEMO`, on by default): the people,
 * tag tree, projects, comments, banners, collections and donations of the files in `seed/demo/`,
 * their build logs, makes, remix and members' collections, follows and followed activity
 * (`demo-activity.ts`),
 * with generated artwork, and stars, likes, comment threads and messages drawn at random (with a
 * fixed seed) so the site looks lived in. Everything goes in one transaction, so a crash leaves
 * nothing half-seeded.
 */
import { and, count, like, ne, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../db/client.ts';
import {
  attachments,
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
  uploads,
  users,
} from '../db/schema/index.ts';
import type { UploadPurpose } from '../db/schema/index.ts';
import { newPublicId } from '../lib/ids.ts';
import { hashPassword } from '../lib/passwords.ts';
import { imageStorageKey, queueImageVariants } from '../services/media/index.ts';
import { loadDemoContent, type CommentPool, type DemoContent, type ProjectSeed } from './demo-content.ts';
import { planProjectEda } from '../services/eda/index.ts';
import { ensureFirstVersion, createMemberTags } from '../services/projects/index.ts';
import { cleanTagName, tagSlugOf } from '../../lib/tag-names.ts';
import { storeDesignFiles } from './design-files.ts';
import { deliverDemoActivity, insertDemoActivity, type SeededProject } from './demo-activity.ts';
import { avatarSvg, bannerSvg, collectionSvg, coverSvg, makePhotoSvg, storeArtwork, type ArtworkJob } from './images.ts';
import { projectTextColumns } from './project-text.ts';
import { createRng, hashString, type Rng } from './random.ts';
import { ensureTagTree } from './tag-tree.ts';

/** The password of every demo account; emails are `<custom_url>@demo.copperhub.dev`. */
export const DEMO_PASSWORD = 'copperhub-demo';
export const DEMO_EMAIL_DOMAIN = 'demo.copperhub.dev';

/** Serialises concurrent seeders (several app instances starting on one empty database). */
const SEED_LOCK = 0x63687562; // "chub"


const DAY = 24 * 60 * 60 * 1000;

/** A time between `from` and `to`, skewed towards `from` when `skew` > 1. */
function between(rng: Rng, from: number, to: number, skew = 1): Date {
  return new Date(from + (to - from) * Math.pow(rng.next(), skew));
}

/**
 * Fills an empty database with the demo content of `dir` (default `seed/demo/`). Returns whether
 * it seeded. The files are read and checked before anything is written.
 */
export async function seedDemoIfEmpty(options: { dir?: string } = {}): Promise<boolean> {
  const db = getDb();
  const { rows } = await db.$client.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if (rows[0]!.n > 0) return false;
  const content = loadDemoContent(options.dir);
  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    const [again] = await tx.select({ n: count() }).from(users);
    if ((again?.n ?? 0) > 0) return false; // another instance seeded meanwhile
    await insertDemo(tx, content);
    return true;
  });
  if (seeded) await deliverDemoActivity();
  return seeded;
}

/**
 * Sends the demo pictures' variants to the job queue, as an upload does (avatars are shown as
 * stored). Called once the site serves after seeding: starting the queue costs the first start
 * more than a second, and until the variants exist pages show the pictures as stored.
 */
export async function queueDemoImageVariants(): Promise<number> {
  const rows = await getDb()
    .select({ key: uploads.storageKey })
    .from(uploads)
    .where(and(ne(uploads.purpose, 'avatar'), like(uploads.storageKey, 'images/%')));
  for (const row of rows) await queueImageVariants(row.key);
  return rows.length;
}

interface ImageJob extends ArtworkJob {
  /** What the picture is for (`avatar:<url>`, `cover:<project>`, `banner:<n>`, `collection:<name>`, `make:<n>:<photo>`). */
  ref: string;
  /** Its `uploads` row, named in its key like any uploaded image's. */
  id: string;
  name: string;
  purpose: UploadPurpose;
  /** The demo member the upload belongs to. */
  ownerUrl: string | null;
}

/** Stored like an uploaded image (`images/ab/<id>.webp`), so pages offer its variants. */
function upload(ref: string): { ref: string; id: string; key: string } {
  const id = newPublicId(16);
  return { ref, id, key: imageStorageKey(id) };
}

/** The artwork of every member, project, banner, collection and make. */
function imageJobs(content: DemoContent, projectSeeds: { seed: ProjectSeed; publicId: string }[]): ImageJob[] {
  return [
    ...content.users.map((user) => ({
      ...upload(`avatar:${user.url}`),
      name: `${user.url}.webp`,
      purpose: 'avatar' as const,
      ownerUrl: user.url,
      width: 160,
      height: 160,
      svg: () => avatarSvg(user.initials, hashString(user.url)),
    })),
    ...projectSeeds.flatMap(({ seed, publicId }) => {
      const cover = seed.cover;
      if (!cover) return [];
      return [
        {
          ...upload(`cover:${publicId}`),
          name: `${seed.slug}.webp`,
          purpose: 'cover' as const,
          ownerUrl: seed.owner,
          width: 800,
          height: 600,
          svg: () => coverSvg({ title: cover.label, chip: cover.chip, mask: cover.mask, seed: hashString(seed.title) }),
        },
      ];
    }),
    ...content.banners.map((banner, i) => ({
      ...upload(`banner:${i + 1}`),
      name: `banner-${i + 1}.webp`,
      purpose: 'image' as const,
      ownerUrl: null,
      width: 1200,
      height: 360,
      svg: () => bannerSvg({ from: banner.colours[0], to: banner.colours[1], seed: hashString(banner.titleEn) }),
    })),
    ...content.collections.map((collection) => ({
      ...upload(`collection:${collection.name}`),
      name: `${collection.name}.webp`,
      purpose: 'image' as const,
      ownerUrl: null,
      width: 800,
      height: 600,
      svg: () => collectionSvg({ from: collection.colours[0], to: collection.colours[1], seed: hashString(collection.titleEn) }),
    })),
    // a make's photos show the project's board (its cover's label and chip) in the maker's mask colour
    ...content.makes.flatMap((make, i) => {
      const project = content.projects.find((seed) => seed.slug === make.project)!;
      return Array.from({ length: make.photos }, (_, k) => ({
        ...upload(`make:${i}:${k}`),
        name: `${make.project}-${make.maker}-${k + 1}.webp`,
        purpose: 'image' as const,
        ownerUrl: make.maker,
        width: 800,
        height: 600,
        svg: () =>
          makePhotoSvg({ title: project.cover?.label ?? make.project.toUpperCase(), chip: project.cover?.chip, mask: make.mask, seed: hashString(`${make.project}:${make.maker}:${k}`) }),
      }));
    }),
  ];
}

async function insertDemo(tx: Tx, content: DemoContent): Promise<void> {
  const rng = createRng(20240611);
  const now = Date.now();
  const projectSeeds = content.projects.map((seed) => ({ seed, publicId: newPublicId() }));

  // images, rendered and stored while scrypt runs on the thread pool; one hash serves every account
  const [passwordHash, stored, designFiles] = await Promise.all([
    hashPassword(DEMO_PASSWORD),
    storeArtwork(imageJobs(content, projectSeeds)),
    storeDesignFiles(content.edaDir, projectSeeds),
  ]);
  const images = new Map(stored.map((image) => [image.ref, image]));
  const image = (ref: string) => images.get(ref)!;

  // users and credentials
  const userRows = await tx
    .insert(users)
    .values(
      content.users.map((user) => {
        const createdAt = new Date(now - rng.int(150, 420) * DAY - rng.int(0, DAY));
        return {
          customUrl: user.url,
          nickname: user.nickname,
          avatar: image(`avatar:${user.url}`).url,
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
    stored.map((img) => ({
      id: img.id,
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

  const tagBySlug = await ensureTagTree(tx, content.tags);
  // members' own tags, made by the publishing service's function, each by the first owner who typed it
  const memberTagsOf = new Map<string, { id: number; nameEn: string; nameZh: string }[]>();
  for (const seed of content.projects) {
    if (!seed.memberTags?.length) continue;
    const created = seed.memberTags.map((name) => ({ slug: tagSlugOf(name), name: cleanTagName(name) }));
    memberTagsOf.set(seed.slug, await createMemberTags(tx, userId.get(seed.owner)!, { rows: [], created }));
  }
  const tagIdsOf = (seed: ProjectSeed) => [...seed.tags.map((slug) => tagBySlug.get(slug)!.id), ...(memberTagsOf.get(seed.slug) ?? []).map((tag) => tag.id)];

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

  // A remix comes after its original: when the draw says otherwise, the two swap dates.
  for (const remix of planned) {
    const original = planned.find((project) => project.seed.slug === remix.seed.remixOf);
    if (original && original.publishedAt > remix.publishedAt) [original.publishedAt, remix.publishedAt] = [remix.publishedAt, original.publishedAt];
  }

  /** The next item of a shuffled pool, reshuffling the whole list when the pool runs dry. */
  const draw = <T>(pool: T[], all: readonly T[]): T => {
    if (pool.length === 0) pool.push(...rng.shuffle(all));
    return pool.pop()!;
  };
  type PlannedComment = {
    author: number;
    body: string;
    at: Date;
    replies: { author: number; replyTo: number; body: string; at: Date }[];
  };
  const commentPlans = planned.map((project) => {
    const age = now - project.publishedAt.getTime();
    const topCount = age < DAY ? rng.int(0, 1) : project.seed.recommend ? rng.int(2, 6) : rng.int(0, 4);
    const { en, zh: zhPool } = content.comments;
    const pools = { en: rng.shuffle(en.comments), zh: rng.shuffle(zhPool.comments) };
    const list: PlannedComment[] = [];
    for (let i = 0; i < topCount; i++) {
      const zh = project.seed.lang === 'zh' ? !rng.chance(0.1) : rng.chance(0.15);
      const language: CommentPool = zh ? zhPool : en;
      const seed = draw(zh ? pools.zh : pools.en, language.comments);
      const author = rng.pick(allUserIds.filter((id) => id !== project.ownerId));
      const at = between(rng, project.publishedAt.getTime() + 10 * 60 * 1000, now - 60 * 1000, 1.6);
      const replies: PlannedComment['replies'] = [];
      const replyCount = rng.chance(0.55) ? rng.int(1, 3) : 0;
      const followUps = rng.shuffle(language.followUps);
      let last = at.getTime();
      let lastAuthor = author;
      for (let r = 0; r < replyCount; r++) {
        if (last + 5 * 60 * 1000 >= now - 30 * 1000) break; // no time left for a reply
        // the owner answers first; then someone else follows up, and the owner may answer again
        const replier = r === 0 ? project.ownerId : rng.pick(allUserIds.filter((id) => id !== lastAuthor && id !== project.ownerId));
        const body = r === 0 ? seed.answer : draw(followUps, language.followUps);
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
        const tagNames = [...seed.tags.map((slug) => tagBySlug.get(slug)!), ...(memberTagsOf.get(seed.slug) ?? [])].flatMap((tag) => [tag.nameEn, tag.nameZh]);
        const commentTotal = commentPlans[i]!.reduce((sum, c) => sum + 1 + c.replies.length, 0);
        const published = project.publishedAt.getTime();
        const updatedAt = rng.chance(0.4) ? between(rng, published, now, 2) : project.publishedAt;
        return {
          publicId: project.publicId,
          ownerId: project.ownerId,
          title: seed.title,
          summary: seed.summary,
          cover: seed.cover ? image(`cover:${project.publicId}`).url : null,
          ...projectTextColumns({ title: seed.title, summary: seed.summary, markdown: seed.description, tagNames }),
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
        };
      }),
    )
    .returning({ id: projects.id, publicId: projects.publicId });
  const projectId = new Map(projectRows.map((row) => [row.publicId, row.id]));
  const projectIdBySlug = new Map(planned.map((project) => [project.seed.slug, projectId.get(project.publicId)!]));

  // design files: uploads of the owner, attached to the project; their boards are queued
  if (designFiles.length > 0) {
    const ownerOf = new Map(planned.map((project) => [project.publicId, project]));
    await tx.insert(uploads).values(
      designFiles.map((file) => ({
        id: file.uploadId,
        ownerId: ownerOf.get(file.publicId)!.ownerId,
        purpose: 'attachment' as const,
        storageKey: file.storageKey,
        name: file.name,
        mime: file.mime,
        size: file.size,
        createdAt: ownerOf.get(file.publicId)!.publishedAt,
      })),
    );
    await tx.insert(attachments).values(
      designFiles.map((file, sort) => ({
        id: newPublicId(),
        projectId: projectId.get(file.publicId)!,
        uploadId: file.uploadId,
        name: file.name,
        mime: file.mime,
        size: file.size,
        storageKey: file.storageKey,
        kind: file.kind,
        downloadCount: rng.int(3, 120),
        sort,
        createdAt: ownerOf.get(file.publicId)!.publishedAt,
      })),
    );
    for (const publicId of new Set(designFiles.map((file) => file.publicId))) {
      await planProjectEda(tx, projectId.get(publicId)!);
      // Their version 1 keeps these files, and gets their boards and BOM as the queue reads them.
      await ensureFirstVersion(tx, projectId.get(publicId)!);
    }
  }

  await tx.insert(projectTags).values(
    planned.flatMap((project) =>
      tagIdsOf(project.seed).map((tagId) => ({ projectId: projectId.get(project.publicId)!, tagId })),
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
  const ownerOf = new Map(planned.map((project) => [projectId.get(project.publicId)!, project.ownerId]));
  for (const star of starRows) {
    messageRows.push({ recipientId: ownerOf.get(star.projectId)!, kind: 'star', actorId: star.userId, projectId: star.projectId, dedupeKey: `star:${star.userId}:${star.projectId}`, readAt: readIfOld(star.createdAt), createdAt: star.createdAt });
  }
  if (messageRows.length) await tx.insert(messages).values(messageRows);

  // banners (always active), collections, donations
  if (content.banners.length) {
    await tx.insert(banners).values(
      content.banners.map((banner, i) => ({
        image: image(`banner:${i + 1}`).url,
        link: banner.link,
        titleEn: banner.titleEn,
        titleZh: banner.titleZh,
        sort: i,
      })),
    );
  }
  if (content.collections.length) {
    const collectionRows = await tx
      .insert(collections)
      .values(
        content.collections.map((collection, sort) => ({
          name: collection.name,
          titleEn: collection.titleEn,
          titleZh: collection.titleZh,
          descriptionEn: collection.descriptionEn,
          descriptionZh: collection.descriptionZh,
          cover: image(`collection:${collection.name}`).url,
          featured: true,
          sort,
          createdAt: new Date(now - (30 + sort * 20) * DAY),
        })),
      )
      .returning({ id: collections.id, name: collections.name });
    const collectionId = new Map(collectionRows.map((row) => [row.name, row.id]));
    await tx.insert(collectionProjects).values(
      content.collections.flatMap((collection) =>
        collection.projects.map((slug, position) => ({ collectionId: collectionId.get(collection.name)!, projectId: projectIdBySlug.get(slug)!, position })),
      ),
    );
  }
  if (content.donations.length) {
    const total = content.donations.length;
    await tx.insert(donations).values(
      content.donations.map((donation, i) => ({
        donorName: donation.donor,
        userId: donation.user ? userId.get(donation.user)! : null,
        amount: donation.amount,
        currency: donation.currency,
        message: donation.message,
        projectId: donation.project ? projectIdBySlug.get(donation.project)! : null,
        providerRef: `demo-${String(i + 1).padStart(4, '0')}`,
        createdAt: new Date(now - Math.round(((total - i) / total) * 60 * DAY) + rng.int(0, 12 * 60 * 60 * 1000)),
      })),
    );
  }

  const projectBySlug = new Map<string, SeededProject>(
    planned.map((project) => [
      project.seed.slug,
      {
        id: projectId.get(project.publicId)!,
        publicId: project.publicId,
        ownerId: project.ownerId,
        publishedAt: project.publishedAt,
        lang: project.seed.lang,
        tagIds: tagIdsOf(project.seed),
      },
    ]),
  );
  const makePhotos = content.makes.map((make, i) => Array.from({ length: make.photos }, (_, k) => image(`make:${i}:${k}`).id));
  await insertDemoActivity(tx, content, { now, userId, projectBySlug, makePhotos });
}
