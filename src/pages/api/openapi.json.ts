import type { APIRoute } from 'astro';
import { openApiJson } from '../../server/http/openapi.ts';
import { errorResponse } from '../../server/http/envelope.ts';
import { AppError } from '../../server/http/errors.ts';

/** `GET /api/openapi.json`: the OpenAPI 3.1 description of the API (see `src/server/http/openapi.ts`). */
export const GET: APIRoute = async () =>
  new Response(await openApiJson(), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
  });

/** Any other method: the API's own envelope, like every endpoint. */
export const ALL: APIRoute = ({ locals }) => errorResponse(new AppError('method_not_allowed'), locals.t);
