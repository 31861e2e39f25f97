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

/**
 * A marked guest page taken apart: its `places`, and the bytes of the page around them (one
 * segment more than places). The segments are made ready for fills (`readyOf`: Astro's island
 * runtime taken out of them, their islands found) by the first fill, not when the page is kept:
 * most kept pages are never filled, and a page's bytes need not become text to be kept.
 */
export interface PlacedTemplate {
  places: PlaceCall[];
  /** The page's bytes around the places, until the first fill makes them `ready` (then let go). */
  segments: Buffer[];
  /** Read through `readyOf` only: unset until the first fill. */
  ready?: { pieces: Piece[]; runtime: Runtime; nextIsland: number };
}

/** Whether a render's bytes carry places. */
export function hasPlaces(page: Buffer): boolean {
  return page.includes(OPEN);
}

/**
 * Reads a marked page's bytes: the page as guests get it (the marks taken out, the guest's content
 * of each place kept) and its template, or null for the template when the marks do not pair up.
 * Only the marks are read as text; the rest stays bytes (Buffer searches by UTF-8 bytes).
 */
export function readMarkedPage(page: Buffer): { guest: Buffer; template: PlacedTemplate | null } {
  const segments: Buffer[] = [];
  const places: PlaceCall[] = [];
  const guest: Buffer[] = [];
  let from = 0;
  let broken = false;
  for (;;) {
    const open = page.indexOf(OPEN, from);
    if (open === -1) break;
    const openEnd = page.indexOf('-->', open + OPEN.length);
    const close = openEnd === -1 ? -1 : page.indexOf(CLOSE, openEnd + 3);
    if (close === -1) {
      broken = true;
      break;
    }
    const mark = page.toString('utf8', open + OPEN.length, openEnd);
    const colon = mark.indexOf(':');
    let args: unknown = null;
    try {
      args = JSON.parse(decodeURIComponent(mark.slice(colon + 1)));
    } catch {
      broken = true;
    }
    if (colon <= 0 || !args || typeof args !== 'object') broken = true;
    const before = page.subarray(from, open);
    segments.push(before);
    places.push({ name: mark.slice(0, colon), args: (args ?? {}) as Record<string, unknown> });
    guest.push(before, page.subarray(openEnd + 3, close));
    from = close + CLOSE.length;
  }
  if (broken) return { guest: Buffer.from(stripMarks(page.toString('utf8'))), template: null };
  const rest = page.subarray(from);
  segments.push(rest);
  guest.push(rest);
  return { guest: Buffer.concat(guest), template: places.length > 0 ? { places, segments } : null };
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

/**
 * The guest page with each place filled with its fragment for the member, islands tidied: the
 * fragments' islands numbered after the guest page's own (each render numbers from `r0`), and
 * Astro's runtime written once, before the page's first island. The segments are made ready
 * by the first fill of the page (`readyOf`), then only the fragments are read.
 */
export function fillTemplate(template: PlacedTemplate, fragments: string[]): string {
  const ready = readyOf(template);
  const runtime: Runtime = { ...ready.runtime, directives: new Map(ready.runtime.directives) };
  const pieces: Piece[] = [];
  let next = ready.nextIsland;
  ready.pieces.forEach((segment, index) => {
    pieces.push(segment);
    if (index >= fragments.length) return;
    const renumbered = renumberIslands(stripRuntime(fragments[index]!, runtime), next);
    next = renumbered.next;
    pieces.push(pieceOf(renumbered.html));
  });
  return joinWithRuntime(pieces, runtime);
}

// Astro's island runtime, as it writes it before a render's first island (`getPrescripts`): the
// islands' style, the first island's directive script, then the custom element itself; the
// script of each further directive before the first island using it.
const ISLAND_STYLE = /<style>astro-island,astro-slot,astro-static-slot\{display:contents\}<\/style>/g;
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;
const DIRECTIVE_NAME = /\(self\.Astro\|\|\(self\.Astro=\{\}\)\)\.(\w+)=/;
const ISLAND_TAG = /<astro-island\b[^>]*?\bclient="([^"]*)"/g;
const ISLAND_PREFIX = /<astro-island\b[^>]*?\bprefix="r(\d+)"/g;

/** Astro's island runtime as taken out of one or more renders. */
interface Runtime {
  style: string;
  runtime: string;
  /** Each client directive's script, by name (`load`, `idle`, `interaction`). */
  directives: Map<string, string>;
}

/** A piece of a page without runtime, and where its islands start (with each one's directive). */
interface Piece {
  html: string;
  islands: { at: number; directive: string }[];
}

function pieceOf(html: string): Piece {
  const islands = html.includes('<astro-island') ? [...html.matchAll(ISLAND_TAG)].map((match) => ({ at: match.index, directive: match[1]! })) : [];
  return { html, islands };
}

/** Takes Astro's runtime scripts out of a piece, into `runtime`. */
function stripRuntime(piece: string, runtime: Runtime): string {
  // Most pieces hold no island and no inline script: left as they are, unread.
  if (!piece.includes('<script>') && !piece.includes('<style>astro-island')) return piece;
  return piece
    .replace(ISLAND_STYLE, (found) => {
      runtime.style = found;
      return '';
    })
    .replace(INLINE_SCRIPT, (found, body: string) => {
      const directive = DIRECTIVE_NAME.exec(body)?.[1];
      if (directive && !body.includes('customElements')) {
        runtime.directives.set(directive, found);
        return '';
      }
      if (body.includes('customElements') && body.includes('astro-island')) {
        runtime.runtime = found;
        return '';
      }
      return found;
    });
}

/** Numbers a render's islands from `next` on, in the order they come. */
function renumberIslands(piece: string, next: number): { html: string; next: number } {
  if (!piece.includes('<astro-island')) return { html: piece, next };
  // Within one render each prefix is one island's: `prefix="r3"` and its `useId` values `_r3R_…`.
  const names = new Map<string, string>();
  for (const match of piece.matchAll(/<astro-island\b[^>]*?\bprefix="(r\d+)"/g)) names.set(match[1]!, `r${next++}`);
  if (names.size === 0) return { html: piece, next };
  const html = piece.replace(/(\bprefix=")(r\d+)(")|(_)(r\d+)(R_)/g, (found, a: string | undefined, p1: string | undefined, b: string | undefined, c: string | undefined, p2: string | undefined, d: string | undefined) => {
    const renamed = names.get(p1 ?? p2!);
    if (!renamed) return found;
    return p1 !== undefined ? `${a}${renamed}${b}` : `${c}${renamed}${d}`;
  });
  return { html, next };
}

/** The pieces joined, the runtime written before the first island and each directive's script before the first island using it. */
function joinWithRuntime(pieces: Piece[], runtime: Runtime): string {
  if (!runtime.runtime) return pieces.map((piece) => piece.html).join('');
  const out: string[] = [];
  const seen = new Set<string>();
  let first = true;
  for (const piece of pieces) {
    let from = 0;
    for (const island of piece.islands) {
      let before = '';
      if (first) {
        before = `${runtime.style}${runtime.directives.get(island.directive) ?? ''}${runtime.runtime}`;
        first = false;
      } else if (!seen.has(island.directive)) {
        before = runtime.directives.get(island.directive) ?? '';
      }
      seen.add(island.directive);
      if (!before) continue;
      out.push(piece.html.slice(from, island.at), before);
      from = island.at;
    }
    out.push(from === 0 ? piece.html : piece.html.slice(from));
  }
  return out.join('');
}

/**
 * A template's segments made ready for fills, once (by its first fill). Its islands are numbered
 * after the highest of the segments: the guest's content of its places never reaches a filled
 * page, so its numbers are free.
 */
function readyOf(template: PlacedTemplate): NonNullable<PlacedTemplate['ready']> {
  if (template.ready) return template.ready;
  const runtime: Runtime = { style: '', runtime: '', directives: new Map() };
  const segments = template.segments.map((segment) => segment.toString('utf8'));
  let highest = -1;
  for (const segment of segments) for (const match of segment.matchAll(ISLAND_PREFIX)) highest = Math.max(highest, Number(match[1]));
  template.ready = { pieces: segments.map((segment) => pieceOf(stripRuntime(segment, runtime))), runtime, nextIsland: highest + 1 };
  // The text is the page from now on: its bytes (a slice of the marked render) are let go.
  template.segments = [];
  return template.ready;
}

/**
 * Joins pieces of different renders (each with islands numbered from `r0` and runtime scripts of
 * its own) into one page: islands renumbered in page order, the runtime written as one render
 * would. A single piece comes out with the same runtime and its islands numbered in page order
 * (as tests compare pages: the numbers mean nothing but "unique on this page").
 */
export function tidyIslands(pieces: string[]): string {
  const runtime: Runtime = { style: '', runtime: '', directives: new Map() };
  let next = 0;
  const ready = pieces.map((piece) => {
    const renumbered = renumberIslands(stripRuntime(piece, runtime), next);
    next = renumbered.next;
    return pieceOf(renumbered.html);
  });
  return joinWithRuntime(ready, runtime);
}
