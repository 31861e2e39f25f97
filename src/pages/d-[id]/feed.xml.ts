import type { APIRoute } from 'astro';
import { projectFeedAnswer } from '../../server/http/crawler-answers.ts';

/** Atom of a project's build logs. */
export const GET: APIRoute = (context) => projectFeedAnswer(context, context.params.id ?? '');
