import { isSlug } from '../lib/slug.ts';
import type { StaffCollection } from '../lib/contract/schemas/staff.ts';
import { say, warn } from '../lib/notice.ts';
import { createStaffImageForm, withItem } from './staff-image-form.ts';
import { createStaffList, moveItem, projectIdFrom } from './staff-list.ts';

/** Collection covers are cropped to the cards' shape. */
export const COVER_ASPECT = 4 / 3;

/** The form that creates a collection or edits one. */
export interface CollectionForm {
  /** The collection being edited; null: a new one. */
  id: number | null;
  /** Its address; kept as it is while editing, since banners and links point at it. */
  name: string;
  titleEn: string;
  titleZh: string;
  descriptionEn: string;
  descriptionZh: string;
  cover: string | null;
  featured: boolean;
  /** Not on the form: sent back as it was, so saving an edit keeps the collection's place. */
  sort: number;
}

export const EMPTY_COLLECTION: CollectionForm = { id: null, name: '', titleEn: '', titleZh: '', descriptionEn: '', descriptionZh: '', cover: null, featured: true, sort: 0 };

/** The server's limits on a collection's texts. */
export const COLLECTION_TITLE_MAX = 120;
export const COLLECTION_DESCRIPTION_MAX = 500;

/** A collection's name by the server's rule: its address (`src/lib/slug.ts`). */
export const isCollectionName = isSlug;

export function collectionProblems(form: CollectionForm): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!form.name.trim()) problems.name = 'required';
  else if (!isCollectionName(form.name)) problems.name = 'slug';
  for (const field of ['titleEn', 'titleZh'] as const) {
    if (!form[field].trim()) problems[field] = 'required';
    else if (form[field].trim().length > COLLECTION_TITLE_MAX) problems[field] = 'too_big';
  }
  for (const field of ['descriptionEn', 'descriptionZh'] as const) {
    if (form[field].trim().length > COLLECTION_DESCRIPTION_MAX) problems[field] = 'too_big';
  }
  return problems;
}

/** What `admin/collection/save` is sent for the form: with `id` when it edits a collection. */
export function collectionInput(form: CollectionForm) {
  return {
    ...(form.id === null ? {} : { id: form.id }),
    name: form.name.trim().toLowerCase(),
    titleEn: form.titleEn.trim(),
    titleZh: form.titleZh.trim(),
    descriptionEn: form.descriptionEn.trim(),
    descriptionZh: form.descriptionZh.trim(),
    cover: form.cover,
    featured: form.featured,
    sort: form.sort,
  };
}

/** The form filled with a collection's current values, or empty for a new one. */
export function collectionForm(collection: StaffCollection | null): CollectionForm {
  if (!collection) return EMPTY_COLLECTION;
  const { id, name, titleEn, titleZh, descriptionEn, descriptionZh, cover, featured, sort } = collection;
  return { id, name, titleEn, titleZh, descriptionEn, descriptionZh, cover, featured, sort };
}

type Change = { item: StaffCollection };
const replace = ({ item }: Change, items: StaffCollection[]) => withItem(items, item);

/**
 * `/admin/collections`: create a collection or edit one (titles, descriptions, a cropped cover,
 * featured), add, remove and reorder its projects.
 */
export function createCollectionEditor(collections: StaffCollection[]) {
  const list = createStaffList(collections);
  const { $editor: $form, fill, ...editor } = createStaffImageForm(list, {
    empty: EMPTY_COLLECTION,
    imageField: 'cover',
    problems: collectionProblems,
    path: 'collection/save',
    input: collectionInput,
    saved: (form, body) => say(form.id === null ? 'admin.collections.created' : 'admin.collections.saved', { name: body.name }),
  });

  /** Opens the form on `collection`'s current values (null: back to a new, empty one). */
  function edit(collection: StaffCollection | null): void {
    fill(collectionForm(collection));
    list.tell(null);
  }

  /** Adds a project by its id or its page's address. */
  function addProject(name: string, text: string): Promise<boolean> {
    const project = projectIdFrom(text);
    if (!project) {
      list.tell(warn('admin.projectIdInvalid'));
      return Promise.resolve(false);
    }
    return list.run<Change>('collection/addProject', { name, project }, replace, say('admin.collections.added'));
  }

  function removeProject(name: string, project: string): Promise<boolean> {
    return list.run<Change>('collection/removeProject', { name, project }, replace, say('admin.collections.removed'));
  }

  function moveProject(name: string, index: number, delta: number): Promise<boolean> {
    const collection = list.$list.get().items.find((c) => c.name === name);
    if (!collection) return Promise.resolve(false);
    const projects = moveItem(
      collection.projects.map((p) => p.id),
      index,
      delta,
    );
    return list.run<Change>('collection/reorder', { name, projects }, replace, say('admin.reordered'));
  }

  async function remove(name: string): Promise<boolean> {
    const done = await list.run('collection/delete', { name }, (_r, items) => items.filter((c) => c.name !== name), say('admin.collections.deleted', { name }));
    // The form must not go on editing a collection that is gone.
    if (done && $form.get().form.name === name && $form.get().form.id !== null) fill(EMPTY_COLLECTION);
    return done;
  }

  return { $list: list.$list, $form, ...editor, edit, addProject, removeProject, moveProject, remove };
}
