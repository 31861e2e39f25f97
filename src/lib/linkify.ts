import { LinkifyIt } from 'linkify-it';

/** A piece of user text: plain text, or a link to render with `rel="nofollow ugc noopener"`. */
export type TextPart = { type: 'text'; text: string } | { type: 'link'; text: string; href: string };

const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true }).add('ftp:', null).add('//', null);

const CJK_BEFORE_SCHEME = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef](?=https?:\/\/|mailto:)/gi;

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Splits plain user text into text and link parts (http, https and e-mail addresses, also
 * without a scheme such as `github.com/x`). Nothing here is HTML: renderers escape every part,
 * so the text cannot inject markup.
 */
export function splitLinks(text: string): TextPart[] {
  // linkify-it wants a scheme after a space or punctuation; Chinese writes `见https://…` with
  // no space, so scan a copy where a CJK character before a scheme is a space (same offsets).
  const scanned = text.replace(CJK_BEFORE_SCHEME, ' ');
  const matches = linkify.test(scanned) ? (linkify.match(scanned) ?? []) : [];
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of matches) {
    const href = safeHref(match.url);
    if (!href) continue;
    if (match.index > last) parts.push({ type: 'text', text: text.slice(last, match.index) });
    parts.push({ type: 'link', text: text.slice(match.index, match.lastIndex), href });
    last = match.lastIndex;
  }
  if (last < text.length) parts.push({ type: 'text', text: text.slice(last) });
  return parts;
}
