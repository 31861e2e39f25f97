import type { APIRoute } from 'astro';
import { feedAnswer } from '../../../server/http/crawler-answers.ts';

/** Atom of a member's newest projects; a former address leads to the current one. */
export const GET: APIRoute = (context) => feedAnswer(context, { kind: 'member', url: context.params.url ?? '' });
