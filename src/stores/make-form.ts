import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { z } from 'zod';
import type { makeItemSchema } from '../lib/contract/schemas/makes.ts';
import { fail, invalid, warn, type Notice } from '../lib/notice.ts';
import { countCharacters } from '../lib/text.ts';
import { createImagePick } from './image-pick.ts';

export type MakeItem = z.infer<typeof makeItemSchema>;

/** The server's limits (`src/server/services/community/makes.ts`), checked here first. */
export const MAKE_PHOTOS_MAX = 6;
export const MAKE_NOTE_MAX = 2000;
const LINK_MAX = 500;

export interface MakePhoto {
  id: string;
  url: string;
}

export interface MakeFormState {
  photos: MakePhoto[];
  note: string;
  link: string;
  errors: { photos?: Notice; note?: Notice; link?: Notice };
  /** Why the make was not posted, when no field says it. */
  formError: Notice | null;
  submitting: boolean;
}

/** An http(s) address or a project of this site (`/d-{id}`): what the server takes as a link. */
export function isMakeLink(value: string): boolean {
  if (/^\/(?:m\/)?d-[A-Za-z0-9_-]{1,64}\/?$/.test(value)) return true;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname.length > 0;
  } catch {
    return false;
  }
}

/** The form's problems by the server's rules; empty when it can be sent. */
export function validateMake(state: Pick<MakeFormState, 'photos' | 'note' | 'link'>): MakeFormState['errors'] {
  const errors: MakeFormState['errors'] = {};
  if (state.photos.length === 0) errors.photos = warn('makes.needPhoto');
  if (countCharacters(state.note.trim()) > MAKE_NOTE_MAX) errors.note = invalid('too_big');
  const link = state.link.trim();
  if (link.length > LINK_MAX) errors.link = invalid('too_big');
  else if (link && !isMakeLink(link)) errors.link = invalid('make_link');
  return errors;
}

/**
 * "I built this": photos (each picked, cropped and uploaded through `image-pick`), a note and a
 * link, checked by the server's rules and posted with `make/submit`.
 */
export function createMakeForm(projectId: string, options: { upload?: Parameters<typeof createImagePick>[0]['upload'] } = {}) {
  const $form = map<MakeFormState>({ photos: [], note: '', link: '', errors: {}, formError: null, submitting: false });
  const photo = createImagePick({ purpose: 'image', upload: options.upload });

  function update(patch: Partial<MakeFormState>): void {
    $form.set({ ...$form.get(), ...patch });
  }

  function setNote(note: string): void {
    update({ note, errors: { ...$form.get().errors, note: undefined } });
  }

  function setLink(link: string): void {
    update({ link, errors: { ...$form.get().errors, link: undefined } });
  }

  /** A picture was chosen for a new photo: refused when the make already has all it may. */
  function pickPhoto(file: Blob | undefined): void {
    if ($form.get().photos.length >= MAKE_PHOTOS_MAX) {
      update({ errors: { ...$form.get().errors, photos: fail({ errorKey: 'too_many_images' }) } });
      return;
    }
    photo.pick(file);
  }

  /** Uploads the cropped picture and adds it to the photos. */
  async function addPhoto(blob: Blob): Promise<void> {
    const uploaded = await photo.upload(blob);
    if (uploaded) update({ photos: [...$form.get().photos, { id: uploaded.id, url: uploaded.url }], errors: { ...$form.get().errors, photos: undefined } });
  }

  function removePhoto(index: number): void {
    update({ photos: $form.get().photos.filter((_, at) => at !== index) });
  }

  /** Posts the make; the created make, or null when it was not posted (the form says why). */
  async function submit(): Promise<MakeItem | null> {
    const state = $form.get();
    const errors = validateMake(state);
    if (Object.keys(errors).length > 0 || photo.$pick.get().progress !== null) {
      update({ errors, formError: null });
      return null;
    }
    update({ submitting: true, errors: {}, formError: null });
    try {
      const link = state.link.trim();
      const made = await apiCall<MakeItem>('make/submit', { id: projectId, content: state.note, images: state.photos.map((item) => item.id), ...(link ? { link } : {}) });
      $form.set({ photos: [], note: '', link: '', errors: {}, formError: null, submitting: false });
      return made;
    } catch (error) {
      update({ submitting: false, ...failureOf(error) });
      return null;
    }
  }

  return { $form, photo, setNote, setLink, pickPhoto, addPhoto, removePhoto, submit };
}

/** Where a refused make says why: the field the server names, else the whole form. */
function failureOf(error: unknown): Pick<MakeFormState, 'errors' | 'formError'> {
  const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
  const errors: MakeFormState['errors'] = {};
  for (const [path, key] of Object.entries(fields)) {
    if (path.startsWith('images')) errors.photos = invalid(key);
    else if (path === 'content') errors.note = invalid(key);
    else if (path === 'link') errors.link = invalid(key);
  }
  return Object.keys(errors).length ? { errors, formError: null } : { errors, formError: fail(error) };
}

export type MakeForm = ReturnType<typeof createMakeForm>;
