/**
 * Staff tools: the two-level tag tree. Tags are named by slug (their address, `/newest?tag=`);
 * add, rename per language, move under another top-level tag (or to the top), and merge one tag
 * into another: its projects move over without duplicates, it is deleted, and its slug stays an
 * alias that leads to the tag that took over. Every write goes through `staffWrite`.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../../db/client.ts';
import { projectTags, tagAliases, tags } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { pageTags } from '../../page-cache/tags.ts';
import type { StaffTag } from '../../../lib/contract/schemas/staff.ts';
import { staffWrite, type StaffActor } from './staff-writes.ts';
import { sendJob } from '../../jobs/queue.ts';
import { log } from '../../log.ts';

type Reader = Pick<Tx, 'select'>;

/** Every tag, top-level ones each followed by their children, with project counts and aliases. */
export async function listStaffTags(db: Reader = getDb()): Promise<StaffTag[]> {
  // One after another: inside a write's transaction they share one connection.
  const rows = await db.select().from(tags).orderBy(asc(tags.sort), asc(tags.slug));
  const counts = await db.select({ tagId: projectTags.tagId, n: sql<number>`count(*)::int` }).from(projectTags).groupBy(projectTags.tagId);
  const aliases = await db.select().from(tagAliases).orderBy(asc(tagAliases.slug));
  const slugOf = new Map(rows.map((row) => [row.id, row.slug]));
  const toStaff = (row: (typeof rows)[number]): StaffTag => ({
    id: row.id,
    slug: row.slug,
    nameEn: row.nameEn,
    nameZh: row.nameZh,
    parent: row.parentId === null ? null : (slugOf.get(row.parentId) ?? null),
    curated: row.curated,
    projectCount: counts.find((entry) => entry.tagId === row.id)?.n ?? 0,
    aliases: aliases.filter((alias) => alias.tagId === row.id).map((alias) => alias.slug),
  });
  // Members' tags outside the tree come last, newest first, for staff to translate or place.
  const tree = rows.filter((row) => row.curated);
  const outside = rows.filter((row) => !row.curated).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.slug.localeCompare(b.slug));
  return [...tree.filter((row) => row.parentId === null).flatMap((root) => [toStaff(root), ...tree.filter((row) => row.parentId === root.id).map(toStaff)]), ...outside.map(toStaff)];
}

/** The slug a merged tag had now leads to this one: the slug of the tag that took it over, or null. */
export async function tagForAlias(slug: string): Promise<string | null> {
  const [row] = await getDb().select({ slug: tags.slug }).from(tagAliases).innerJoin(tags, eq(tags.id, tagAliases.tagId)).where(eq(tagAliases.slug, slug)).limit(1);
  return row?.slug ?? null;
}

async function tagBySlug(tx: Tx, slug: string) {
  const [row] = await tx.select().from(tags).where(eq(tags.slug, slug)).for('update').limit(1);
  if (!row) throw new AppError('tag_not_found');
  return row;
}

/**
 * The parent a tag may go under: a top-level tag other than itself. Children of children would
 * leave the two-level tree, and a tag under itself or its own child would be a cycle.
 */
async function checkedParent(tx: Tx, parentSlug: string | null, tag?: { id: number }): Promise<number | null> {
  if (parentSlug === null) return null;
  const parent = await tagBySlug(tx, parentSlug).catch((error: unknown) => {
    throw error instanceof AppError ? new AppError('validation', { parent: 'unknown_tag' }) : error;
  });
  if (tag && (parent.id === tag.id || parent.parentId === tag.id)) throw new AppError('validation', { parent: 'tag_cycle' });
  if (parent.parentId !== null) throw new AppError('validation', { parent: 'tag_depth' });
  // A member's tag outside the tree has no place in it to hang children from until staff place it.
  if (!parent.curated) throw new AppError('validation', { parent: 'tag_not_in_tree' });
  if (tag) {
    const [child] = await tx.select({ id: tags.id }).from(tags).where(eq(tags.parentId, tag.id)).limit(1);
    if (child) throw new AppError('validation', { parent: 'tag_depth' });
  }
  return parent.id;
}

async function slugFree(tx: Tx, slug: string): Promise<void> {
  const [tag] = await tx.select({ id: tags.id }).from(tags).where(eq(tags.slug, slug)).limit(1);
  const [alias] = await tx.select({ slug: tagAliases.slug }).from(tagAliases).where(eq(tagAliases.slug, slug)).limit(1);
  if (tag || alias) throw new AppError('validation', { slug: 'slug_taken' });
}

// A tag change shows on every list with tag chips, the tag pages, and "not found" answers.
const purge = [pageTags.lists, pageTags.missing];

/** Adds a tag, at the top or under a top-level tag, last among its siblings. */
export function createTag(actor: StaffActor, input: { slug: string; nameEn: string; nameZh: string; parent: string | null }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'tag.create', actor, dryRun: options.dryRun, purge }, async (tx) => {
    await slugFree(tx, input.slug);
    const parentId = await checkedParent(tx, input.parent);
    const [last] = await tx
      .select({ sort: sql<number>`coalesce(max(${tags.sort}), -1)::int` })
      .from(tags)
      .where(parentId === null ? sql`${tags.parentId} IS NULL` : eq(tags.parentId, parentId));
    await tx.insert(tags).values({ slug: input.slug, nameEn: input.nameEn, nameZh: input.nameZh, parentId, sort: (last?.sort ?? -1) + 1 });
    return { summary: `tag ${input.slug} added${input.parent ? ` under ${input.parent}` : ''}`, item: await staffTag(tx, input.slug) };
  });
}

async function staffTag(db: Reader, slug: string): Promise<StaffTag> {
  return (await listStaffTags(db)).find((tag) => tag.slug === slug)!;
}

/**
 * Projects are found by their tags' names in both languages, kept in their search text: after a
 * tag's names change (renamed, translated, another merged into it) the job queue writes its
 * projects' search text again. A send that fails is logged; the write stands.
 */
async function refreshSearchTextOf(tagId: number, dryRun: boolean | undefined): Promise<void> {
  if (dryRun) return;
  await sendJob('searchText', { tagId }, `search-text:${tagId}`).catch((error: unknown) => log.error({ component: 'tags', tagId, err: error }, 'search text refresh not queued'));
}

/** Renames a tag in both languages (its slug, its address, stays); its projects are then found by the new names. */
export async function renameTag(actor: StaffActor, input: { slug: string; nameEn: string; nameZh: string }, options: { dryRun?: boolean } = {}) {
  const renamed = await staffWrite({ action: 'tag.rename', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const tag = await tagBySlug(tx, input.slug);
    await tx.update(tags).set({ nameEn: input.nameEn, nameZh: input.nameZh }).where(eq(tags.id, tag.id));
    return { summary: `tag ${input.slug} renamed from "${tag.nameEn}" / "${tag.nameZh}" to "${input.nameEn}" / "${input.nameZh}"`, item: await staffTag(tx, input.slug) };
  });
  await refreshSearchTextOf(renamed.item.id, options.dryRun);
  return renamed;
}

/** Moves a tag under another top-level tag, or to the top (`parent` null); a member's tag so joins the tree. */
export function moveTag(actor: StaffActor, input: { slug: string; parent: string | null }, options: { dryRun?: boolean } = {}) {
  return staffWrite({ action: 'tag.move', actor, dryRun: options.dryRun, purge }, async (tx) => {
    const tag = await tagBySlug(tx, input.slug);
    const parentId = await checkedParent(tx, input.parent, tag);
    await tx.update(tags).set({ parentId, curated: true }).where(eq(tags.id, tag.id));
    return { summary: `tag ${input.slug} moved ${input.parent ? `under ${input.parent}` : 'to the top'}`, item: await staffTag(tx, input.slug) };
  });
}

/**
 * Merges tag `from` into `into`: every project tagged `from` is tagged `into` (once), `from`'s
 * children move under `into` when it is top-level (else to `from`'s parent), `from` is deleted and
 * its slug (and its own aliases) become aliases of `into`.
 */
export async function mergeTags(actor: StaffActor, input: { from: string; into: string }, options: { dryRun?: boolean } = {}) {
  const merged = await staffWrite({ action: 'tag.merge', actor, dryRun: options.dryRun, purge }, async (tx) => {
    if (input.from === input.into) throw new AppError('validation', { into: 'tag_merge_self' });
    const from = await tagBySlug(tx, input.from);
    const into = await tagBySlug(tx, input.into);
    if (into.parentId === from.id) throw new AppError('validation', { into: 'tag_cycle' });
    const moved = await tx.execute<{ project_id: number }>(sql`
      INSERT INTO project_tags (project_id, tag_id)
      SELECT project_id, ${into.id} FROM project_tags WHERE tag_id = ${from.id}
      ON CONFLICT DO NOTHING RETURNING project_id`);
    const children = await tx.select({ id: tags.id }).from(tags).where(eq(tags.parentId, from.id));
    if (children.length > 0) {
      await tx
        .update(tags)
        .set({ parentId: into.parentId === null ? into.id : into.parentId })
        .where(
          inArray(
            tags.id,
            children.map((child) => child.id),
          ),
        );
    }
    await tx.update(tagAliases).set({ tagId: into.id }).where(eq(tagAliases.tagId, from.id));
    await tx.insert(tagAliases).values({ slug: from.slug, tagId: into.id });
    // Deleting the tag deletes its project_tags rows (cascade): they were copied above.
    await tx.delete(tags).where(eq(tags.id, from.id));
    return { summary: `tag ${from.slug} merged into ${into.slug}: ${moved.rowCount ?? moved.rows.length} projects newly tagged ${into.slug}`, item: await staffTag(tx, into.slug) };
  });
  // The merged tag's projects are now found by the names of the tag that took them over.
  await refreshSearchTextOf(merged.item.id, options.dryRun);
  return merged;
}
