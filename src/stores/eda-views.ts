import { map } from 'nanostores';
import { $edaFocus, watchFocusLinks } from './eda-focus.ts';
import { $edaSelection, lineByDesignator, NO_SELECTION, selectPart, type EdaSelection } from './eda-selection.ts';
import type { BomLine, SchematicSheet, SchematicSymbol } from '../lib/contract/schemas/eda.ts';

/** The views of a design: its board(s), its sheets (with a schematic) and the board in 3D (with a model). */
export type EdaTab = 'board' | 'schematic' | 'model';

/** What `/eda/{id}?sheet=2&ref=U3` asks for: the schematic, on sheet 2, with U3 picked. */
export interface EdaAddress {
  tab: EdaTab;
  /** The page number of the sheet shown (the first sheet's when the address names none). */
  page: number;
  /** The part picked, as the schematic spells it; null when none (or one the schematic does not have). */
  ref: string | null;
}

/** The id of the section holding the tabs: what a tab's or a sheet's address scrolls to without JavaScript. */
export const VIEWS_ANCHOR = 'views';

/** The query parameters of the address that this page reads and writes; any others are left as they are. */
export const ADDRESS_PARAMS = { sheet: 'sheet', ref: 'ref', view: 'view' } as const;

/** The value of `?view=` that opens the board in 3D. */
export const MODEL_VIEW = '3d';

/** The symbol of `ref` (compared in upper case), preferring the one on `page` when a part is drawn on several sheets. */
export function findSymbol(symbols: readonly SchematicSymbol[], ref: string, page?: number): SchematicSymbol | undefined {
  const wanted = ref.trim().toUpperCase();
  if (!wanted) return undefined;
  const all = symbols.filter((symbol) => symbol.ref.toUpperCase() === wanted);
  return all.find((symbol) => symbol.sheet === page) ?? all[0];
}

/** The part a selection names: its reference, its symbol (if the schematic draws it) and its BOM line (if the BOM lists it). */
export interface PickedPart {
  ref: string;
  symbol: SchematicSymbol | undefined;
  line: BomLine | undefined;
}

/**
 * The part picked: the one named (`selection.ref`), else the first drawn of the BOM line picked
 * (the whole line picked in the table), else nothing.
 */
export function partOf(selection: EdaSelection, symbols: readonly SchematicSymbol[], lines: readonly BomLine[]): PickedPart | null {
  const lineOf = (lineNo: number | null) => (lineNo === null ? undefined : lines.find((line) => line.lineNo === lineNo));
  if (selection.ref) {
    const upper = selection.ref.toUpperCase();
    const line = lineOf(selection.lineNo) ?? lines.find((candidate) => candidate.designators.some((designator) => designator.toUpperCase() === upper));
    return { ref: selection.ref, symbol: findSymbol(symbols, selection.ref), line };
  }
  const line = lineOf(selection.lineNo);
  if (!line) return null;
  const drawn = line.designators.map((designator) => findSymbol(symbols, designator)).find((symbol) => symbol !== undefined);
  return { ref: drawn?.ref ?? line.designators[0] ?? '', symbol: drawn, line };
}

/**
 * What an address asks for. `?sheet=N` or `?ref=X` opens the schematic: on sheet N (the first
 * sheet when N is not one of them), else on the sheet where X is drawn; a `ref` the schematic
 * does not have is dropped. Anything else opens the board.
 */
export function parseEdaAddress(params: URLSearchParams, sheets: readonly SchematicSheet[], symbols: readonly SchematicSymbol[], hasModel = false): EdaAddress {
  const first = sheets[0]?.page ?? 1;
  // `?view=3d` opens the board in 3D when there is one.
  if (hasModel && params.get(ADDRESS_PARAMS.view) === MODEL_VIEW) return { tab: 'model', page: first, ref: null };
  const sheetParam = params.get(ADDRESS_PARAMS.sheet);
  const refParam = params.get(ADDRESS_PARAMS.ref);
  if (sheets.length === 0 || (sheetParam === null && refParam === null)) return { tab: 'board', page: first, ref: null };
  const asked = sheetParam !== null && /^\d+$/.test(sheetParam.trim()) ? Number(sheetParam) : null;
  const named = asked !== null && sheets.some((sheet) => sheet.page === asked) ? asked : null;
  const symbol = refParam ? findSymbol(symbols, refParam, named ?? undefined) : undefined;
  return { tab: 'schematic', page: named ?? symbol?.sheet ?? first, ref: symbol?.ref ?? null };
}

/**
 * The query string (with its `?`, or empty) of the address that shows `state`, keeping the
 * parameters this page does not own: the board drops `sheet` and `ref`; the schematic names its
 * sheet and the part picked, if any.
 */
export function edaAddress(search: string, state: EdaAddress): string {
  const params = new URLSearchParams(search);
  params.delete(ADDRESS_PARAMS.sheet);
  params.delete(ADDRESS_PARAMS.ref);
  params.delete(ADDRESS_PARAMS.view);
  if (state.tab === 'model') params.set(ADDRESS_PARAMS.view, MODEL_VIEW);
  if (state.tab === 'schematic') {
    params.set(ADDRESS_PARAMS.sheet, String(state.page));
    if (state.ref) params.set(ADDRESS_PARAMS.ref, state.ref);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

export interface EdaViewsInit {
  sheets: SchematicSheet[];
  symbols: SchematicSymbol[];
  lines: BomLine[];
  /** What the address asked for when the page was rendered (the server reads it with `parseEdaAddress`). */
  initial: EdaAddress;
}

export interface EdaViewsState {
  tab: EdaTab;
  page: number;
  /** Whether the schematic has been opened since the page loaded: its viewer's code is fetched then, and kept. */
  opened: boolean;
  /** Whether the 3D view has been opened since the page loaded: three.js is fetched then, never before. */
  modelOpened: boolean;
}

/**
 * The board and schematic tabs of one `/eda/{id}` page and the sheet shown: opened from the
 * address, switched by the tabs, the sheet list, a design-check link or a part picked elsewhere,
 * and written back to the address (`history.replaceState`) so that what is shown can be shared.
 */
export function createEdaViews({ sheets, symbols, lines, initial }: EdaViewsInit) {
  const $views = map<EdaViewsState>({ tab: initial.tab, page: initial.page, opened: initial.tab === 'schematic', modelOpened: initial.tab === 'model' });
  const lineIndex = lineByDesignator(lines);
  const hasPage = (page: number) => sheets.some((sheet) => sheet.page === page);

  const showTab = (tab: EdaTab) => {
    $views.setKey('tab', tab);
    if (tab === 'schematic') $views.setKey('opened', true);
    if (tab === 'model') $views.setKey('modelOpened', true);
  };
  /** Turns the schematic to sheet `page`, without opening it (a part picked on the board waits there). */
  const turnTo = (page: number) => {
    if (hasPage(page)) $views.setKey('page', page);
  };
  const showSheet = (page: number) => {
    if (!hasPage(page)) return;
    turnTo(page);
    showTab('schematic');
  };

  /** The address of what is shown now. */
  const current = (): EdaAddress => {
    const { tab, page } = $views.get();
    const ref = $edaSelection.get().ref;
    // A part picked on another sheet is not this sheet's: the address names the sheet alone.
    const symbol = ref ? findSymbol(symbols, ref, page) : undefined;
    return { tab, page, ref: symbol && symbol.sheet === page ? symbol.ref : null };
  };

  return {
    $views,
    showTab,
    showSheet,
    turnTo,
    /** The part `ref` in the schematic: its sheet, picked (the viewer centres it). */
    showPartInSchematic(ref: string): void {
      const symbol = findSymbol(symbols, ref, $views.get().page);
      if (!symbol) return;
      selectPart(symbol.ref, lineIndex[symbol.ref.toUpperCase()] ?? null, 'address');
      showSheet(symbol.sheet);
    },
    /** Whether the schematic draws the part `ref`. */
    hasSymbol: (ref: string) => findSymbol(symbols, ref) !== undefined,
    current,
    /** In the browser: the part the address names is picked, and from then on the address follows what is shown. */
    start(): () => void {
      if (initial.ref) selectPart(initial.ref, lineIndex[initial.ref.toUpperCase()] ?? null, 'address');
      const write = () => {
        const search = edaAddress(location.search, current());
        if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
      };
      const stopViews = $views.listen(write);
      const stopSelection = $edaSelection.listen(write);
      // A check's place opens the view that shows it; the viewer there centres it.
      const stopFocus = $edaFocus.subscribe((focus) => {
        if (focus?.on === 'board') showTab('board');
        else if (focus?.on === 'sheet') showSheet(focus.page);
      });
      const stopLinks = watchFocusLinks();
      // `?ref=U3` alone becomes `?sheet=2&ref=U3`: the address names what is shown.
      write();
      return () => {
        stopViews();
        stopSelection();
        stopFocus();
        stopLinks();
        $edaSelection.set(NO_SELECTION);
      };
    },
  };
}

export type EdaViews = ReturnType<typeof createEdaViews>;
