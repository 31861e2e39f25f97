import type { APIRoute } from 'astro';
import { feedAnswer } from '../../server/http/crawler-answers.ts';
import { z } from '../../server/http/validation.ts';

const tagSchema = z.string().trim().min(1).max(64);

/** Atom of the newest projects (`/newest`), or of a tag page's (`/newest?tag=` → `/newest/feed.xml?tag=`). */
export const GET: APIRoute = (context) => {
  const raw = context.url.searchParams.get('tag');
  if (raw === null) return feedAnswer(context, { kind: 'newest' });
  const tag = tagSchema.safeParse(raw);
  // A tag no tag can be is as missing as an unknown one.
  return feedAnswer(context, { kind: 'tag', slug: tag.success ? tag.data : '' });
};
