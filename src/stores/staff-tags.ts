import { isSlug } from '../lib/slug.ts';
import type { StaffTag } from '../lib/contract/schemas/staff.ts';
import { say, warn } from '../lib/notice.ts';
import { createStaffList } from './staff-list.ts';

type Change = { item: StaffTag };

/** A tag's slug by the server's rule (`src/lib/slug.ts`). */
export const isTagSlug = isSlug;

/** Top-level tags of the tree a tag may move under: not itself, and none at all for a tag with children. */
export function parentChoices(tags: readonly StaffTag[], slug: string): StaffTag[] {
  if (tags.some((tag) => tag.parent === slug)) return [];
  return tags.filter((tag) => tag.curated && tag.parent === null && tag.slug !== slug);
}

/**
 * The tree after a change: the changed tag replaced (or added), a merged tag gone and its
 * children under its new parent. The server's answer names the changed tag; the rest of the
 * tree is reloaded on the next visit.
 */
export function applyTagChange(tags: readonly StaffTag[], item: StaffTag, merged?: { from: string; childrenTo: string }): StaffTag[] {
  let next = tags.filter((tag) => tag.slug !== merged?.from);
  if (merged) next = next.map((tag) => (tag.parent === merged.from ? { ...tag, parent: merged.childrenTo } : tag));
  next = next.some((tag) => tag.id === item.id) ? next.map((tag) => (tag.id === item.id ? item : tag)) : [...next, item];
  // Top-level tags each followed by their children, then members' tags outside the tree, as the server lists them.
  const roots = next.filter((tag) => tag.curated && tag.parent === null);
  return [...roots.flatMap((root) => [root, ...next.filter((tag) => tag.parent === root.slug)]), ...next.filter((tag) => !tag.curated)];
}

/** `/admin/tags`: add a tag, rename it in both languages, move it, merge it into another. */
export function createTagEditor(tags: StaffTag[]) {
  const list = createStaffList(tags);

  function create(input: { slug: string; nameEn: string; nameZh: string; parent: string | null }): Promise<boolean> {
    const problems: Record<string, string> = {};
    if (!isTagSlug(input.slug)) problems.slug = input.slug.trim() ? 'slug' : 'required';
    if (!input.nameEn.trim()) problems.nameEn = 'required';
    if (!input.nameZh.trim()) problems.nameZh = 'required';
    if (Object.keys(problems).length > 0) {
      list.tell(warn('admin.fixErrors'), problems);
      return Promise.resolve(false);
    }
    const body = { slug: input.slug.trim().toLowerCase(), nameEn: input.nameEn.trim(), nameZh: input.nameZh.trim(), parent: input.parent };
    return list.run<Change>('tag/create', body, ({ item }, items) => applyTagChange(items, item), say('admin.tags.added', { slug: body.slug }));
  }

  function rename(slug: string, nameEn: string, nameZh: string): Promise<boolean> {
    if (!nameEn.trim() || !nameZh.trim()) {
      list.tell(warn('admin.fixErrors'), { [nameEn.trim() ? 'nameZh' : 'nameEn']: 'required' });
      return Promise.resolve(false);
    }
    return list.run<Change>('tag/rename', { slug, nameEn: nameEn.trim(), nameZh: nameZh.trim() }, ({ item }, items) => applyTagChange(items, item), say('admin.tags.renamed', { slug }));
  }

  function move(slug: string, parent: string | null): Promise<boolean> {
    return list.run<Change>('tag/move', { slug, parent }, ({ item }, items) => applyTagChange(items, item), say('admin.tags.moved', { slug }));
  }

  function merge(from: string, into: string): Promise<boolean> {
    if (from === into) {
      list.tell(warn('admin.fixErrors'), { into: 'tag_merge_self' });
      return Promise.resolve(false);
    }
    return list.run<Change>(
      'tag/merge',
      { from, into },
      ({ item }, items) => applyTagChange(items, item, { from, childrenTo: item.parent ?? item.slug }),
      say('admin.tags.merged', { from, into }),
    );
  }

  return { $list: list.$list, create, rename, move, merge };
}
