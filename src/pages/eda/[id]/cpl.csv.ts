import type { APIRoute } from 'astro';
import { cplExportQuerySchema as query } from '../../../lib/contract/schemas/eda.ts';
import { contentDisposition } from '../../../server/http/content-disposition.ts';
import { errorResponse } from '../../../server/http/envelope.ts';
import { AppError } from '../../../server/http/errors.ts';
import { exportProjectCpl } from '../../../server/services/eda/index.ts';

/** `GET /eda/{id}/cpl.csv?format=jlc`: the parts' placements as JLCPCB's assembly placement (CPL) file. */
export const GET: APIRoute = async ({ params, url, locals }) => {
  try {
    const parsed = query.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw new AppError('validation', Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? 'query'), 'invalid_value'])));
    const { filename, csv } = await exportProjectCpl(params.id ?? '');
    return new Response(csv, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': contentDisposition(filename),
        'cache-control': 'public, max-age=60',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (error) {
    return errorResponse(error, locals.t);
  }
};
