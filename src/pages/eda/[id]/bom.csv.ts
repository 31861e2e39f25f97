import { bomExportQuerySchema } from '../../../lib/contract/schemas/eda.ts';
import { csvDownload } from '../../../server/http/csv-download.ts';
import { exportProjectBom } from '../../../server/services/eda/index.ts';

/** `GET /eda/{id}/bom.csv?format=jlc|lcsc|mouser|digikey|plain&boards=N`: the BOM as an ordering upload. */
export const GET = csvDownload(bomExportQuerySchema, (id, query) => exportProjectBom(id, query.format, query.boards));
