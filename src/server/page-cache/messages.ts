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

/**
 * The page with each block of messages after the first of its language and namespace taken out:
 * as text, or as its bytes (a page kept as it was rendered is never decoded: a 50 KB page took a
 * tenth of a millisecond to make a string and bytes again). A page without a repeated block is
 * answered as it is.
 */
export function keepFirstMessageBlocks<Page extends string | Buffer>(page: Page): Page {
  // A Buffer is searched by the UTF-8 bytes of what is looked for, all ASCII here: offsets are
  // bytes in one, characters in the other, and never fall inside a character.
  const find = (text: string, from: number) => page.indexOf(text, from);
  const read = (from: number, to: number) => (typeof page === 'string' ? page.slice(from, to) : page.toString('utf8', from, to));
  let at = find(START, 0);
  if (at === -1) return page;
  const seen = new Set<string>();
  const kept: [number, number][] = [];
  let from = 0;
  while (at !== -1) {
    const nameEnd = find('"', at + START.length);
    const end = nameEnd === -1 ? -1 : find(END, nameEnd);
    // A block cut short is not one of ours: the rest is left as it is.
    if (end === -1) break;
    const name = read(at + START.length, nameEnd);
    if (seen.has(name)) {
      kept.push([from, at]);
      from = end + END.length;
    } else {
      seen.add(name);
    }
    at = find(START, end + END.length);
  }
  if (from === 0) return page;
  kept.push([from, page.length]);
  return (typeof page === 'string' ? kept.map(([start, stop]) => page.slice(start, stop)).join('') : Buffer.concat(kept.map(([start, stop]) => page.subarray(start, stop)))) as Page;
}
