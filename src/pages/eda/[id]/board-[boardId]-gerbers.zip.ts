import { Readable } from 'node:stream';
import type { APIRoute } from 'astro';
import { contentDisposition } from '../../../server/http/content-disposition.ts';
import { answerDownload } from '../../../server/http/downloads.ts';
import { errorResponse } from '../../../server/http/envelope.ts';
import { AppError } from '../../../server/http/errors.ts';
import { findBoardGerbers } from '../../../server/services/eda/index.ts';

/**
 * `GET /eda/{id}/board-{boardId}-gerbers.zip`: one board's Gerber and drill files, the address a
 * fab (Aisler, PCBWay) fetches to open an order.
 */
export const GET: APIRoute = async ({ params, locals }) => {
  try {
    const boardId = /^[1-9]\d{0,9}$/.test(params.boardId ?? '') ? Number(params.boardId) : NaN;
    if (!Number.isSafeInteger(boardId) || boardId > 2_147_483_647) throw new AppError('not_found');
    const gerbers = await findBoardGerbers(params.id ?? '', boardId);
    if (gerbers.kind === 'stored') return await answerDownload(gerbers.file);
    return new Response(Readable.toWeb(gerbers.stream) as ReadableStream, {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': contentDisposition(gerbers.filename),
        'cache-control': 'public, max-age=60',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (error) {
    return errorResponse(error, locals.t);
  }
};
