import type { AstroGlobal } from 'astro';
import type { Locale } from '../../lib/i18n.ts';
import { getProjectDetail, listRelatedProjects } from '../services/project-detail.ts';
import type { SessionUser } from '../services/sessions.ts';
import { countProjectView } from '../services/project-views.ts';
import { loadProjectComments, type CommentOptions } from './comments.ts';

const DEFAULT_COMMENTS: CommentOptions = { page: 1, sort: 'newest', focusId: null };

/** The project page (`/d-{id}`, `/m/d-{id}`): the project, its comments and related projects. */
export async function loadProjectPage(id: string, viewer: SessionUser | null, locale: Locale, commentOptions: CommentOptions = DEFAULT_COMMENTS) {
  const [project, related, comments] = await Promise.all([
    getProjectDetail(id, viewer?.id ?? null, locale),
    listRelatedProjects(id, locale, 4),
    loadProjectComments(id, viewer?.id ?? null, commentOptions),
  ]);
  return { project, related, comments };
}

export type ProjectPageData = Awaited<ReturnType<typeof loadProjectPage>>;

/** Counts this request as a view of the project (once per visitor per day; never crawlers), without waiting. */
export function countView(astro: AstroGlobal, publicId: string): void {
  let ip: string | null = null;
  try {
    ip = astro.clientAddress;
  } catch {
    // no address behind some adapters: the browser alone identifies the guest
  }
  countProjectView(publicId, { userId: astro.locals.user?.id ?? null, ip, userAgent: astro.request.headers.get('user-agent') });
}
