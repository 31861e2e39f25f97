import { listBomLines } from '../services/bom.ts';
import { getProjectDetail } from '../services/project-detail.ts';
import { ok, type LoaderData, type PageLoader } from './page.ts';

/** The electronics view (`/eda/{id}`): the project's boards, BOM and fabrication files. */
export const loadEdaPage = (async ({ params, locals }) => {
  const id = params.id ?? '';
  const [project, bom] = await Promise.all([getProjectDetail(id, locals.user?.id ?? null, locals.locale), listBomLines(id)]);
  const fabrication = project.attachments.filter((file) => file.kind === 'gerber' || file.kind === 'bom');
  return ok({ project, bom, fabrication });
}) satisfies PageLoader<unknown>;

export type EdaPageData = LoaderData<typeof loadEdaPage>;
