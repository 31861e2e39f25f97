import { atom, map } from 'nanostores';
import { $edaFocus, takeFocus } from './eda-focus.ts';
import { $edaSelection, lineByDesignator, NO_SELECTION, selectPart } from './eda-selection.ts';
import { createPanZoom, type Point, type Size, type View } from './eda-viewer.ts';
import { findSymbol, type EdaViews } from './eda-views.ts';
import type { BomLine, SchematicSheet, SchematicSymbol } from '../lib/contract/schemas/eda.ts';

/** A sheet may be zoomed further than a board: an A3 sheet on a phone needs ×10 to read its pin names. */
export const SHEET_MAX_SCALE = 40;
/** A part or a check shown on a sheet is zoomed to at least this many CSS pixels per millimetre (1.7 mm text ≈ 14 px). */
export const FOCUS_PX_PER_MM = 8;
/** A click picks the nearest symbol within this many millimetres, or this many CSS pixels when zoomed out. */
export const HIT_RADIUS_MM = 8;
export const HIT_RADIUS_PX = 24;

/** A rectangle on a sheet, in mm from its top-left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A millimetre point on a sheet. */
export interface SheetPoint {
  xMm: number;
  yMm: number;
}

/** A piece of text drawn on a sheet (a net label, a pin name, a note), where it is drawn. */
export interface SheetText extends SheetPoint {
  text: string;
  box: Box;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const attribute = (attributes: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];

/** The corners of `box` turned by `degrees` around `(cx, cy)`, as the box that holds them. */
function rotateBox(box: Box, degrees: number, cx: number, cy: number): Box {
  if (degrees % 360 === 0) return box;
  const angle = (degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const corners = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ].map(([x, y]) => [cx + (x! - cx) * cos - (y! - cy) * sin, cy + (x! - cx) * sin + (y! - cy) * cos] as const);
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

// KiCad draws its text as strokes, and writes each piece again as an invisible <text> (for
// search and copying), in mm, sometimes inside a <g transform="rotate(-90 cx cy)">.
const TEXT = /(?:<g\s+transform="rotate\(\s*(-?[\d.]+)[\s,]+(-?[\d.]+)[\s,]+(-?[\d.]+)\s*\)"\s*>\s*)?<text\b([^>]*)>([^<]*)<\/text>/g;

/** The pieces of text of a sheet SVG drawn by KiCad (`kicad-cli sch export svg`), with where each is drawn. */
export function parseSheetText(svg: string): SheetText[] {
  const texts: SheetText[] = [];
  for (const match of svg.matchAll(TEXT)) {
    const [, degrees, cx, cy, attributes = '', raw = ''] = match;
    const text = decodeEntities(raw).trim();
    const x = Number(attribute(attributes, 'x'));
    const y = Number(attribute(attributes, 'y'));
    if (!text || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    const size = Number(attribute(attributes, 'font-size')) || 1.27;
    const width = Number(attribute(attributes, 'textLength')) || size * 0.8 * text.length;
    const anchor = attribute(attributes, 'text-anchor');
    const left = anchor === 'middle' ? x - width / 2 : anchor === 'end' ? x - width : x;
    // The baseline is at y: capitals rise about one font size above it.
    const upright: Box = { x: left, y: y - size, width, height: size * 1.2 };
    const box = degrees === undefined ? upright : rotateBox(upright, Number(degrees), Number(cx), Number(cy));
    texts.push({ text, xMm: box.x + box.width / 2, yMm: box.y + box.height / 2, box });
  }
  return texts;
}

/** A search result: a symbol found by its reference or value, or a piece of text (a net label) on a sheet. */
export type SchematicMatch =
  | { kind: 'symbol'; ref: string; page: number; xMm: number; yMm: number }
  | { kind: 'text'; text: string; page: number; xMm: number; yMm: number; box: Box };

// The title block's own lines (kicad-cli writes them in English), and pin numbers and grid marks.
const TITLE_BLOCK = /^(Sheet|File|Title|Date|Rev|Size|Id|Comment\d*): |^KiCad E\.D\.A\./;
const NUMBER_ONLY = /^\d+$/;

/** Whether a piece of sheet text is worth finding: not a pin number, a grid mark or the title block. */
export function isSearchableText(text: string): boolean {
  return !NUMBER_ONLY.test(text) && !TITLE_BLOCK.test(text) && text.length > 1;
}

/**
 * Everything of the schematic that contains `query` (case aside): symbols by reference or value,
 * then text drawn on the sheets whose text is known (`texts`, by page): net labels, pin names,
 * notes. A symbol's own reference and value drawn on its sheet are found once, as the symbol.
 * Exact matches come first (typing `U3` goes to U3 before U30), the rest in reading order:
 * by sheet, then top to bottom, left to right.
 */
export function searchSchematic(query: string, symbols: readonly SchematicSymbol[], texts: ReadonlyMap<number, readonly SheetText[]>): SchematicMatch[] {
  const wanted = query.trim().toUpperCase();
  if (!wanted) return [];
  const found: Array<{ match: SchematicMatch; exact: boolean }> = [];
  const ownWords = new Map<number, Set<string>>();
  for (const symbol of symbols) {
    const words = ownWords.get(symbol.sheet) ?? new Set<string>();
    words.add(symbol.ref.toUpperCase()).add(symbol.value.toUpperCase());
    ownWords.set(symbol.sheet, words);
    const ref = symbol.ref.toUpperCase();
    const value = symbol.value.toUpperCase();
    if (ref.includes(wanted) || value.includes(wanted)) {
      found.push({ match: { kind: 'symbol', ref: symbol.ref, page: symbol.sheet, xMm: symbol.xMm, yMm: symbol.yMm }, exact: ref === wanted || value === wanted });
    }
  }
  for (const [page, pieces] of texts) {
    const words = ownWords.get(page);
    for (const piece of pieces) {
      const upper = piece.text.toUpperCase();
      if (!upper.includes(wanted) || !isSearchableText(piece.text) || words?.has(upper)) continue;
      found.push({ match: { kind: 'text', text: piece.text, page, xMm: piece.xMm, yMm: piece.yMm, box: piece.box }, exact: upper === wanted });
    }
  }
  return found
    .sort((a, b) => Number(b.exact) - Number(a.exact) || a.match.page - b.match.page || a.match.yMm - b.match.yMm || a.match.xMm - b.match.xMm)
    .map(({ match }) => match);
}

/** The match after (`+1`) or before (`-1`) `current`, round the end; the first (or last) when none is current. */
export function stepMatch(current: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0 || current >= count) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}

/** The symbol of `page` nearest to `point` within `radiusMm`, if any. */
export function symbolAt(symbols: readonly SchematicSymbol[], page: number, point: SheetPoint, radiusMm: number): SchematicSymbol | null {
  let best: SchematicSymbol | null = null;
  let bestDistance = radiusMm;
  for (const symbol of symbols) {
    if (symbol.sheet !== page) continue;
    const distance = Math.hypot(symbol.xMm - point.xMm, symbol.yMm - point.yMm);
    if (distance <= bestDistance) {
      best = symbol;
      bestDistance = distance;
    }
  }
  return best;
}

type SheetSize = Pick<SchematicSheet, 'widthMm' | 'heightMm'>;

/** The sheet point under `point` (viewport pixels) in `view`, the viewport `size` showing the whole `sheet` at scale 1. */
export function toSheetPoint(view: View, point: Point, size: Size, sheet: SheetSize): SheetPoint {
  return {
    xMm: ((point.x - view.x) / view.scale) * (sheet.widthMm / size.width),
    yMm: ((point.y - view.y) / view.scale) * (sheet.heightMm / size.height),
  };
}

/** Where a sheet point is drawn in the unzoomed viewport (pixels): what `centreOn` takes. */
export function toViewportPoint(point: SheetPoint, size: Size, sheet: SheetSize): Point {
  return { x: (point.xMm * size.width) / sheet.widthMm, y: (point.yMm * size.height) / sheet.heightMm };
}

/** The zoom at which a point shown on the sheet is readable: `FOCUS_PX_PER_MM`, and at least twice the whole sheet. */
export function focusScale(size: Size, sheet: SheetSize): number {
  const fitted = size.width / sheet.widthMm;
  return Math.min(SHEET_MAX_SCALE, Math.max(2, FOCUS_PX_PER_MM / (fitted || 1)));
}

/** Whether the sheet text of the schematic is being read for search. */
export type TextState = 'idle' | 'loading' | 'ready' | 'failed';

export interface SchematicSearch {
  query: string;
  matches: SchematicMatch[];
  /** The index of the match shown, -1 before Enter is pressed. */
  current: number;
  text: TextState;
}

/** Reads a sheet's SVG (its `/files/…` address) as text: `fetch` in the browser, a stand-in in tests. */
export type SheetFetcher = (url: string) => Promise<string>;

const fetchText: SheetFetcher = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  return response.text();
};

export interface SchematicViewerInit {
  sheets: SchematicSheet[];
  symbols: SchematicSymbol[];
  lines: BomLine[];
  /** The page's board/schematic tabs and the sheet they show. */
  views: EdaViews;
  fetchSheet?: SheetFetcher;
}

/**
 * One schematic viewer: zoom and pan of the sheet shown, search across the symbols and the
 * sheets' text with the match shown, a click that picks the symbol under it, and the part or
 * check place to bring to the middle once the viewport has a size (it may be hidden when asked).
 */
export function createSchematicViewer({ sheets, symbols, lines, views, fetchSheet = fetchText }: SchematicViewerInit) {
  const panZoom = createPanZoom(SHEET_MAX_SCALE);
  const $search = map<SchematicSearch>({ query: '', matches: [], current: -1, text: 'idle' });
  /** The place waiting to be centred, on its sheet. */
  const $target = atom<(SheetPoint & { page: number }) | null>(null);
  /** A check's place, marked on its sheet until another is shown. */
  const $marker = atom<(SheetPoint & { page: number }) | null>(null);
  const texts = new Map<number, SheetText[]>();
  const lineIndex = lineByDesignator(lines);
  const sheetOf = (page: number) => sheets.find((sheet) => sheet.page === page);

  const research = () => {
    const { query, current, matches } = $search.get();
    const next = searchSchematic(query, symbols, texts);
    // The match shown stays shown when more are found around it (the sheets' text arriving).
    const shown = matches[current];
    const same = shown ? next.findIndex((match) => match.page === shown.page && match.xMm === shown.xMm && match.yMm === shown.yMm) : -1;
    $search.set({ ...$search.get(), matches: next, current: same });
  };

  const loadTexts = async () => {
    if ($search.get().text !== 'idle') return;
    $search.setKey('text', 'loading');
    try {
      // One sheet at a time: the sheet shown first (the browser has it already), then the others in order.
      const page = views.$views.get().page;
      const ordered = [...sheets].sort((a, b) => Number(b.page === page) - Number(a.page === page) || a.page - b.page);
      for (const sheet of ordered) {
        texts.set(sheet.page, parseSheetText(await fetchSheet(sheet.svg)));
        research();
      }
      $search.setKey('text', 'ready');
    } catch {
      $search.setKey('text', 'failed');
    }
  };

  /** Brings `point` of `page` to the middle once the viewport is on screen, turning to that sheet. */
  const show = (page: number, point: SheetPoint) => {
    $target.set({ page, ...point });
    views.turnTo(page);
  };

  const goTo = (index: number) => {
    const match = $search.get().matches[index];
    $search.setKey('current', index);
    if (!match) return;
    show(match.page, match);
    if (match.kind === 'symbol') selectPart(match.ref, lineIndex[match.ref.toUpperCase()] ?? null, 'schematic');
  };

  /**
   * The viewport has `size`: a check's place or a part waiting to be shown on this sheet is
   * centred now, and the view is kept inside the viewport. Nothing happens while it is hidden.
   */
  /** The sheet the view was last made for: another sheet starts whole. */
  let settledPage: number | null = null;
  const settle = (size: Size): void => {
    if (size.width === 0 || size.height === 0) return;
    const focus = takeFocus('sheet');
    if (focus) {
      $marker.set(focus);
      show(focus.page, focus);
    }
    const target = $target.get();
    const page = views.$views.get().page;
    const sheet = sheetOf(page);
    const turned = settledPage !== null && settledPage !== page;
    settledPage = page;
    if (!target || target.page !== page || !sheet) {
      if (turned) panZoom.reset();
      else panZoom.fit(size);
      return;
    }
    $target.set(null);
    panZoom.centre(toViewportPoint(target, size, sheet), size, focusScale(size, sheet));
  };

  return {
    ...panZoom,
    $search,
    $target,
    $marker,
    setQuery(query: string): void {
      $search.set({ ...$search.get(), query, current: -1 });
      research();
      if (query.trim()) void loadTexts();
    },
    /** Enter (`1`) and Shift+Enter (`-1`) in the search field: the next or previous match, shown. */
    step(direction: 1 | -1): void {
      const { current, matches } = $search.get();
      goTo(stepMatch(current, matches.length, direction));
    },
    /** A click (not a drag) at `point`: picks the symbol under it, or nothing. */
    click(point: Point, size: Size): void {
      if (panZoom.dragged()) return;
      const page = views.$views.get().page;
      const sheet = sheetOf(page);
      if (!sheet || size.width === 0) return;
      const view = panZoom.$view.get();
      const at = toSheetPoint(view, point, size, sheet);
      const radius = Math.max(HIT_RADIUS_MM, (HIT_RADIUS_PX / view.scale) * (sheet.widthMm / size.width));
      const symbol = symbolAt(symbols, page, at, radius);
      if (symbol) selectPart(symbol.ref, lineIndex[symbol.ref.toUpperCase()] ?? null, 'schematic');
      else $edaSelection.set(NO_SELECTION);
    },
    /** A symbol brought to the middle of its sheet (the part's "Sheet" in its details). */
    showSymbol: (symbol: SchematicSymbol) => show(symbol.sheet, symbol),
    /** A sheet picked from the list: shown whole. */
    openSheet(page: number): void {
      $target.set(null);
      views.showSheet(page);
      panZoom.reset();
    },
    /**
     * In the browser (once the viewport is there), `measure` telling its size (zero while it is hidden): a part
     * picked elsewhere (the board, the BOM, the address) is looked up on its sheet, a check's
     * place waits for the viewer, and whatever waits is centred once the viewport is on screen.
     * `schedule` runs a function after the next layout (`requestAnimationFrame`).
     */
    follow(measure: () => Size, schedule: (run: () => void) => void = requestAnimationFrame): () => void {
      let queued = false;
      const settleSoon = () => {
        if (queued) return;
        queued = true;
        schedule(() => {
          queued = false;
          settle(measure());
        });
      };
      const followSelection = $edaSelection.subscribe((selection) => {
        if (selection.source === 'schematic' || selection.source === null) return;
        const page = views.$views.get().page;
        if (selection.ref) {
          const symbol = findSymbol(symbols, selection.ref, page);
          if (symbol) show(symbol.sheet, symbol);
        } else if (selection.lineNo !== null) {
          // A whole BOM line: its symbols are marked; the sheet changes only when none is on it.
          const line = lines.find((candidate) => candidate.lineNo === selection.lineNo);
          const drawn = symbols.filter((symbol) => line?.designators.some((designator) => designator.toUpperCase() === symbol.ref.toUpperCase()));
          if (drawn.length > 0 && !drawn.some((symbol) => symbol.sheet === page)) views.turnTo(drawn[0]!.sheet);
        }
        settleSoon();
      });
      const followFocus = $edaFocus.listen((focus) => {
        if (focus?.on === 'sheet') settleSoon();
      });
      // A new sheet starts whole, unless a place on it waits to be shown.
      const followViews = views.$views.listen(settleSoon);
      const followTarget = $target.listen(settleSoon);
      settleSoon();
      return () => {
        followSelection();
        followFocus();
        followViews();
        followTarget();
      };
    },
    /** The viewport changed size (shown, turned, resized): what waits is shown, the view kept within it. */
    settle,
  };
}

export type SchematicViewer = ReturnType<typeof createSchematicViewer>;
