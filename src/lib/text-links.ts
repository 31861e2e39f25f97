/** A link in plain user text: `text.slice(start, end)` (UTF-16 offsets) links to `href`. */
import type { z } from 'zod';
import type { textLinkSchema } from './contract/schemas/conversation.ts';

export type TextLink = z.infer<typeof textLinkSchema>;

/** A piece of user text: plain text, or a link to render with `rel="nofollow ugc noopener"`. */
export type TextPart = { type: 'text'; text: string } | { type: 'link'; text: string; href: string };

const SAFE_HREF = /^(https?:|mailto:)/i;

/**
 * `text` cut at its links (found on the server by `findLinks`, `src/lib/linkify.ts`, so that the
 * browser needs no link finder). Nothing here is HTML: renderers escape every part. A link out of
 * order, out of the text or to another scheme than http(s) or mailto stays plain text.
 */
export function splitText(text: string, links: readonly TextLink[]): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const { start, end, href } of links) {
    if (!(start >= last && end > start && end <= text.length) || !SAFE_HREF.test(href)) continue;
    if (start > last) parts.push({ type: 'text', text: text.slice(last, start) });
    parts.push({ type: 'link', text: text.slice(start, end), href });
    last = end;
  }
  if (last < text.length) parts.push({ type: 'text', text: text.slice(last) });
  return parts;
}
