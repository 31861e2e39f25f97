import { Readable } from 'node:stream';
import type { APIRoute } from 'astro';
import { contentDisposition } from '../../../server/http/content-disposition.ts';
import { errorResponse } from '../../../server/http/envelope.ts';
import { streamFabricationZip } from '../../../server/services/eda/index.ts';

/** `GET /eda/{id}/fabrication.zip`: every fabrication file of the project in one download. */
export const GET: APIRoute = async ({ params, locals }) => {
  try {
    const { filename, stream } = await streamFabricationZip(params.id ?? '');
    return new Response(Readable.toWeb(stream) as ReadableStream, {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': contentDisposition(filename),
        'cache-control': 'public, max-age=60',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (error) {
    return errorResponse(error, locals.t);
  }
};
