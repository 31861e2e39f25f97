import type { Executor } from '../db/client.ts';
import { tags } from '../db/schema/index.ts';
import type { TagParentSeed } from './demo-content.ts';


export interface SeededTag {
  id: number;
  nameEn: string;
  nameZh: string;
}

/**
 * Makes sure the tag tree exists and returns every tag by slug, with both names (for search
 * text). By default tags of `tree` missing by slug are added (an operator's own tags are kept);
 * with `onlyIfEmpty` the tree is inserted only into an empty tags table. Shared by the demo and
 * the synthetic generator.
 */
export async function ensureTagTree(
  db: Executor,
  tree: TagParentSeed[],
  options: { onlyIfEmpty?: boolean } = {},
): Promise<Map<string, SeededTag>> {
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
