import { getEdaDetail } from '../services/eda/index.ts';
import { getProjectDetail } from '../services/projects/index.ts';
import { pageTags } from '../page-cache/tags.ts';
import { siteOrigin } from '../lib/sso-links.ts';
import { ok, type LoaderData, type PageLoader } from './page.ts';

/** The electronics view (`/eda/{id}`): the project's boards, BOM, placements and fabrication files. */
export const loadEdaPage = (async ({ params, locals, url }) => {
  const id = params.id ?? '';
  const viewerId = locals.user?.id ?? null;
  const [project, eda] = await Promise.all([getProjectDetail(id, viewerId, locals.locale), getEdaDetail(id, viewerId)]);
  // Fabs fetch a board's Gerber zip from its absolute address on the site's public origin.
  return ok({ project, eda, origin: siteOrigin(url) }, { tags: [pageTags.project(project.id), pageTags.user(project.owner.url)] });
}) satisfies PageLoader<unknown>;

export type EdaPageData = LoaderData<typeof loadEdaPage>;
