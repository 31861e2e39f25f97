import { LinkifyIt } from 'linkify-it';
import { splitText, type TextLink, type TextPart } from './text-links.ts';

export type { TextLink, TextPart };

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
 * The links in plain user text (http, https and e-mail addresses, also without a scheme such as
 * `github.com/x`), in order. Found on the server: comments carry them (`CommentItem.links`), so
 * the browser only cuts the text (`splitText`) and never downloads linkify-it.
 */
export function findLinks(text: string): TextLink[] {
  // linkify-it wants a scheme after a space or punctuation; Chinese writes `见https://…` with
  // no space, so scan a copy where a CJK character before a scheme is a space (same offsets).
  const scanned = text.replace(CJK_BEFORE_SCHEME, ' ');
  const matches = linkify.test(scanned) ? (linkify.match(scanned) ?? []) : [];
  const links: TextLink[] = [];
  for (const match of matches) {
    const href = safeHref(match.url);
    if (href) links.push({ start: match.index, end: match.lastIndex, href });
  }
  return links;
}

/** Plain user text cut into text and link parts. Nothing here is HTML: renderers escape every part. */
export function splitLinks(text: string): TextPart[] {
  return splitText(text, findLinks(text));
}
