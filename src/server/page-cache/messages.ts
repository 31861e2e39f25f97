/**
 * Islands' messages on the pages the cache keeps. A render writes the blocks of messages each
 * island reads before it (`islandMessageBlocks`), so a page with several islands holds some
 * namespaces several times (`errors` once per island); pieces of two renders joined by a fill hold
 * them once per render besides. The cache keeps the first block of each namespace and drops the
 * rest: the first comes before every island that reads it, as each island's own came before it.
 */
import { MESSAGES_ATTRIBUTE } from '../../lib/messages-ref.ts';

const START = `<script type="application/json" ${MESSAGES_ATTRIBUTE}="`;
const END = '</script>';

/** Whether a page holds blocks of messages (read as bytes, before it is made a string). */
export function hasMessageBlocks(body: Buffer): boolean {
  return body.includes(START);
}

/** `html` with each block of messages after the first of its language and namespace taken out. */
export function keepFirstMessageBlocks(html: string): string {
  let at = html.indexOf(START);
  if (at === -1) return html;
  const seen = new Set<string>();
  const kept: string[] = [];
  let from = 0;
  while (at !== -1) {
    const nameEnd = html.indexOf('"', at + START.length);
    const end = nameEnd === -1 ? -1 : html.indexOf(END, nameEnd);
    // A block cut short is not one of ours: the rest is left as it is.
    if (end === -1) break;
    const name = html.slice(at + START.length, nameEnd);
    if (seen.has(name)) {
      kept.push(html.slice(from, at));
      from = end + END.length;
    } else {
      seen.add(name);
    }
    at = html.indexOf(START, end + END.length);
  }
  if (from === 0) return html;
  kept.push(html.slice(from));
  return kept.join('');
}
