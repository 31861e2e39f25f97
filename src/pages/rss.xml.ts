import type { APIRoute } from 'astro';
import { feedAnswer } from '../server/http/crawler-answers.ts';

/** RSS 2.0 of the newest projects, kept for the readers subscribed before the Atom feeds. */
export const GET: APIRoute = (context) => feedAnswer(context, { kind: 'newest' }, 'rss');
