/**
 * Staff tools: curated collections (`/collection/<name>`): titles and descriptions per language,
 * a cover, whether the home page features it, and its projects in order. Every write goes
 * through `staffWrite`.
 */
import { and, asc, eq, inArray, max, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { getDb, type Tx } from '../../db/client.ts';
import { collectionProjects, collections, projects } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { pageTags } from '../../page-cache/tags.ts';
import type { collectionSaveInputSchema, StaffCollection } from '../../../lib/contract/schemas/staff.ts';
import { findImageUpload, findOwnImageUpload } from '../media/index.ts';
import type { OperatorImage } from './banners.ts';
import { staffWrite, type StaffActor } from './staff-writes.ts';
import { publishedProjectById } from '../core/index.ts';

type Reader = Pick<Tx, 'select'>;

async function projectsOf(db: Reader, collectionIds: number[]) {
  if (collectionIds.length === 0) return [];
  return db
    .select({ collectionId: collectionProjects.collectionId, id: projects.publicId, title: projects.title, status: projects.status })
    .from(collectionProjects)
    .innerJoin(projects, eq(projects.id, collectionProjects.projectId))
    .where(inArray(collectionProjects.collectionId, collectionIds))
    .orderBy(asc(collectionProjects.position), asc(projects.id));
}

/** Every collection with its projects in order (any state: staff see drafts they would hide). */
export async function listStaffCollections(db: Reader = getDb()): Promise<StaffCollection[]> {
  const rows = await db.select().from(collections).orderBy(asc(collections.sort), asc(collections.id));
  const members = await projectsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    titleEn: row.titleEn,
    titleZh: row.titleZh,
    descriptionEn: row.descriptionEn,
    descriptionZh: row.descriptionZh,
    cover: row.cover,
    featured: row.featured,
    sort: row.sort,
    projects: members.filter((member) => member.collectionId === row.id).map(({ id, title, status }) => ({ id, title, status })),
  }));
}

async function staffCollection(db: Reader, name: string): Promise<StaffCollection> {
  const found = (await listStaffCollections(db)).find((collection) => collection.name === name);
  if (!found) throw new AppError('collection_not_found');
  return found;
}

async function collectionId(tx: Tx, name: string): Promise<number> {
  const [row] = await tx.select({ id: collections.id }).from(collections).where(eq(collections.name, name)).for('update').limit(1);
  if (!row) throw new AppError('collection_not_found');
  return row.id;
}

async function coverUrl(actor: StaffActor, ref: string | null): Promise<string | null> {
  if (ref === null) return null;
  const upload = actor.kind === 'member' ? await findOwnImageUpload(actor.user!.id, ref, ['cover', 'image']) : await findImageUpload(ref);
  if (!upload) throw new AppError('validation', { cover: 'upload_invalid' });
  return upload.url;
}

const purge = [pageTags.lists, pageTags.home, pageTags.missing];

/** Creates a collection (no `id`) or saves one's fields; its name is its address and must be free. */
export function saveCollection(actor: StaffActor, input: z.output<typeof collectionSaveInputSchema>, options: { dryRun?: boolean } & OperatorImage = {}) {
  return staffWrite({ action: 'collection.save', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const [taken] = await tx
      .select({ id: collections.id })
      .from(collections)
      .where(input.id === undefined ? eq(collections.name, input.name) : and(eq(collections.name, input.name), ne(collections.id, input.id)))
      .limit(1);
    if (taken) throw new AppError('validation', { name: 'slug_taken' });
    // A cover already stored on this collection may be sent back as it is.
    let cover: string | null;
    if (options.image) cover = await options.image();
    else if (input.id !== undefined && input.cover !== null) {
      const [current] = await tx.select({ cover: collections.cover }).from(collections).where(eq(collections.id, input.id)).limit(1);
      cover = current?.cover === input.cover ? input.cover : await coverUrl(actor, input.cover);
    } else cover = await coverUrl(actor, input.cover);
    const values = {
      name: input.name,
      titleEn: input.titleEn,
      titleZh: input.titleZh,
      descriptionEn: input.descriptionEn,
      descriptionZh: input.descriptionZh,
      cover,
      featured: input.featured,
      sort: input.sort,
    };
    if (input.id === undefined) {
      await tx.insert(collections).values(values);
      return { summary: `collection ${input.name} created`, item: await staffCollection(tx, input.name) };
    }
    const [row] = await tx.update(collections).set(values).where(eq(collections.id, input.id)).returning({ id: collections.id });
    if (!row) throw new AppError('collection_not_found');
    return { summary: `collection ${input.name} saved`, item: await staffCollection(tx, input.name) };
  });
}

/** Deletes a collection (its projects stay as they are). */
export function deleteCollection(actor: StaffActor, input: { name: string }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'collection.delete', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const id = await collectionId(tx, input.name);
    await tx.delete(collections).where(eq(collections.id, id));
    return { summary: `collection ${input.name} deleted` };
  });
}

/** Adds a published project at the end of a collection; one already there is refused. */
export function addProjectToCollection(actor: StaffActor, input: { name: string; project: string }, options: { dryRun?: boolean } = {}) {
  return addProjectsToCollection(actor, { name: input.name, projects: [input.project] }, options);
}

/**
 * Adds published projects at the end of a collection in the order given, all or none: an
 * unknown project, or one already there, refuses them all.
 */
export function addProjectsToCollection(actor: StaffActor, input: { name: string; projects: string[] }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'collection.addProject', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const id = await collectionId(tx, input.name);
    const titles: string[] = [];
    for (const publicId of input.projects) {
      const [project] = await tx
        .select({ id: projects.id, title: projects.title })
        .from(projects)
        .where(publishedProjectById(publicId, 'published'))
        .limit(1);
      if (!project) throw new AppError('project_not_found');
      const [last] = await tx.select({ position: max(collectionProjects.position) }).from(collectionProjects).where(eq(collectionProjects.collectionId, id));
      const added = await tx
        .insert(collectionProjects)
        .values({ collectionId: id, projectId: project.id, position: (last?.position ?? -1) + 1 })
        .onConflictDoNothing()
        .returning({ projectId: collectionProjects.projectId });
      if (added.length === 0) throw new AppError('validation', { project: 'duplicate' });
      titles.push(`"${project.title}"`);
    }
    return { summary: `${titles.join(', ')} added to ${input.name}`, item: await staffCollection(tx, input.name) };
  });
}

/** Takes a project out of a collection. */
export function removeProjectFromCollection(actor: StaffActor, input: { name: string; project: string }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'collection.removeProject', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const id = await collectionId(tx, input.name);
    const [project] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.publicId, input.project)).limit(1);
    const removed = project
      ? await tx
          .delete(collectionProjects)
          .where(and(eq(collectionProjects.collectionId, id), eq(collectionProjects.projectId, project.id)))
          .returning({ projectId: collectionProjects.projectId })
      : [];
    if (removed.length === 0) throw new AppError('validation', { project: 'not_in_collection' });
    return { summary: `${input.project} removed from ${input.name}`, item: await staffCollection(tx, input.name) };
  });
}

/** Puts a collection's projects in a new order: `projects` must name each of them once. */
export function reorderCollection(actor: StaffActor, input: { name: string; projects: string[] }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'collection.reorder', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const id = await collectionId(tx, input.name);
    const members = await tx
      .select({ projectId: collectionProjects.projectId, id: projects.publicId })
      .from(collectionProjects)
      .innerJoin(projects, eq(projects.id, collectionProjects.projectId))
      .where(eq(collectionProjects.collectionId, id));
    const byId = new Map(members.map((member) => [member.id, member.projectId]));
    const same = input.projects.length === members.length && new Set(input.projects).size === members.length && input.projects.every((project) => byId.has(project));
    if (!same) throw new AppError('validation', { projects: 'reorder_mismatch' });
    for (const [position, project] of input.projects.entries()) {
      await tx
        .update(collectionProjects)
        .set({ position })
        .where(and(eq(collectionProjects.collectionId, id), eq(collectionProjects.projectId, byId.get(project)!)));
    }
    return { summary: `${members.length} projects of ${input.name} reordered`, item: await staffCollection(tx, input.name) };
  });
}
