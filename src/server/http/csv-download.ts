import type { APIRoute } from 'astro';
import type { z } from 'zod';
import { contentDisposition } from './content-disposition.ts';
import { errorResponse } from './envelope.ts';
import { AppError } from './errors.ts';

/**
 * A route answering a CSV file made from its query (checked with `query`): an export for a
 * distributor or a fab, cached a minute like the page it belongs to. A bad query or a missing
 * project answers the error envelope.
 */
export function csvDownload<S extends z.ZodType>(query: S, produce: (id: string, input: z.output<S>) => Promise<{ filename: string; csv: string }>): APIRoute {
  return async ({ params, url, locals }) => {
    try {
      const parsed = query.safeParse(Object.fromEntries(url.searchParams));
      if (!parsed.success) throw new AppError('validation', Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? 'query'), 'invalid_value'])));
      const { filename, csv } = await produce(params.id ?? '', parsed.data);
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
}
