import type { AstroGlobal } from 'astro';
import { isAppError, isInvalidTextInput } from '../http/errors.ts';
import { getUserInfo } from '../services/accounts/index.ts';
import { PAGE_EXPIRES_HEADER, PAGE_TAGS_HEADER } from '../page-cache/key.ts';
import { pageTags } from '../page-cache/tags.ts';
import type { AuthState } from '../../stores/auth.ts';

/**
 * What a page loader may read of the request. `url` and `params` are those of the desktop route
 * (`/m/x` is served by the page of `/x`); `locals.url` is the address the visitor asked for.
 */
export type PageContext = Pick<AstroGlobal, 'params' | 'url' | 'request' | 'locals' | 'clientAddress'>;

/** How a page request ends: rendered with data, not found, a sign-in prompt, or a redirect. */
export type PageOutcome<T> =
  | { kind: 'ok'; data: T; status?: number; headers?: Record<string, string>; tags?: string[]; expiresAt?: Date | null }
  | { kind: 'notFound'; messageKey?: string }
  | { kind: 'signIn'; titleKey: string }
  | { kind: 'redirect'; location: string; status: 301 | 302 | 303 };

/** Every page's data comes from one of these: it reads the context and calls services. */
export type PageLoader<T> = (context: PageContext) => Promise<PageOutcome<T>>;

/**
 * A page rendered with `data`. `tags` name what it shows (`pageTags`): a guest's copy is kept by
 * the page cache until a write purges one of them. `expiresAt`: a moment when what it shows
 * changes by itself (a scheduled banner): the copy is not served from then on.
 */
export const ok = <T>(
  data: T,
  extra: { status?: number; headers?: Record<string, string>; tags?: string[]; expiresAt?: Date | null } = {},
): PageOutcome<T> => ({ kind: 'ok', data, ...extra });
export const notFound = (messageKey?: string): PageOutcome<never> => ({ kind: 'notFound', messageKey });
export const signIn = (titleKey: string): PageOutcome<never> => ({ kind: 'signIn', titleKey });
export const redirect = (location: string, status: 301 | 302 | 303 = 302): PageOutcome<never> => ({ kind: 'redirect', location, status });

/** The data a loader hands its view when it succeeds: `LoaderData<typeof loadProjectPage>`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LoaderData<L extends (context: PageContext) => Promise<PageOutcome<any>>> = Extract<Awaited<ReturnType<L>>, { kind: 'ok' }>['data'];

/** What a page renders: its data, or the not-found / sign-in view. */
export type RenderedOutcome<T> = Exclude<PageOutcome<T>, { kind: 'redirect' }>;

/**
 * Runs a page's loader and prepares what every layout shows: the signed-in member's info for the
 * header (`locals.viewer`). A missing resource (`AppError` with a 404 status, or an address
 * PostgreSQL cannot even compare, such as one with a NUL) renders the not-found view with a 404;
 * anything else propagates to the 500 page. A redirect comes back as the Response to return.
 */
export async function loadPage<T>(astro: AstroGlobal, loader: PageLoader<T>, notFoundKey?: string): Promise<RenderedOutcome<T> | Response> {
  const [outcome] = await Promise.all([loader(astro).catch((error: unknown) => missing<T>(error, notFoundKey)), loadViewer(astro.locals)]);
  switch (outcome.kind) {
    case 'redirect':
      return astro.redirect(outcome.location, outcome.status);
    case 'notFound':
      astro.response.status = 404;
      astro.response.headers.set(PAGE_TAGS_HEADER, pageTags.missing);
      return { kind: 'notFound', messageKey: outcome.messageKey ?? notFoundKey };
    case 'ok':
      if (outcome.status) astro.response.status = outcome.status;
      for (const [name, value] of Object.entries(outcome.headers ?? {})) astro.response.headers.set(name, value);
      if (outcome.tags?.length) astro.response.headers.set(PAGE_TAGS_HEADER, outcome.tags.join(' '));
      if (outcome.expiresAt) astro.response.headers.set(PAGE_EXPIRES_HEADER, String(outcome.expiresAt.getTime()));
      return outcome;
    default:
      return outcome;
  }
}

/** A missing resource says what is missing (`errors.project_not_found`) unless the page names its own message. */
function missing<T>(error: unknown, messageKey: string | undefined): PageOutcome<T> {
  if (isInvalidTextInput(error)) return notFound(messageKey);
  if (isAppError(error) && error.status === 404) return notFound(messageKey ?? (error.errorKey === 'not_found' ? undefined : `errors.${error.errorKey}`));
  throw error;
}

/** The header's view of the signed-in member (avatar, nickname, unread count), once per request. */
export async function loadViewer(locals: App.Locals): Promise<void> {
  if (locals.viewer !== undefined) return;
  locals.viewer = locals.user ? await getUserInfo(locals.user.id) : null;
}

/** `?page=` as a positive integer (1 when absent or invalid). */
export function pageParam(url: URL): number {
  const value = Number(url.searchParams.get('page') ?? 1);
  return Number.isInteger(value) && value >= 1 && value <= 100_000 ? value : 1;
}

/**
 * What islands need to act as the signed-in member (that they are, and their info), from what the
 * page runner already loaded; null for guests. The session token never goes in: islands call the
 * API with the HttpOnly cookie.
 */
export function islandAuth(locals: App.Locals): AuthState | null {
  return locals.user && locals.viewer ? { signedIn: true, userInfo: locals.viewer } : null;
}
