import type { APIRoute } from 'astro';
import { openApiJson } from '../../server/http/openapi.ts';

/** `GET /api/openapi.json`: the OpenAPI 3.1 description of the API (see `src/server/http/openapi.ts`). */
export const GET: APIRoute = async () =>
  new Response(await openApiJson(), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
  });
