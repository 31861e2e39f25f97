import type { Locale } from '../../lib/i18n.ts';
import { getProjectDetail, listRelatedProjects } from '../services/project-detail.ts';
import type { SessionUser } from '../services/sessions.ts';

/** The project page (`/d-{id}`, `/m/d-{id}`): the project and related projects. */
export async function loadProjectPage(id: string, viewer: SessionUser | null, locale: Locale) {
  const [project, related] = await Promise.all([getProjectDetail(id, viewer?.id ?? null, locale), listRelatedProjects(id, locale, 4)]);
  return { project, related };
}

export type ProjectPageData = Awaited<ReturnType<typeof loadProjectPage>>;
