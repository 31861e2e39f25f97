import type { AstroGlobal } from 'astro';
import { getProjectDetail } from '../services/project-detail.ts';
import { loadFormSource } from '../services/releases.ts';
import { listTagTree } from '../services/tags.ts';
import { AppError } from '../http/errors.ts';
import { loadAuthState } from './auth.ts';
import { loadPage } from './page.ts';

/**
 * `/create/project` (both variants; the route's `auth` middleware guarantees a user):
 * `?id=` edits one of the user's projects, `?draft=` continues one of their drafts; anyone
 * else's is a 404.
 */
export async function loadCreatePage(astro: AstroGlobal) {
  const user = astro.locals.user;
  if (!user) throw new AppError('unauthorized');
  const projectId = astro.url.searchParams.get('id')?.trim() || null;
  const draftId = astro.url.searchParams.get('draft')?.trim() || null;
  return loadPage(astro, async () => {
    const [source, tags, auth] = await Promise.all([
      loadFormSource(user.id, { projectId, draftId }),
      listTagTree(astro.locals.locale),
      loadAuthState(astro.locals),
    ]);
    return { source, tags, auth };
  });
}

export type CreatePageData = NonNullable<Awaited<ReturnType<typeof loadCreatePage>>>;

/** `/create/success?id=`: the user's just published (or updated) project. */
export async function loadSuccessPage(astro: AstroGlobal) {
  const user = astro.locals.user;
  const id = astro.url.searchParams.get('id')?.trim() ?? '';
  return loadPage(astro, async () => {
    const project = await getProjectDetail(id, user?.id ?? null, astro.locals.locale);
    if (!project.viewer.isOwner) throw new AppError('project_not_found');
    return { project, updated: astro.url.searchParams.get('updated') === '1' };
  });
}

export type SuccessPageData = NonNullable<Awaited<ReturnType<typeof loadSuccessPage>>>;
