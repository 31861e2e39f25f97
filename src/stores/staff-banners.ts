import { map } from 'nanostores';
import type { StaffBanner } from '../lib/contract/schemas/staff.ts';
import { say, warn, type Notice } from '../lib/notice.ts';
import { createImagePick } from './image-pick.ts';
import { createStaffList } from './staff-list.ts';

/** The banner image's shape: a wide strip, cropped to this ratio (about 1200 × 360). */
export const BANNER_ASPECT = 10 / 3;
export const BANNER_IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif';

/** The banner form as typed: times in the browser's local time (`<input type="datetime-local">`). */
export interface BannerForm {
  /** Null: a new banner. */
  id: number | null;
  image: string;
  link: string;
  titleEn: string;
  titleZh: string;
  sort: string;
  startsAt: string;
  endsAt: string;
}

export const EMPTY_BANNER: BannerForm = { id: null, image: '', link: '', titleEn: '', titleZh: '', sort: '0', startsAt: '', endsAt: '' };

/** `YYYY-MM-DDTHH:mm` in the browser's time zone → ISO 8601 UTC; '' → null (no limit). */
export function localToIso(value: string): string | null {
  if (!value.trim()) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** ISO 8601 → `YYYY-MM-DDTHH:mm` in the browser's time zone, for editing; null → ''. */
export function isoToLocal(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Where a banner may lead, by the server's rule: a path on this site or an http(s) address. */
export function isStaffLink(value: string): boolean {
  const link = value.trim();
  return (link.startsWith('/') && !link.startsWith('//') && !link.startsWith('/\\')) || /^https?:\/\/[^\s/]+/i.test(link);
}

/** The form's problems by the server's rules (field → validation key); empty when it can be sent. */
export function bannerProblems(form: BannerForm): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!form.image) problems.image = 'required';
  if (!form.titleEn.trim()) problems.titleEn = 'required';
  if (!form.titleZh.trim()) problems.titleZh = 'required';
  if (!form.link.trim()) problems.link = 'required';
  else if (!isStaffLink(form.link)) problems.link = 'staff_link';
  const sort = Number(form.sort || 0);
  if (!Number.isInteger(sort) || sort < 0 || sort > 10_000) problems.sort = 'invalid';
  const starts = localToIso(form.startsAt);
  const ends = localToIso(form.endsAt);
  if (starts && ends && ends <= starts) problems.endsAt = 'ends_before_start';
  return problems;
}

/** What `admin/banner/save` is sent for the form. */
export function bannerInput(form: BannerForm): Record<string, unknown> {
  return {
    ...(form.id === null ? {} : { id: form.id }),
    image: form.image,
    link: form.link.trim(),
    titleEn: form.titleEn.trim(),
    titleZh: form.titleZh.trim(),
    sort: Number(form.sort || 0),
    startsAt: localToIso(form.startsAt),
    endsAt: localToIso(form.endsAt),
  };
}

export interface BannerEditorState {
  form: BannerForm;
  /** The picture being cropped (the cropper dialog is open while set). */
  cropSource: Blob | null;
  /** Upload progress 0…1 while the cropped image is sent. */
  uploading: number | null;
  imageError: Notice | null;
}

/** `/admin/banners`: the list, and the form that adds or edits one banner (image cropped, then uploaded). */
export function createBannerEditor(banners: StaffBanner[]) {
  const list = createStaffList(banners);
  const $editor = map<BannerEditorState>({ form: EMPTY_BANNER, cropSource: null, uploading: null, imageError: null });
  // Picking, refusing a too large file, cropping and uploading are the shared image-pick steps; the editor shows their state.
  const image = createImagePick({ purpose: 'cover' });
  image.$pick.listen(({ cropSource, progress, error }) => $editor.set({ ...$editor.get(), cropSource, uploading: progress, imageError: error }));

  function setField<K extends keyof BannerForm>(field: K, value: BannerForm[K]): void {
    $editor.setKey('form', { ...$editor.get().form, [field]: value });
  }

  function edit(banner: StaffBanner | null): void {
    image.reset();
    $editor.set({
      form: banner
        ? { id: banner.id, image: banner.image, link: banner.link, titleEn: banner.titleEn, titleZh: banner.titleZh, sort: String(banner.sort), startsAt: isoToLocal(banner.startsAt), endsAt: isoToLocal(banner.endsAt) }
        : EMPTY_BANNER,
      cropSource: null,
      uploading: null,
      imageError: null,
    });
  }

  const pickImage = (file: File) => image.pick(file);
  const closeCropper = () => image.cancel();
  const cropperFailed = () => image.cropFailed();

  async function uploadImage(blob: Blob): Promise<void> {
    const uploaded = await image.upload(blob);
    if (uploaded) setField('image', uploaded.url);
  }

  /** Sends the form (checked first by the same rules as the server); on success the form empties. */
  async function save(): Promise<boolean> {
    const { form } = $editor.get();
    const problems = bannerProblems(form);
    if (Object.keys(problems).length > 0) {
      list.tell(warn('admin.fixErrors'), problems);
      return false;
    }
    const saved = await list.run<{ item: StaffBanner }>(
      'banner/save',
      bannerInput(form),
      ({ item }, items) => (items.some((banner) => banner.id === item.id) ? items.map((banner) => (banner.id === item.id ? item : banner)) : [...items, item]),
      say(form.id === null ? 'admin.banners.added' : 'admin.banners.saved'),
    );
    if (saved) edit(null);
    return saved;
  }

  function remove(id: number): Promise<boolean> {
    return list.run('banner/delete', { id }, (_result, items) => items.filter((banner) => banner.id !== id), say('admin.banners.removed'));
  }

  return { $list: list.$list, $editor, setField, edit, pickImage, closeCropper, cropperFailed, uploadImage, save, remove };
}
