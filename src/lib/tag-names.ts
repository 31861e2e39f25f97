/**
 * Names of tags that members type, and the slugs (addresses, `/newest?tag=<slug>`) made from
 * them. Shared by the creation form (to say what a typed name becomes before publishing) and the
 * server (which creates the tag), so both agree on the slug and on what is refused.
 *
 * A slug keeps letters of any script: a Chinese-only name such as 单片机 gets the slug `单片机`
 * (browsers show it as typed and percent-encode it on the wire), rather than a transliteration
 * that would need a pinyin dictionary in the browser and still guess wrong for many names.
 * Latin letters are lower-cased and stripped of accents, and every other run of characters
 * becomes one hyphen, so `ESP32 S3`, `esp32-s3` and `ESP32_S3` are one tag. `+` and `#` carry
 * meaning in names like `C++` and `C#`, so they become words (`c-plus-plus`, `c-sharp`).
 */
import { SLUG_MAX } from './slug.ts';

/** The longest tag name a member may type (in characters). */
export const TAG_NAME_MAX = 40;

/** What a tag name may hold: letters and digits of any script, spaces, and `+ # . - _ & /`. */
const TAG_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}\p{M} +#.\-_&/]*$/u;

/** Why a typed tag name is refused, as the key of `form.errors.tags.*` and the API's field error. */
export type TagNameProblem = 'tag_name_too_long' | 'tag_name_invalid';

/** A typed name as it is kept: Unicode-normalised (full-width letters become ASCII), spaces collapsed, trimmed. */
export function cleanTagName(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/** Why `name` (cleaned) cannot be a tag's name, or null when it can. */
export function tagNameProblem(name: string): TagNameProblem | null {
  const clean = cleanTagName(name);
  if ([...clean].length > TAG_NAME_MAX) return 'tag_name_too_long';
  if (!TAG_NAME_PATTERN.test(clean) || tagSlugOf(clean) === '') return 'tag_name_invalid';
  return null;
}

/** The slug a typed name gets (see the file comment); '' when nothing of it can be an address. */
export function tagSlugOf(name: string): string {
  return cleanTagName(name)
    .replace(/\+/g, ' plus ')
    .replace(/#/g, ' sharp ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** Whether `name` holds Chinese characters: it is then the tag's Chinese name, else its English one. */
export function isChineseName(name: string): boolean {
  return /\p{Script=Han}/u.test(name);
}

/**
 * A tag's heading: its name in `locale`, then the other language's when staff gave it one
 * ("Microcontrollers · 单片机"); a member's tag not yet translated shows its one name.
 */
export function tagHeadingName(tag: { nameEn: string; nameZh: string }, locale: string): string {
  const [first, other] = locale.startsWith('zh') ? [tag.nameZh, tag.nameEn] : [tag.nameEn, tag.nameZh];
  return first === other ? first : `${first} · ${other}`;
}
