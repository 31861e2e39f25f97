import { asc, eq } from 'drizzle-orm';
import type { Locale } from '../../lib/i18n.ts';
import { getDb } from '../db/client.ts';
import { bomLines, projects } from '../db/schema/index.ts';
import { getProjectDetail } from '../services/project-detail.ts';
import type { SessionUser } from '../services/sessions.ts';

/** The electronics view (`/eda/{id}`): the project's boards, BOM and fabrication files. */
export async function loadEdaPage(id: string, viewer: SessionUser | null, locale: Locale) {
  const project = await getProjectDetail(id, viewer?.id ?? null, locale);
  const bom = await getDb()
    .select({
      lineNo: bomLines.lineNo,
      designators: bomLines.designators,
      value: bomLines.value,
      footprint: bomLines.footprint,
      quantity: bomLines.quantity,
      mpn: bomLines.mpn,
      manufacturer: bomLines.manufacturer,
      supplierPart: bomLines.supplierPart,
    })
    .from(bomLines)
    .innerJoin(projects, eq(projects.id, bomLines.projectId))
    .where(eq(projects.publicId, id))
    .orderBy(asc(bomLines.lineNo));
  const fabrication = project.attachments.filter((file) => file.kind === 'gerber' || file.kind === 'bom');
  return { project, bom, fabrication };
}

export type EdaPageData = Awaited<ReturnType<typeof loadEdaPage>>;
