import type { AstroGlobal } from 'astro';
import type { Locale } from '../../lib/i18n.ts';
import { getProjectDetail, listRelatedProjects } from '../services/project-detail.ts';
import type { SessionUser } from '../services/sessions.ts';
import { countProjectView } from '../services/project-views.ts';

/** The project page (`/d-{id}`, `/m/d-{id}`): the project and related projects. */
export async function loadProjectPage(id: string, viewer: SessionUser | null, locale: Locale) {
  const [project, related] = await Promise.all([getProjectDetail(id, viewer?.id ?? null, locale), listRelatedProjects(id, locale, 4)]);
  return { project, related };
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
