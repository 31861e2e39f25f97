/**
 * A member's page from the guest page. A page whose route is `fillable` differs for a member only
 * in known places (the header, a card's save button, …): a guest render for the cache marks each
 * place with its name and arguments, the page cache keeps that marked copy beside the one it serves
 * to guests, and a member's request is answered by filling the places with a render of those
 * places alone, made for the member (`src/pages/places-fill.astro`). Nothing of the member enters
 * the cache: the fill is made per request and sent privately.
 *
 * Pieces of two renders joined this way need their React islands tidied: each render numbers its
 * islands from `r0` (the `prefix` React derives `useId` values from) and writes Astro's island
 * runtime before its own first island. `fillTemplate` renumbers the islands in page order and
 * writes the runtime once, before the page's first island, as one render of the whole page does.
 */

const OPEN = '<!--place:';
const CLOSE = '<!--/place-->';
/** Between the places of a places render: one before each. */
export const PLACE_SEPARATOR = '<!--place-->';

/** A place as a page names it: what to render there, from what. */
export interface PlaceCall {
  name: string;
  args: Record<string, unknown>;
}

/** The marks around a place in a guest render for the cache. */
export function placeOpenMark(name: string, args: Record<string, unknown>): string {
  // encodeURIComponent leaves no `>`: nothing in the arguments can end the comment early.
  return `${OPEN}${name}:${encodeURIComponent(JSON.stringify(args))}-->`;
}
export const placeCloseMark = CLOSE;

/** A marked guest page taken apart: `segments` around `places` (one more segment than places). */
export interface PlacedTemplate {
  segments: string[];
  places: PlaceCall[];
}

/** Whether a render carries places. */
export function hasPlaces(html: string): boolean {
  return html.includes(OPEN);
}

/**
 * Reads a marked page: the page as guests get it (the marks taken out, the guest's content of each
 * place kept) and its template, or null for the template when the marks do not pair up.
 */
export function readMarkedPage(html: string): { guest: string; template: PlacedTemplate | null } {
  const segments: string[] = [];
  const places: PlaceCall[] = [];
  let guest = '';
  let from = 0;
  let broken = false;
  for (;;) {
    const open = html.indexOf(OPEN, from);
    if (open === -1) break;
    const openEnd = html.indexOf('-->', open + OPEN.length);
    const close = openEnd === -1 ? -1 : html.indexOf(CLOSE, openEnd + 3);
    if (close === -1) {
      broken = true;
      break;
    }
    const mark = html.slice(open + OPEN.length, openEnd);
    const colon = mark.indexOf(':');
    let args: unknown = null;
    try {
      args = JSON.parse(decodeURIComponent(mark.slice(colon + 1)));
    } catch {
      broken = true;
    }
    if (colon <= 0 || !args || typeof args !== 'object') broken = true;
    const before = html.slice(from, open);
    segments.push(before);
    places.push({ name: mark.slice(0, colon), args: (args ?? {}) as Record<string, unknown> });
    guest += before + html.slice(openEnd + 3, close);
    from = close + CLOSE.length;
  }
  segments.push(html.slice(from));
  guest += html.slice(from);
  if (broken) return { guest: stripMarks(html), template: null };
  return { guest, template: places.length > 0 ? { segments, places } : null };
}

/** Takes every mark out (for a page whose marks could not be read). */
function stripMarks(html: string): string {
  return html.replace(/<!--place:[^>]*?-->|<!--\/place-->/g, '');
}

/**
 * The places render's output cut into one fragment per place, or null when it does not have as
 * many as the template asks for (then the page is rendered for the member in full).
 */
export function splitPlaces(rendered: string, count: number): string[] | null {
  const parts = rendered.split(PLACE_SEPARATOR);
  // Whatever Astro writes before the first place (nothing, or head links of the places page) is not part of any.
  const fragments = parts.slice(1);
  return fragments.length === count ? fragments : null;
}

/** The guest page with each place filled with its fragment for the member, islands tidied. */
export function fillTemplate(template: PlacedTemplate, fragments: string[]): string {
  const pieces: string[] = [];
  template.segments.forEach((segment, index) => {
    pieces.push(segment);
    if (index < fragments.length) pieces.push(fragments[index]!);
  });
  return tidyIslands(pieces);
}

// Astro's island runtime, as it writes it before a render's first island (`getPrescripts`): the
// islands' style, the first island's directive script, then the custom element itself; the
// script of each further directive before the first island using it.
const ISLAND_STYLE = /<style>astro-island,astro-slot,astro-static-slot\{display:contents\}<\/style>/g;
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;
const DIRECTIVE_NAME = /\(self\.Astro\|\|\(self\.Astro=\{\}\)\)\.(\w+)=/;
const ISLAND_TAG = /<astro-island\b[^>]*?\bclient="([^"]*)"/g;

/**
 * Joins pieces of different renders (each with islands numbered from `r0` and runtime scripts of
 * its own) into one page: islands renumbered in page order, the runtime written as one render
 * would. A single piece comes out with the same runtime and its islands numbered in page order.
 */
export function tidyIslands(pieces: string[]): string {
  let style = '';
  let runtime = '';
  const directives = new Map<string, string>();
  const stripRuntime = (piece: string) =>
    piece
      .replace(ISLAND_STYLE, (found) => {
        style = found;
        return '';
      })
      .replace(INLINE_SCRIPT, (found, body: string) => {
        const directive = DIRECTIVE_NAME.exec(body)?.[1];
        if (directive && !body.includes('customElements')) {
          directives.set(directive, found);
          return '';
        }
        if (body.includes('customElements') && body.includes('astro-island')) {
          runtime = found;
          return '';
        }
        return found;
      });
  // Most pieces of a guest page hold no island and no inline script: left as they are, unread.
  const stripped = pieces.map((piece) => (piece.includes('<script>') || piece.includes('<style>astro-island') ? stripRuntime(piece) : piece));
  let next = 0;
  const renumbered = stripped.map((piece) => {
    if (!piece.includes('<astro-island')) return piece;
    // Within one render each prefix is one island's: `prefix="r3"` and its `useId` values `_r3R_…`.
    const names = new Map<string, string>();
    for (const match of piece.matchAll(/<astro-island\b[^>]*?\bprefix="(r\d+)"/g)) names.set(match[1]!, `r${next++}`);
    if (names.size === 0) return piece;
    return piece.replace(/(\bprefix=")(r\d+)(")|(_)(r\d+)(R_)/g, (found, a: string | undefined, p1: string | undefined, b: string | undefined, c: string | undefined, p2: string | undefined, d: string | undefined) => {
      const old = p1 ?? p2!;
      const renamed = names.get(old);
      if (!renamed) return found;
      return p1 !== undefined ? `${a}${renamed}${b}` : `${c}${renamed}${d}`;
    });
  });
  const html = renumbered.join('');
  if (!runtime) return html;
  const seen = new Set<string>();
  let first = true;
  return html.replace(ISLAND_TAG, (tag, directive: string) => {
    let before = '';
    if (first) {
      before = `${style}${directives.get(directive) ?? ''}${runtime}`;
      first = false;
    } else if (!seen.has(directive)) {
      before = directives.get(directive) ?? '';
    }
    seen.add(directive);
    return before + tag;
  });
}
