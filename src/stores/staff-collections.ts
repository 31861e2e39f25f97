import { isSlug } from '../lib/slug.ts';
import { map } from 'nanostores';
import type { StaffCollection } from '../lib/contract/schemas/staff.ts';
import { say, warn, type Notice } from '../lib/notice.ts';
import { createImagePick } from './image-pick.ts';
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
const replace = ({ item }: Change, items: StaffCollection[]) => (items.some((c) => c.id === item.id) ? items.map((c) => (c.id === item.id ? item : c)) : [...items, item]);

/**
 * `/admin/collections`: create a collection or edit one (titles, descriptions, a cropped cover,
 * featured), add, remove and reorder its projects.
 */
export function createCollectionEditor(collections: StaffCollection[]) {
  const list = createStaffList(collections);
  const $form = map<{ form: CollectionForm; cropSource: Blob | null; uploading: boolean; coverError: Notice | null }>({ form: EMPTY_COLLECTION, cropSource: null, uploading: false, coverError: null });
  // Picking, refusing a too large file, cropping and uploading are the shared image-pick steps; the form shows their state.
  const cover = createImagePick({ purpose: 'cover' });
  cover.$pick.listen(({ cropSource, progress, error }) => $form.set({ ...$form.get(), cropSource, uploading: progress !== null, coverError: error }));

  const fill = (collection: StaffCollection | null) => {
    cover.reset();
    $form.set({ form: collectionForm(collection), cropSource: null, uploading: false, coverError: null });
  };

  function setField<K extends keyof CollectionForm>(field: K, value: CollectionForm[K]): void {
    $form.setKey('form', { ...$form.get().form, [field]: value });
  }

  /** Opens the form on `collection`'s current values (null: back to a new, empty one). */
  function edit(collection: StaffCollection | null): void {
    fill(collection);
    list.tell(null);
  }

  const pickCover = (file: File) => cover.pick(file);
  const closeCropper = () => cover.cancel();
  const cropperFailed = () => cover.cropFailed();

  async function uploadCover(blob: Blob): Promise<void> {
    const uploaded = await cover.upload(blob);
    if (uploaded) setField('cover', uploaded.url);
  }

  /** Creates the collection on the form, or saves the one being edited; the form empties when it succeeds. */
  async function save(): Promise<boolean> {
    const { form } = $form.get();
    const problems = collectionProblems(form);
    if (Object.keys(problems).length > 0) {
      list.tell(warn('admin.fixErrors'), problems);
      return false;
    }
    const body = collectionInput(form);
    const done = await list.run<Change>('collection/save', body, replace, say(form.id === null ? 'admin.collections.created' : 'admin.collections.saved', { name: body.name }));
    if (done) fill(null);
    return done;
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
    if (done && $form.get().form.name === name && $form.get().form.id !== null) fill(null);
    return done;
  }

  return { $list: list.$list, $form, setField, edit, pickCover, closeCropper, cropperFailed, uploadCover, save, addProject, removeProject, moveProject, remove };
}
