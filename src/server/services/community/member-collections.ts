/**
 * Members' own collections (`/user/{url}/collections/{slug}`): create, edit, add and remove
 * projects, reorder, delete, and read them. A private collection exists for its owner only:
 * everyone else is answered `collection_not_found`, as for one that never was. Projects show
 * through `isPublishedFor`, so a deleted or hidden project leaves every collection at once.
 * Writes lock the collection (or the member, to create one) so limits and positions hold under
 * concurrent presses; every refusal happens before anything is written.
 */
import { and, asc, count as countRows, eq, like, max, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { MAX_COLLECTION_PROJECTS, MAX_COLLECTIONS } from '../../../lib/collection-rules.ts';
import type { CollectionChange, CollectionPage, collectionSaveInputSchema, MemberCollection } from '../../../lib/contract/schemas/collections.ts';
import type { Locale } from '../../../lib/i18n.ts';
import { slugify } from '../../../lib/slug.ts';
import { getDb, type Tx } from '../../db/client.ts';
import { memberCollectionProjects, memberCollections, projects, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { memberRefColumns } from '../accounts/index.ts';
import { cardColumns, cardTags, shareImage, toCards } from '../projects/index.ts';
import { purgeMemberCollectionPages, isPublishedFor, findPublishedProject, visibleTo } from '../core/index.ts';
import { getPublicUser } from './members.ts';
import type { Paging } from '../../lib/paging.ts';

type Reader = Pick<Tx, 'select'>;
type CollectionRow = typeof memberCollections.$inferSelect;
type Owner = {
  id: number;
  url: string;
  nickname: string;
  avatar: string | null;
};

export type CollectionSaveInput = z.output<typeof collectionSaveInputSchema>;

/** What `viewerId` sees of a collection's projects: published ones, not hidden (unless theirs or staff). */
const visibleIn = (collectionId: SQL | number, viewerId: number | null) => sql`
  ${memberCollectionProjects.collectionId} = ${collectionId} AND ${isPublishedFor(viewerId)}`;

const projectCountOf = (viewerId: number | null) => sql<number>`(
  SELECT count(*)::int FROM ${memberCollectionProjects} JOIN ${projects} ON ${projects.id} = ${memberCollectionProjects.projectId}
  WHERE ${visibleIn(sql`${memberCollections.id}`, viewerId)})`;

/** The first visible project's cover, or its board's picture. */
const coverOf = (viewerId: number | null) => sql<string | null>`(
  SELECT ${shareImage} FROM ${memberCollectionProjects} JOIN ${projects} ON ${projects.id} = ${memberCollectionProjects.projectId}
  WHERE ${visibleIn(sql`${memberCollections.id}`, viewerId)}
  ORDER BY ${memberCollectionProjects.position}, ${memberCollectionProjects.projectId} LIMIT 1)`;

const holds = (publicId: string) => sql<boolean>`EXISTS (
  SELECT 1 FROM ${memberCollectionProjects} JOIN ${projects} ON ${projects.id} = ${memberCollectionProjects.projectId}
  WHERE ${memberCollectionProjects.collectionId} = ${memberCollections.id} AND ${projects.publicId} = ${publicId})`;

/** Collections of `ownerId` as `viewerId` sees them, in the order given by `where`. */
async function readCollections(db: Reader, owner: Owner, viewerId: number | null, where: SQL, project?: string): Promise<MemberCollection[]> {
  return (await readCollectionRows(db, owner, viewerId, where, project)).map((entry) => entry.collection);
}

/** `readCollections` with each collection's row id, for a query that goes on to its projects. */
async function readCollectionRows(
  db: Reader,
  owner: Owner,
  viewerId: number | null,
  where: SQL,
  project?: string,
): Promise<{ id: number; collection: MemberCollection }[]> {
  const rows = await db
    .select({
      row: memberCollections,
      projectCount: projectCountOf(viewerId),
      cover: coverOf(viewerId),
      ...(project === undefined ? {} : { hasProject: holds(project) }),
    })
    .from(memberCollections)
    // The join also makes Drizzle name every column with its table, which the correlated
    // subqueries above need (alone, `member_collections.id` would be written as a bare "id").
    .innerJoin(users, eq(users.id, memberCollections.ownerId))
    .where(and(eq(memberCollections.ownerId, owner.id), visibleTo(memberCollections.hiddenAt, memberCollections.ownerId, viewerId), where))
    .orderBy(sql`${memberCollections.updatedAt} DESC`, asc(memberCollections.id));
  return rows.map(({ row, projectCount, cover, ...rest }) => ({
    id: row.id,
    collection: {
      slug: row.slug,
      title: row.title,
      description: row.description,
      public: row.isPublic,
      owner: { url: owner.url, nickname: owner.nickname, avatar: owner.avatar },
      projectCount,
      cover,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      hidden: row.hiddenAt !== null,
      ...('hasProject' in rest ? { hasProject: Boolean(rest.hasProject) } : {}),
    },
  }));
}

async function ownerById(db: Reader, userId: number): Promise<Owner> {
  const [row] = await db
    .select(memberRefColumns)
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new AppError('user_not_found');
  return row;
}

/** One's own collection by slug, locked for the write; another member's is simply not found. */
async function lockOwnCollection(tx: Tx, userId: number, slug: string): Promise<CollectionRow> {
  const [row] = await tx
    .select()
    .from(memberCollections)
    .where(and(eq(memberCollections.ownerId, userId), eq(memberCollections.slug, slug)))
    .for('update')
    .limit(1);
  if (!row) throw new AppError('collection_not_found');
  return row;
}

/** `base`, or `base-2`, `base-3`… : the first slug none of the member's collections has. */
async function freeSlug(tx: Tx, userId: number, base: string): Promise<string> {
  const taken = await tx
    .select({ slug: memberCollections.slug })
    .from(memberCollections)
    .where(and(eq(memberCollections.ownerId, userId), or(eq(memberCollections.slug, base), like(memberCollections.slug, `${base}-%`))));
  const used = new Set(taken.map((row) => row.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

async function changeOf(tx: Tx, owner: Owner, row: CollectionRow): Promise<CollectionChange> {
  const [collection] = await readCollections(tx, owner, owner.id, eq(memberCollections.id, row.id));
  const ids = await tx
    .select({ id: projects.publicId })
    .from(memberCollectionProjects)
    .innerJoin(projects, eq(projects.id, memberCollectionProjects.projectId))
    .where(visibleIn(row.id, owner.id))
    .orderBy(asc(memberCollectionProjects.position), asc(memberCollectionProjects.projectId));
  return { collection: collection!, projects: ids.map((entry) => entry.id) };
}

async function touch(tx: Tx, id: number): Promise<void> {
  await tx.update(memberCollections).set({ updatedAt: new Date() }).where(eq(memberCollections.id, id));
}

/**
 * Runs a write on one's own collection and purges the member's cached pages after it committed;
 * `appeared` tells whether guests may now read a collection they could not before.
 */
async function writeOwn<T>(userId: number, write: (tx: Tx, owner: Owner) => Promise<T>, appeared: (result: T) => boolean = () => false): Promise<T> {
  const result = await getDb().transaction(async (tx) => write(tx, await ownerById(tx, userId)));
  await purgeMemberCollectionPages(userId, { appeared: appeared(result) });
  return result;
}

/**
 * `collection/save`: without `slug`, creates a collection (its slug made from the title, numbered
 * when the member already has one by that name; at most `MAX_COLLECTIONS`); with `slug`, edits
 * one's own (title, description, public or private; the slug, its address, stays).
 */
export function saveMemberCollection(userId: number, input: CollectionSaveInput): Promise<MemberCollection> {
  return writeOwn(
    userId,
    async (tx, owner) => {
      const values = {
        title: input.title,
        description: input.description,
        isPublic: input.public,
        updatedAt: new Date(),
      };
      let id: number;
      if (input.slug !== undefined) {
        id = (await lockOwnCollection(tx, userId, input.slug)).id;
        await tx.update(memberCollections).set(values).where(eq(memberCollections.id, id));
      } else {
        // The member's row is the lock that keeps two creations from both passing the limit or taking one slug.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const [existing] = await tx.select({ n: countRows() }).from(memberCollections).where(eq(memberCollections.ownerId, userId));
        if ((existing?.n ?? 0) >= MAX_COLLECTIONS) throw new AppError('collection_limit');
        const slug = await freeSlug(tx, userId, slugify(input.title, 'collection'));
        const [row] = await tx
          .insert(memberCollections)
          .values({ ...values, ownerId: userId, slug })
          .returning({ id: memberCollections.id });
        id = row!.id;
      }
      const [saved] = await readCollections(tx, owner, owner.id, eq(memberCollections.id, id));
      return saved!;
    },
    (saved) => saved.public,
  );
}

/**
 * `collection/add`: puts a published project at the end of one's own collection. A project the
 * member cannot open (deleted, hidden) is `project_not_found`; one already there is refused.
 */
export function addToMemberCollection(userId: number, slug: string, publicId: string): Promise<CollectionChange> {
  return writeOwn(userId, async (tx, owner) => {
    const row = await lockOwnCollection(tx, userId, slug);
    const project = await findPublishedProject(publicId, userId, tx);
    const [stats] = await tx
      .select({ n: countRows(), last: max(memberCollectionProjects.position) })
      .from(memberCollectionProjects)
      .where(eq(memberCollectionProjects.collectionId, row.id));
    if ((stats?.n ?? 0) >= MAX_COLLECTION_PROJECTS) throw new AppError('collection_full');
    const added = await tx
      .insert(memberCollectionProjects)
      .values({
        collectionId: row.id,
        projectId: project.id,
        position: (stats?.last ?? -1) + 1,
      })
      .onConflictDoNothing()
      .returning({ projectId: memberCollectionProjects.projectId });
    if (added.length === 0) throw new AppError('collection_project_duplicate');
    await touch(tx, row.id);
    return changeOf(tx, owner, row);
  });
}

/** The project's row in the collection (by public id), or `project_not_found` when it is not in it. */
async function entryOf(tx: Tx, collectionId: number, publicId: string): Promise<number> {
  const [entry] = await tx
    .select({ projectId: memberCollectionProjects.projectId })
    .from(memberCollectionProjects)
    .innerJoin(projects, eq(projects.id, memberCollectionProjects.projectId))
    .where(and(eq(memberCollectionProjects.collectionId, collectionId), eq(projects.publicId, publicId)))
    .limit(1);
  if (!entry) throw new AppError('project_not_found');
  return entry.projectId;
}

/** `collection/remove`: takes a project out of one's own collection. */
export function removeFromMemberCollection(userId: number, slug: string, publicId: string): Promise<CollectionChange> {
  return writeOwn(userId, async (tx, owner) => {
    const row = await lockOwnCollection(tx, userId, slug);
    const projectId = await entryOf(tx, row.id, publicId);
    await tx.delete(memberCollectionProjects).where(and(eq(memberCollectionProjects.collectionId, row.id), eq(memberCollectionProjects.projectId, projectId)));
    await touch(tx, row.id);
    return changeOf(tx, owner, row);
  });
}

/**
 * `collection/move`: puts a project at `position` (0 first) among the projects the owner sees;
 * past the end is last. Projects the owner cannot see any more (hidden since) keep their place
 * relative to the others.
 */
export function moveInMemberCollection(userId: number, slug: string, publicId: string, position: number): Promise<CollectionChange> {
  return writeOwn(userId, async (tx, owner) => {
    const row = await lockOwnCollection(tx, userId, slug);
    const projectId = await entryOf(tx, row.id, publicId);
    const all = await tx
      .select({
        projectId: memberCollectionProjects.projectId,
        visible: sql<boolean>`${isPublishedFor(userId)}`,
      })
      .from(memberCollectionProjects)
      .innerJoin(projects, eq(projects.id, memberCollectionProjects.projectId))
      .where(eq(memberCollectionProjects.collectionId, row.id))
      .orderBy(asc(memberCollectionProjects.position), asc(memberCollectionProjects.projectId));
    const rest = all.filter((entry) => entry.projectId !== projectId);
    const anchor = rest.filter((entry) => entry.visible)[position];
    const order = rest.map((entry) => entry.projectId);
    order.splice(anchor ? order.indexOf(anchor.projectId) : order.length, 0, projectId);
    for (const [index, id] of order.entries()) {
      await tx
        .update(memberCollectionProjects)
        .set({ position: index })
        .where(
          and(
            eq(memberCollectionProjects.collectionId, row.id),
            eq(memberCollectionProjects.projectId, id),
            sql`${memberCollectionProjects.position} <> ${index}`,
          ),
        );
    }
    await touch(tx, row.id);
    return changeOf(tx, owner, row);
  });
}

/** `collection/del`: deletes one's own collection (its projects stay as they are). */
export function deleteMemberCollection(userId: number, slug: string): Promise<{ slug: string }> {
  return writeOwn(userId, async (tx) => {
    const row = await lockOwnCollection(tx, userId, slug);
    await tx.delete(memberCollections).where(eq(memberCollections.id, row.id));
    return { slug: row.slug };
  });
}

/**
 * `collection/list` and the collections tab: a member's collections, most recently changed
 * first; the private ones only for their owner. With `project`, each says whether it holds it
 * (the "Save to collection" menu).
 */
export async function listMemberCollections(
  url: string,
  viewerId: number | null,
  options: { project?: string | undefined } = {},
): Promise<{ list: MemberCollection[]; isOwner: boolean }> {
  return listCollectionsOf(await getPublicUser(url, viewerId), viewerId, options);
}

/** `listMemberCollections` of a member already read (the collections tab has them from its banner). */
export async function listCollectionsOf(
  owner: Owner,
  viewerId: number | null,
  options: { project?: string | undefined } = {},
): Promise<{ list: MemberCollection[]; isOwner: boolean }> {
  const isOwner = viewerId === owner.id;
  const list = await readCollections(getDb(), owner, viewerId, isOwner ? sql`true` : eq(memberCollections.isPublic, true), options.project);
  return { list, isOwner };
}

/**
 * `collection/get` and the collection's page: one collection and a page of its projects (cards,
 * in the owner's order). Someone else's private collection is `collection_not_found`.
 */
export async function getMemberCollection(
  owner: { id: number; url: string; nickname: string; avatar: string | null },
  slug: string,
  viewerId: number | null,
  paging: Paging,
  locale: Locale,
): Promise<CollectionPage> {
  const db = getDb();
  const isOwner = viewerId === owner.id;
  const [found] = await readCollectionRows(
    db,
    owner,
    viewerId,
    and(eq(memberCollections.slug, slug), isOwner ? undefined : eq(memberCollections.isPublic, true))!,
  );
  if (!found) throw new AppError('collection_not_found');
  const { collection } = found;
  const rows = await db
    .select({ ...cardColumns, tags: cardTags })
    .from(memberCollectionProjects)
    .innerJoin(projects, eq(projects.id, memberCollectionProjects.projectId))
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(visibleIn(found.id, viewerId))
    .orderBy(asc(memberCollectionProjects.position), asc(memberCollectionProjects.projectId))
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize);
  return {
    collection,
    isOwner,
    projects: {
      list: await toCards(rows, locale),
      total: collection.projectCount,
      page: paging.page,
      pageSize: paging.pageSize,
    },
  };
}

/** `collection/get` by the member's URL (a former URL too). */
export async function getMemberCollectionByUrl(url: string, slug: string, viewerId: number | null, paging: Paging, locale: Locale): Promise<CollectionPage> {
  const user = await getPublicUser(url, viewerId);
  return getMemberCollection(user, slug, viewerId, paging, locale);
}

/** Every project of one's own collection, in order, as the owner's organiser lists them (at most `MAX_COLLECTION_PROJECTS`). */
export async function listOwnCollectionEntries(userId: number, slug: string): Promise<{ id: string; title: string }[]> {
  const [row] = await getDb()
    .select({ id: memberCollections.id })
    .from(memberCollections)
    .where(and(eq(memberCollections.ownerId, userId), eq(memberCollections.slug, slug)))
    .limit(1);
  if (!row) throw new AppError('collection_not_found');
  return getDb()
    .select({ id: projects.publicId, title: projects.title })
    .from(memberCollectionProjects)
    .innerJoin(projects, eq(projects.id, memberCollectionProjects.projectId))
    .where(visibleIn(row.id, userId))
    .orderBy(asc(memberCollectionProjects.position), asc(memberCollectionProjects.projectId));
}
