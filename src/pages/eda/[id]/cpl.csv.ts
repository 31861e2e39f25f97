import { cplExportQuerySchema } from '../../../lib/contract/schemas/eda.ts';
import { csvDownload } from '../../../server/http/csv-download.ts';
import { exportProjectCpl } from '../../../server/services/eda/index.ts';

/** `GET /eda/{id}/cpl.csv?format=jlc`: the parts' placements as JLCPCB's assembly placement (CPL) file. */
export const GET = csvDownload(cplExportQuerySchema, (id) => exportProjectCpl(id));
