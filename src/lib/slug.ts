/**
 * Names that are addresses (`/collection/<name>`, `/newest?tag=<slug>`): lower-case letters and
 * digits in words joined by single hyphens. The API's schemas and the staff forms' checks use this
 * one rule, so a form never accepts what the server refuses.
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 60;

/** Whether `value` (trimmed, lower-cased as the server does) is a slug. */
export function isSlug(value: string): boolean {
  const slug = value.trim().toLowerCase();
  return slug.length <= SLUG_MAX && SLUG_PATTERN.test(slug);
}

/**
 * A slug made from free text (a collection's title): accents dropped, anything else that is not
 * a letter or digit becomes a hyphen; `fallback` when nothing is left (a title in Chinese).
 * Cut short enough that a clash number (`-12`) still fits in `SLUG_MAX`.
 */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX - 6)
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}
