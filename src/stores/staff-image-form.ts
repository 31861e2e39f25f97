import { map } from 'nanostores';
import { warn, type Notice } from '../lib/notice.ts';
import { createImagePick, type Uploader } from './image-pick.ts';
import type { StaffList } from './staff-list.ts';

/** A staff form with one picture, and the picture's steps as the form shows them. */
export interface StaffImageFormState<F> {
  form: F;
  /** The picture being cropped (the cropper dialog is open while set). */
  cropSource: Blob | null;
  /** Upload progress 0…1 while the cropped picture is sent. */
  uploading: number | null;
  /** Why the last picture was not taken (too large, not an image, the upload failed). */
  imageError: Notice | null;
}

export interface StaffImageFormOptions<F, B> {
  /** The form of a new item. */
  empty: F;
  /** The field the uploaded picture's address goes to (a banner's image, a collection's cover). */
  imageField: keyof F;
  /** The form's problems by the server's rules (field → validation key); empty when it can be sent. */
  problems: (form: F) => Record<string, string>;
  /** `admin/<path>` that saves the form and answers `{ item }`, the item as saved. */
  path: string;
  /** What `path` is sent for the form. */
  input: (form: F) => B;
  /** What is said once saved. */
  saved: (form: F, body: B) => Notice;
  /** How the picture is sent: `uploadFile` in the browser, a test's own elsewhere. */
  upload?: Uploader;
}

/** The list with `item` in place of the one with its id, or added at the end when new. */
export function withItem<T extends { id: number }>(items: T[], item: T): T[] {
  return items.some((other) => other.id === item.id) ? items.map((other) => (other.id === item.id ? item : other)) : [...items, item];
}

/**
 * The form that creates or edits one item of a staff list whose item has a picture (a banner,
 * a collection): the picture picked, refused when too large, cropped and uploaded through the
 * shared `image-pick` steps into `imageField`; the form checked by the server's rules before it
 * is sent, saved into the list, and emptied once saved.
 */
export function createStaffImageForm<T extends { id: number }, F, B extends Record<string, unknown>>(list: StaffList<T>, options: StaffImageFormOptions<F, B>) {
  const $editor = map<StaffImageFormState<F>>({ form: options.empty, cropSource: null, uploading: null, imageError: null });
  const picture = createImagePick({ purpose: 'cover', upload: options.upload });
  picture.$pick.listen(({ cropSource, progress, error }) => $editor.set({ ...$editor.get(), cropSource, uploading: progress, imageError: error }));

  function setField<K extends keyof F>(field: K, value: F[K]): void {
    $editor.setKey('form', { ...$editor.get().form, [field]: value });
  }

  /** Opens the form on `form` (an item's values, or the empty form), forgetting any picture under way. */
  function fill(form: F): void {
    picture.reset();
    $editor.set({ form, cropSource: null, uploading: null, imageError: null });
  }

  const pickImage = (file: File) => picture.pick(file);
  const closeCropper = () => picture.cancel();
  const cropperFailed = () => picture.cropFailed();

  async function uploadImage(blob: Blob): Promise<void> {
    const uploaded = await picture.upload(blob);
    if (uploaded) setField(options.imageField, uploaded.url as F[keyof F]);
  }

  /** Sends the form (checked first by the same rules as the server); on success the form empties. */
  async function save(): Promise<boolean> {
    const { form } = $editor.get();
    const problems = options.problems(form);
    if (Object.keys(problems).length > 0) {
      list.tell(warn('admin.fixErrors'), problems);
      return false;
    }
    const body = options.input(form);
    const saved = await list.run<{ item: T }>(options.path, body, ({ item }, items) => withItem(items, item), options.saved(form, body));
    if (saved) fill(options.empty);
    return saved;
  }

  return { $editor, setField, fill, pickImage, closeCropper, cropperFailed, uploadImage, save };
}

/** What the picture field of the form does (`islands/staff/StaffImageField.tsx`). */
export type StaffPictureSteps = Pick<ReturnType<typeof createStaffImageForm>, 'pickImage' | 'closeCropper' | 'cropperFailed' | 'uploadImage'>;
