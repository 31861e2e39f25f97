/**
 * The browser's copy of a project form that the server does not have yet (typed but not saved),
 * kept in localStorage per project, draft or new form, so a reload, a crash or a lost
 * connection loses nothing.
 */
import type { ProjectContent } from './contract/project-content.ts';

/** The form's own fields (attachments are kept as files beside them). */
export type ProjectFields = Omit<ProjectContent, 'attachments'>;

/** An uploaded attachment. */
export interface FormFile {
  id: string;
  name: string;
  mime: string;
  size: number;
}

export interface LocalCopy {
  v: 1;
  savedAt: string;
  draftId: string | null;
  projectId: string | null;
  fields: ProjectFields;
  files: FormFile[];
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const STORAGE_PREFIX = 'copperhub:project-form:';

/** Where the copy of an edited project, a draft or a new form is kept. */
export function copyKey(projectId: string | null, draftId: string | null): string {
  return STORAGE_PREFIX + (projectId ? `project:${projectId}` : draftId ? `draft:${draftId}` : 'new');
}

/** What decides whether two states of the form differ: the fields and the attachments' ids. */
export function snapshotOf(fields: ProjectFields, files: Pick<FormFile, 'id'>[]): string {
  return JSON.stringify({ fields, files: files.map((file) => file.id) });
}

export function readCopy(key: string, storage: KeyValueStorage = localStorage): LocalCopy | null {
  try {
    const raw = storage.getItem(key);
    const copy = raw ? (JSON.parse(raw) as LocalCopy) : null;
    return copy && copy.v === 1 && copy.fields ? copy : null;
  } catch {
    return null;
  }
}

/** Keeps `copy` (null forgets it). */
export function writeCopy(key: string, copy: LocalCopy | null, storage: KeyValueStorage = localStorage): void {
  try {
    if (copy) storage.setItem(key, JSON.stringify(copy));
    else storage.removeItem(key);
  } catch {
    // storage full or disabled: the server copy is all there is
  }
}

/**
 * The copy to restore over what the server rendered: only one saved after the server's version
 * (`updatedAt`; a new form has none) that differs from it.
 */
export function copyToRestore(copy: LocalCopy | null, serverUpdatedAt: string | null, serverSnapshot: string): LocalCopy | null {
  if (!copy) return null;
  const newer = !serverUpdatedAt || copy.savedAt > serverUpdatedAt;
  return newer && snapshotOf(copy.fields, copy.files) !== serverSnapshot ? copy : null;
}
