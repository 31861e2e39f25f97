import type { StaffBanner } from '../lib/contract/schemas/staff.ts';
import { say } from '../lib/notice.ts';
import { createStaffImageForm } from './staff-image-form.ts';
import { createStaffList } from './staff-list.ts';

/** The banner image's shape: a wide strip, cropped to this ratio (about 1200 × 360). */
export const BANNER_ASPECT = 10 / 3;

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

/** `/admin/banners`: the list, and the form that adds or edits one banner (image cropped, then uploaded). */
export function createBannerEditor(banners: StaffBanner[]) {
  const list = createStaffList(banners);
  const { fill, ...editor } = createStaffImageForm(list, {
    empty: EMPTY_BANNER,
    imageField: 'image',
    problems: bannerProblems,
    path: 'banner/save',
    input: bannerInput,
    saved: (form) => say(form.id === null ? 'admin.banners.added' : 'admin.banners.saved'),
  });

  function edit(banner: StaffBanner | null): void {
    fill(
      banner
        ? { id: banner.id, image: banner.image, link: banner.link, titleEn: banner.titleEn, titleZh: banner.titleZh, sort: String(banner.sort), startsAt: isoToLocal(banner.startsAt), endsAt: isoToLocal(banner.endsAt) }
        : EMPTY_BANNER,
    );
  }

  function remove(id: number): Promise<boolean> {
    return list.run('banner/delete', { id }, (_result, items) => items.filter((banner) => banner.id !== id), say('admin.banners.removed'));
  }

  return { $list: list.$list, ...editor, edit, remove };
}
