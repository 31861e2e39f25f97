import { map } from 'nanostores';
import type { StaffCollection } from '../lib/contract/schemas/staff.ts';
import { fail, say, warn, type Notice } from '../lib/notice.ts';
import { uploadFile } from '../lib/upload-client.ts';
import { createStaffList, moveItem, projectIdFrom } from './staff-list.ts';

/** Collection covers are cropped to the cards' shape. */
export const COVER_ASPECT = 4 / 3;

export interface CollectionForm {
  name: string;
  titleEn: string;
  titleZh: string;
  cover: string | null;
}

export const EMPTY_COLLECTION: CollectionForm = { name: '', titleEn: '', titleZh: '', cover: null };

/** A collection's name by the server's rule: its address, lowercase words joined by single dashes. */
export function isCollectionName(value: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value.trim().toLowerCase()) && value.trim().length <= 60;
}

export function collectionProblems(form: CollectionForm): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!form.name.trim()) problems.name = 'required';
  else if (!isCollectionName(form.name)) problems.name = 'slug';
  if (!form.titleEn.trim()) problems.titleEn = 'required';
  if (!form.titleZh.trim()) problems.titleZh = 'required';
  return problems;
}

type Change = { item: StaffCollection };
const replace = ({ item }: Change, items: StaffCollection[]) => (items.some((c) => c.id === item.id) ? items.map((c) => (c.id === item.id ? item : c)) : [...items, item]);

/** `/admin/collections`: create a collection (with a cropped cover), add, remove and reorder its projects. */
export function createCollectionEditor(collections: StaffCollection[]) {
  const list = createStaffList(collections);
  const $form = map<{ form: CollectionForm; cropSource: File | null; uploading: boolean; coverError: Notice | null }>({ form: EMPTY_COLLECTION, cropSource: null, uploading: false, coverError: null });

  function setField<K extends keyof CollectionForm>(field: K, value: CollectionForm[K]): void {
    $form.setKey('form', { ...$form.get().form, [field]: value });
  }

  const pickCover = (file: File) => $form.set({ ...$form.get(), cropSource: file, coverError: null });
  const closeCropper = () => $form.setKey('cropSource', null);
  const cropperFailed = () => $form.set({ ...$form.get(), cropSource: null, coverError: warn('cropper.loadError') });

  async function uploadCover(blob: Blob): Promise<void> {
    $form.set({ ...$form.get(), cropSource: null, uploading: true, coverError: null });
    try {
      const uploaded = await uploadFile(blob, { purpose: 'cover', name: 'cover.jpg' }).promise;
      $form.set({ ...$form.get(), uploading: false, form: { ...$form.get().form, cover: uploaded.url } });
    } catch (error) {
      $form.set({ ...$form.get(), uploading: false, coverError: fail(error) });
    }
  }

  async function create(): Promise<boolean> {
    const { form } = $form.get();
    const problems = collectionProblems(form);
    if (Object.keys(problems).length > 0) {
      list.tell(warn('admin.fixErrors'), problems);
      return false;
    }
    const body = { name: form.name.trim().toLowerCase(), titleEn: form.titleEn.trim(), titleZh: form.titleZh.trim(), cover: form.cover };
    const done = await list.run<Change>('collection/save', body, replace, say('admin.collections.created', { name: body.name }));
    if (done) $form.set({ form: EMPTY_COLLECTION, cropSource: null, uploading: false, coverError: null });
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

  function remove(name: string): Promise<boolean> {
    return list.run('collection/delete', { name }, (_r, items) => items.filter((c) => c.name !== name), say('admin.collections.deleted', { name }));
  }

  return { $list: list.$list, $form, setField, pickCover, closeCropper, cropperFailed, uploadCover, create, addProject, removeProject, moveProject, remove };
}
