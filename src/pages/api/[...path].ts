import type { APIRoute } from 'astro';
import { errorResponse } from '../../server/http/envelope.ts';
import { AppError } from '../../server/http/errors.ts';

/** Any `/api/…` path that no endpoint file answers. */
export const ALL: APIRoute = ({ locals }) => errorResponse(new AppError('unknown_endpoint'), locals.t);
