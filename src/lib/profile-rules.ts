/**
 * Rules of the profile fields, shared by the server (validation of `user/edit`, sign-up) and the
 * profile editor island (inline checks before sending). Pure: no server imports.
 */

export const CUSTOM_URL_MIN = 3;
export const CUSTOM_URL_MAX = 30;
export const NICKNAME_MAX = 40;
export const BIO_MAX = 500;
export const LOCATION_MAX = 80;
export const WEBSITE_MAX = 200;

/** Custom URLs that would shadow a route, an API or a role. */
export const RESERVED_URLS: ReadonlySet<string> = new Set([
  'm', 'd', 'api', 'sso', 'admin', 'administrator', 'root', 'system', 'user', 'users', 'create', 'search', 'new',
  'newest', 'edit', 'settings', 'setting', 'logout', 'login', 'signin', 'signup', 'register', 'account', 'accounts',
  'profile', 'message', 'messages', 'stars', 'draftbox', 'video', 'videos', 'files', 'file', 'static', 'assets',
  'eda', 'preview', 'recommend', 'collection', 'collections', 'donation', 'donation-list', 'donate', 'help',
  'about', 'support', 'copperhub', 'official', 'staff', 'moderator', 'mod', 'team', 'null', 'undefined', 'me',
  'rss', 'sitemap', 'healthz', 'www', 'mail', 'tag', 'tags', 'project', 'projects',
]);

const URL_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

export type CustomUrlProblem = 'url_format' | 'url_length' | 'url_reserved';

/** Why `url` cannot be a custom URL (format, length or reserved word), or null when it can. */
export function customUrlProblem(url: string): CustomUrlProblem | null {
  if (url.length < CUSTOM_URL_MIN || url.length > CUSTOM_URL_MAX) return 'url_length';
  if (!URL_PATTERN.test(url) || url.includes('--')) return 'url_format';
  if (RESERVED_URLS.has(url)) return 'url_reserved';
  return null;
}

/**
 * An ASCII slug of a nickname for a new member's custom URL: accents dropped, everything else
 * that is not a letter or digit becomes a dash. Empty when little usable is left (e.g. a Chinese
 * nickname); the caller then uses `maker` with a random suffix.
 */
export function slugFromNickname(nickname: string): string {
  const slug = nickname
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20)
    .replace(/-+$/g, '');
  return slug.length >= CUSTOM_URL_MIN ? slug : '';
}

/** Only http(s) links are shown as a member's website. */
export function isWebsiteAllowed(value: string): boolean {
  if (!value) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname);
  } catch {
    return false;
  }
}

/** Nicknames: 1–40 visible characters, no control characters. */
export function nicknameProblem(value: string): 'required' | 'too_big' | 'invalid' | null {
  const trimmed = value.trim();
  if (!trimmed) return 'required';
  if ([...trimmed].length > NICKNAME_MAX) return 'too_big';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(trimmed)) return 'invalid';
  return null;
}
