import { asc, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { bomLines, projects } from '../db/schema/index.ts';

/** One line of a project's bill of materials. */
export interface BomLine {
  lineNo: number;
  designators: string;
  value: string;
  footprint: string;
  quantity: number;
  mpn: string;
  manufacturer: string;
  supplierPart: string;
}

/** The BOM lines of a project (by public id), in their order. */
export async function listBomLines(publicId: string): Promise<BomLine[]> {
  return getDb()
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
    .where(eq(projects.publicId, publicId))
    .orderBy(asc(bomLines.lineNo));
}
