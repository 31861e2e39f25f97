import type { AstroGlobal } from 'astro';
import { userPath, variantPath } from '../../lib/paths.ts';
import { loadPage, pageParam } from './page.ts';
import { loadUserContext, type UserPageContext, type UserTab } from './user.ts';
import { loadUserTab, type UserTabData } from './user-tab.ts';

const TABS: Record<string, UserTab> = { '': 'projects', stars: 'stars', video: 'video', message: 'message', profile: 'profile', draftbox: 'draftbox' };
const OWNER_ONLY = new Set<UserTab>(['message', 'draftbox']);

export type UserRouteResult =
  | { kind: 'page'; context: UserPageContext; data: UserTabData }
  | { kind: 'signIn'; context: UserPageContext; tab: UserTab }
  | { kind: 'redirect'; location: string }
  | { kind: 'notFound' };

/**
 * Resolves `/user/{url}[/{tab}]` for both variants: former URLs redirect, unknown users and
 * tabs are 404, owner-only tabs show a sign-in prompt to guests and a 404 to other users.
 */
export async function resolveUserRoute(astro: AstroGlobal): Promise<UserRouteResult> {
  const url = astro.params.url ?? '';
  const tabKey = astro.params.tab ?? '';
  const tab = TABS[tabKey];
  const { user, variant, locale } = astro.locals;
  if (!tab) {
    astro.response.status = 404;
    return { kind: 'notFound' };
  }
  const context = await loadPage(astro, () => loadUserContext(url, user));
  if (!context) return { kind: 'notFound' };
  if ('redirect' in context) {
    const target = variantPath(variant, userPath(context.redirect, tabKey || undefined)) + astro.url.search;
    return { kind: 'redirect', location: target };
  }
  if (OWNER_ONLY.has(tab) && !context.isOwner) {
    if (!user) return { kind: 'signIn', context, tab };
    astro.response.status = 404;
    return { kind: 'notFound' };
  }
  const data = await loadUserTab(tab, context, pageParam(astro.url), locale, astro.url);
  return { kind: 'page', context, data };
}
