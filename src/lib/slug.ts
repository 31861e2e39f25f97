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
