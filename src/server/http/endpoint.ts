import type { APIContext, APIRoute } from 'astro';
import type { z } from 'zod';
import type { UserRole } from '../db/schema/index.ts';
import { requireRole } from '../services/roles.ts';
import type { SessionUser } from '../services/sessions.ts';
import { errorResponse, ok } from './envelope.ts';
import { AppError } from './errors.ts';
import { parseInput } from './validation.ts';

type Method = 'GET' | 'POST';

interface EndpointOptions<S extends z.ZodType, R, A extends boolean> {
  /** `true`: a valid token is required (401 otherwise). */
  auth?: A;
  /** A staff endpoint (with `auth: true`): the member's role must include this one (403 `forbidden` otherwise). */
  role?: Exclude<UserRole, 'member'>;
  /** Read endpoints also answer GET with query parameters; writes are POST only. */
  methods?: Method[];
  input?: S;
  /** The handler reads the request body itself (multipart uploads); no JSON parsing. */
  rawBody?: boolean;
  handler: (args: {
    input: z.output<S>;
    user: A extends true ? SessionUser : SessionUser | null;
    context: APIContext;
  }) => Promise<R> | R;
}

function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    out[key] = values.length > 1 ? values : values[0]!;
  }
  return out;
}

async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  const text = await request.text();
  if (!text.trim()) return {};
  // JSON only: one input format (cross-site writes are refused before this, in src/server/http/csrf.ts).
  if (!type.includes('application/json')) throw new AppError('unsupported_type');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('bad_request');
  }
}

/**
 * Builds the handlers of one API endpoint: parse (query or JSON body) → validate → handler →
 * `{ retCode: 0, result }`, with every error turned into the envelope in one place.
 */
export function defineEndpoint<S extends z.ZodType, R, A extends boolean = false>(
  options: EndpointOptions<S, R, A>,
): Partial<Record<Method | 'ALL', APIRoute>> {
  const methods = options.methods ?? ['POST'];
  const run: APIRoute = async (context) => {
    try {
      if (options.auth && !context.locals.user) throw new AppError('unauthorized');
      if (options.role) requireRole(context.locals.user, options.role);
      const raw =
        context.request.method === 'GET' ? queryObject(context.url) : options.rawBody ? {} : await readBody(context.request);
      const input = options.input ? parseInput(options.input, raw) : (undefined as z.output<S>);
      const result = await options.handler({
        input,
        user: context.locals.user as A extends true ? SessionUser : SessionUser | null,
        context,
      });
      return result instanceof Response ? result : ok(result);
    } catch (error) {
      return errorResponse(error, context.locals.t);
    }
  };
  const handlers: Partial<Record<Method | 'ALL', APIRoute>> = {};
  for (const method of methods) handlers[method] = run;
  handlers.ALL = (context) => errorResponse(new AppError('method_not_allowed'), context.locals.t);
  return handlers;
}
