import type { APIContext, APIRoute } from 'astro';
import type { z } from 'zod';
import type { ServerErrorKey } from '../../lib/contract/errors.ts';
import type { UserRole } from '../db/schema/index.ts';
import { requireRole } from '../services/accounts/index.ts';
import type { SessionUser } from '../services/accounts/index.ts';
import { errorResponse, ok } from './envelope.ts';
import { CACHE_RENDER_HEADER, PAGE_EXPIRES_HEADER, PAGE_TAGS_HEADER } from '../page-cache/key.ts';
import { pageTags, purgePages } from '../page-cache/tags.ts';
import { AppError } from './errors.ts';
import { parseInput } from './validation.ts';

export type Method = 'GET' | 'POST';

/** The groups of the API reference (`/api/docs`), one per resource. */
export const API_TAGS = {
  projects: 'Published projects: lists, search, a project, stars and likes',
  release: 'Publishing: save, edit, preview',
  drafts: 'The draft box ("temporary")',
  comments: 'Comments and replies on projects',
  logs: 'Build logs: dated entries a project’s owner posts as the work goes on',
  messages: 'A member’s notifications',
  makes: 'Makes (“I built this”) and remixes of projects',
  users: 'Members and profiles',
  follows: 'Following members, projects and tags; the Following feed',
  tags: 'The tag tree',
  uploads: 'Files: images and attachments',
  eda: 'Boards, BOMs and fabrication files of a project',
  versions: 'A project’s versions, their files, and what changed between two (BOM and boards)',
  videos: 'Videos: resumable uploads, lists, signed playback',
  sso: 'Sign-in, sign-up and sessions',
  site: 'Banners and donations',
  moderation: 'Reports by members; the moderation queue, hiding and restoring content, suspensions and the audit log (staff)',
  collections: 'Members’ own collections of projects: create, add, reorder, share',
  staff: 'Staff tools for content: banners, collections, pinned recommendations, the tag tree (admins)',
  meta: 'This description of the API',
} as const;
export type ApiTag = keyof typeof API_TAGS;

/**
 * What the API reference says about an endpoint besides what its schemas say. Kept with the
 * endpoint, so documenting it is part of writing it; `/api/openapi.json` is built from these.
 */
export interface EndpointDocs {
  summary: string;
  description?: string;
  tag: ApiTag;
  /** `optional`: a guest may call it, a signed-in member gets more (their own unfinished items, `viewer`). Ignored with `auth: true`. */
  session?: 'optional';
  /** Error keys this endpoint answers besides the ones every endpoint of its kind does (validation, sign-in, method…). */
  errors?: ServerErrorKey[];
  /** A request that succeeds against the demo content; `EXAMPLE_IDS` values stand for real ids (see `src/lib/contract/schemas/examples.ts`). */
  example?: Record<string, unknown>;
  /** A request body that is not JSON (multipart uploads): its media type and fields. */
  body?: { contentType: string; schema: z.ZodType };
  /** An answer that is not the JSON envelope (a file): its media type. */
  file?: { contentType: string; description: string };
}

/** Everything the API reference needs to know about one endpoint: the same objects it runs with. */
export interface EndpointContract {
  methods: Method[];
  auth: 'required' | 'optional' | 'none';
  /** Staff endpoints: the role the member needs. */
  role?: Exclude<UserRole, 'member'>;
  input: z.ZodType | undefined;
  result: z.ZodType;
  docs: EndpointDocs;
}

interface EndpointOptions<S extends z.ZodType, R extends z.ZodType, A extends boolean> {
  /** `true`: a valid token is required (401 otherwise). */
  auth?: A;
  /** A staff endpoint (with `auth: true`): the member's role must include this one (403 `forbidden` otherwise). */
  role?: Exclude<UserRole, 'member'>;
  /** Read endpoints also answer GET with query parameters; writes are POST only. */
  methods?: Method[];
  input?: S;
  /** What `result` holds on success: the handler must return this (checked by the compiler, and by the contract test on the wire). */
  result: R;
  docs: EndpointDocs;
  /** The handler reads the request body itself (multipart uploads); no JSON parsing. */
  rawBody?: boolean;
  /**
   * A public read the page cache may keep (its path is in `CACHED_API_READS`): the purge tags of
   * what the answer shows (the same as the pages showing it), and when it changes by itself.
   * Only the cache's own renders are tagged: a guest's, kept for everyone, and a member's where
   * the cache asks (a read with their own flags, kept for them alone).
   */
  publicCache?: (args: { input: z.output<S>; result: z.input<R>; context: APIContext }) => PublicCache | Promise<PublicCache>;
  handler: (args: {
    input: z.output<S>;
    user: A extends true ? SessionUser : SessionUser | null;
    context: APIContext;
  }) => Promise<z.input<R> | Response> | z.input<R> | Response;
}

/** What a cacheable answer shows, as page-cache tags, and when it stops being true by itself. */
export interface PublicCache {
  tags: string[];
  expiresAt?: Date | null;
}

export type EndpointHandlers = Partial<Record<Method | 'ALL', APIRoute>> & { contract: EndpointContract };

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
    // JSON may escape half a surrogate pair (`"\ud800"`), which no text column or jsonb value
    // can hold: each becomes U+FFFD here, so every rule downstream sees well-formed text.
    return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' ? value.toWellFormed() : value));
  } catch {
    throw new AppError('bad_request');
  }
}

/**
 * Builds the handlers of one API endpoint: parse (query or JSON body) → validate → handler →
 * `{ retCode: 0, result }`, with every error turned into the envelope in one place. `contract`
 * carries the schemas and docs to the API reference (`src/server/http/api-registry.ts`).
 */
export function defineEndpoint<S extends z.ZodType, R extends z.ZodType, A extends boolean = false>(
  options: EndpointOptions<S, R, A>,
): EndpointHandlers {
  const methods = options.methods ?? ['POST'];
  // Reads also answer GET; an endpoint that answers only POST writes.
  const writes = !methods.includes('GET');
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
      // A member's write may change what their own kept pages show of them (a star, a follow).
      if (writes && context.locals.user) purgePages(pageTags.member(context.locals.user.id));
      if (result instanceof Response) return result;
      // Tags are asked only for the cache's own renders (the middleware drops them from any other
      // answer): of a guest's read, kept for everyone, or of a member's where the cache says so
      // (`member`: an answer with their own flags, kept for them alone).
      const renderedFor = context.request.headers.get(CACHE_RENDER_HEADER);
      if (options.publicCache && (renderedFor === 'member' ? context.locals.user !== null : renderedFor !== null && !context.locals.user)) {
        const cache = await options.publicCache({ input, result, context });
        const headers: Record<string, string> = { [PAGE_TAGS_HEADER]: [...new Set(cache.tags)].join(' ') };
        if (cache.expiresAt) headers[PAGE_EXPIRES_HEADER] = String(cache.expiresAt.getTime());
        return ok(result, { headers });
      }
      return ok(result);
    } catch (error) {
      return errorResponse(error, context.locals.t);
    }
  };
  const contract: EndpointContract = {
    methods,
    auth: options.auth ? 'required' : (options.docs.session ?? 'none'),
    ...(options.role ? { role: options.role } : {}),
    input: options.input,
    result: options.result,
    docs: options.docs,
  };
  const handlers: EndpointHandlers = { contract };
  for (const method of methods) handlers[method] = run;
  handlers.ALL = (context) => errorResponse(new AppError('method_not_allowed'), context.locals.t);
  return handlers;
}
