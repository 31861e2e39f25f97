/**
 * Tags that members add when they publish. The form sends chosen tags as slugs and typed ones as
 * `{ name }`; a typed name that is already a tag (its slug, a merged tag's alias, or either of its
 * names) uses that tag, so the same name twice never makes two tags. The rest are created inside
 * the publishing transaction, outside the staff tree, so a failed publication leaves none behind.
 */
import { inArray, or, sql } from 'drizzle-orm';
import { cleanTagName, tagNameProblem, tagSlugOf, type TagNameProblem } from '../../../lib/tag-names.ts';
import { getDb, type Tx } from '../../db/client.ts';
import { tagAliases, tags } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { hitMemberRateLimitById } from '../core/index.ts';

/** A tag as content names it: the slug of an existing tag, or the name of a new one. */
export type TagEntry = string | { name: string };

export interface TagRow {
  id: number;
  slug: string;
  nameEn: string;
  nameZh: string;
}

/** A tag publishing will create: its slug and the name as typed (cleaned). */
export interface NewTag {
  slug: string;
  name: string;
}

export interface PlannedTags {
  /** Existing tags, in the order given. */
  rows: TagRow[];
  /** Tags to create when publishing. */
  created: NewTag[];
  /** What a draft keeps: slugs of existing tags, `{ name }` of new ones, without duplicates. */
  entries: TagEntry[];
}

/**
 * Resolves the tags of content: slugs to existing tags (a merged tag's old slug to the tag that
 * took it over), names to existing tags or new ones. Throws `AppError('validation', { tags })`
 * for an unknown slug or a name that cannot be a tag.
 */
export async function planTags(entries: TagEntry[]): Promise<PlannedTags> {
  if (entries.length === 0) return { rows: [], created: [], entries: [] };
  const slugs = entries.filter((entry): entry is string => typeof entry === 'string');
  // No tag's slug holds control characters, and PostgreSQL's text refuses NUL: unknown without asking.
  if (slugs.some((slug) => /[\u0000-\u001F\u007F]/.test(slug))) throw new AppError('validation', { tags: 'unknown_tag' });
  const names = entries.flatMap((entry) => (typeof entry === 'string' ? [] : [cleanTagName(entry.name)]));
  const problem = names.map((name) => tagNameProblem(name)).find((found): found is TagNameProblem => found !== null);
  if (problem) throw new AppError('validation', { tags: problem });
  const nameSlugs = names.map((name) => tagSlugOf(name));
  const lowerNames = names.map((name) => name.toLowerCase());
  const keys = [...new Set([...slugs, ...nameSlugs])];
  const db = getDb();
  const [rows, aliases] = await Promise.all([
    db
      .select({ id: tags.id, slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh })
      .from(tags)
      .where(
        or(
          inArray(tags.slug, keys),
          lowerNames.length ? inArray(sql<string>`lower(${tags.nameEn})`, lowerNames) : undefined,
          lowerNames.length ? inArray(sql<string>`lower(${tags.nameZh})`, lowerNames) : undefined,
        ),
      ),
    db
      .select({ alias: tagAliases.slug, id: tags.id, slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh })
      .from(tagAliases)
      .innerJoin(tags, sql`${tags.id} = ${tagAliases.tagId}`)
      .where(inArray(tagAliases.slug, keys)),
  ]);
  const bySlug = (slug: string): TagRow | undefined => {
    const row = rows.find((candidate) => candidate.slug === slug) ?? aliases.find((candidate) => candidate.alias === slug);
    return row && { id: row.id, slug: row.slug, nameEn: row.nameEn, nameZh: row.nameZh };
  };
  const byName = (name: string): TagRow | undefined => {
    const lower = name.toLowerCase();
    return rows.find((row) => row.nameEn.toLowerCase() === lower || row.nameZh.toLowerCase() === lower);
  };

  const plan: PlannedTags = { rows: [], created: [], entries: [] };
  const seen = new Set<string>();
  for (const entry of entries) {
    let row: TagRow | undefined;
    let created: NewTag | undefined;
    if (typeof entry === 'string') {
      row = bySlug(entry);
      if (!row) throw new AppError('validation', { tags: 'unknown_tag' });
    } else {
      const name = cleanTagName(entry.name);
      const slug = tagSlugOf(name);
      row = bySlug(slug) ?? byName(name);
      if (!row) created = { slug, name };
    }
    const slug = row?.slug ?? created!.slug;
    if (seen.has(slug)) continue;
    seen.add(slug);
    if (row) {
      plan.rows.push(row);
      plan.entries.push(row.slug);
    } else {
      plan.created.push(created!);
      plan.entries.push({ name: created!.name });
    }
  }
  return plan;
}

/**
 * Counts the new tags of a publication against the member's daily allowance (`tag:create`),
 * before anything is written; past it, the tags field says so and nothing is published.
 */
export async function checkNewTagAllowance(userId: number, created: NewTag[]): Promise<void> {
  try {
    for (let count = 0; count < created.length; count += 1) await hitMemberRateLimitById('tag:create', userId);
  } catch (error) {
    if (error instanceof AppError && error.errorKey === 'rate_limited') throw new AppError('validation', { tags: 'new_tags_limit' });
    throw error;
  }
}

/**
 * Creates the planned new tags inside the publishing transaction `tx` (a tag someone else
 * created meanwhile under the same slug is used instead) and answers every tag's row.
 */
export async function createMemberTags(tx: Tx, userId: number, planned: Pick<PlannedTags, 'rows' | 'created'>): Promise<TagRow[]> {
  if (planned.created.length === 0) return planned.rows;
  const columns = { id: tags.id, slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh };
  await tx
    .insert(tags)
    .values(planned.created.map((tag) => ({ slug: tag.slug, nameEn: tag.name, nameZh: tag.name, curated: false, createdBy: userId })))
    .onConflictDoNothing({ target: tags.slug });
  const made = await tx
    .select(columns)
    .from(tags)
    .where(
      inArray(
        tags.slug,
        planned.created.map((tag) => tag.slug),
      ),
    );
  return [...planned.rows, ...made.filter((row) => !planned.rows.some((existing) => existing.id === row.id))];
}
