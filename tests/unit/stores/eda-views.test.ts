import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $edaFocus } from '../../../src/stores/eda-focus.ts';
import { $edaSelection, NO_SELECTION, selectLine, selectPart } from '../../../src/stores/eda-selection.ts';
import { createEdaViews, edaAddress, findSymbol, parseEdaAddress, partOf } from '../../../src/stores/eda-views.ts';
import type { BomLine, SchematicSheet, SchematicSymbol } from '../../../src/lib/contract/schemas/eda.ts';

const sheet = (page: number, name: string): SchematicSheet => ({ name, page, path: '/', svg: `/files/${page}.svg`, widthMm: 297, heightMm: 210 });
const sheets = [sheet(1, 'root'), sheet(2, 'Power'), sheet(3, 'MCU')];
const symbol = (ref: string, page: number): SchematicSymbol => ({ ref, value: '10k', footprint: '', sheet: page, xMm: 10, yMm: 10, dnp: false });
const symbols = [symbol('U3', 2), symbol('R1', 1), symbol('R2', 3), symbol('U5', 1), symbol('U5', 3)];
const lines = [{ lineNo: 4, designators: ['R1', 'R2'], value: '10k' }, { lineNo: 5, designators: ['J9'] }] as BomLine[];
const params = (query: string) => new URLSearchParams(query);

describe('the address of /eda/{id}', () => {
  it('opens the board unless it names a sheet or a part', () => {
    expect(parseEdaAddress(params(''), sheets, symbols)).toEqual({ tab: 'board', page: 1, ref: null });
    expect(parseEdaAddress(params('utm=x'), sheets, symbols)).toEqual({ tab: 'board', page: 1, ref: null });
    // a design without sheets has no schematic to open
    expect(parseEdaAddress(params('sheet=2'), [], [])).toEqual({ tab: 'board', page: 1, ref: null });
  });

  it('opens the sheet it names with the part it names, whatever the case', () => {
    expect(parseEdaAddress(params('sheet=2&ref=U3'), sheets, symbols)).toEqual({ tab: 'schematic', page: 2, ref: 'U3' });
    expect(parseEdaAddress(params('sheet=2&ref=u3'), sheets, symbols)).toEqual({ tab: 'schematic', page: 2, ref: 'U3' });
    // a part alone opens its sheet; a part on several sheets opens the one named
    expect(parseEdaAddress(params('ref=R2'), sheets, symbols)).toEqual({ tab: 'schematic', page: 3, ref: 'R2' });
    expect(parseEdaAddress(params('sheet=3&ref=U5'), sheets, symbols)).toEqual({ tab: 'schematic', page: 3, ref: 'U5' });
  });

  it('falls back to what exists for a sheet or part that does not', () => {
    expect(parseEdaAddress(params('sheet=9'), sheets, symbols)).toEqual({ tab: 'schematic', page: 1, ref: null });
    expect(parseEdaAddress(params('sheet=two'), sheets, symbols)).toEqual({ tab: 'schematic', page: 1, ref: null });
    expect(parseEdaAddress(params('sheet=9&ref=U3'), sheets, symbols)).toEqual({ tab: 'schematic', page: 2, ref: 'U3' });
    expect(parseEdaAddress(params('sheet=3&ref=Q99'), sheets, symbols)).toEqual({ tab: 'schematic', page: 3, ref: null });
  });

  it('is written back keeping the parameters it does not own, and read again as it was written', () => {
    expect(edaAddress('', { tab: 'schematic', page: 2, ref: 'U3' })).toBe('?sheet=2&ref=U3');
    expect(edaAddress('?sheet=2&ref=U3', { tab: 'board', page: 2, ref: 'U3' })).toBe('');
    expect(edaAddress('?lang=zh&sheet=1', { tab: 'schematic', page: 3, ref: null })).toBe('?lang=zh&sheet=3');
    const written = edaAddress('', { tab: 'schematic', page: 3, ref: 'R2' });
    expect(parseEdaAddress(params(written), sheets, symbols)).toEqual({ tab: 'schematic', page: 3, ref: 'R2' });
  });
});

describe('the part a selection names', () => {
  it('is the part picked, its symbol and line, or the first drawn part of a line picked', () => {
    expect(findSymbol(symbols, 'u5', 3)?.sheet).toBe(3);
    expect(findSymbol(symbols, 'u5')?.sheet).toBe(1);
    expect(partOf({ lineNo: 4, ref: 'R2', source: 'board' }, symbols, lines)).toMatchObject({ ref: 'R2', symbol: { sheet: 3 }, line: { lineNo: 4 } });
    // a part the BOM does not list, and one the schematic does not draw
    expect(partOf({ lineNo: null, ref: 'U3', source: 'schematic' }, symbols, lines)).toMatchObject({ ref: 'U3', line: undefined });
    expect(partOf({ lineNo: 5, ref: null, source: 'table' }, symbols, lines)).toMatchObject({ ref: 'J9', symbol: undefined, line: { lineNo: 5 } });
    expect(partOf({ lineNo: 4, ref: null, source: 'table' }, symbols, lines)).toMatchObject({ ref: 'R1', symbol: { sheet: 1 } });
    expect(partOf(NO_SELECTION, symbols, lines)).toBeNull();
  });
});

describe('the board and schematic tabs', () => {
  let replaced: string[];

  beforeEach(() => {
    replaced = [];
    vi.stubGlobal('location', { pathname: '/eda/abc', search: '', hash: '' });
    vi.stubGlobal('history', {
      state: null,
      replaceState: (_state: unknown, _title: string, url: string) => {
        replaced.push(url);
        const [path, query = ''] = url.split('?');
        (location as { search: string }).search = query ? `?${query.split('#')[0]}` : '';
        void path;
      },
    });
    vi.stubGlobal('document', { addEventListener: () => undefined, removeEventListener: () => undefined });
    $edaSelection.set(NO_SELECTION);
    $edaFocus.set(null);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('open on what the address asked for, pick its part, and keep the address in step', () => {
    (location as { search: string }).search = '?ref=R2';
    const views = createEdaViews({ sheets, symbols, lines, initial: { tab: 'schematic', page: 3, ref: 'R2' } });
    expect(views.$views.get()).toEqual({ tab: 'schematic', page: 3, opened: true, modelOpened: false });
    const stop = views.start();
    expect($edaSelection.get()).toEqual({ lineNo: 4, ref: 'R2', source: 'address' });
    expect(replaced.at(-1)).toBe('/eda/abc?sheet=3&ref=R2');
    views.showSheet(2);
    // R2 is not on sheet 2: the address names the sheet alone
    expect(replaced.at(-1)).toBe('/eda/abc?sheet=2');
    selectPart('U3', null, 'schematic');
    expect(replaced.at(-1)).toBe('/eda/abc?sheet=2&ref=U3');
    views.showTab('board');
    expect(replaced.at(-1)).toBe('/eda/abc');
    stop();
  });

  it('fetch the schematic only once it is opened, and show a part picked on the board there on request', () => {
    const views = createEdaViews({ sheets, symbols, lines, initial: { tab: 'board', page: 1, ref: null } });
    const stop = views.start();
    expect(views.$views.get().opened).toBe(false);
    selectLine(4, 'table');
    views.showPartInSchematic('r2');
    expect(views.$views.get()).toEqual({ tab: 'schematic', page: 3, opened: true, modelOpened: false });
    expect($edaSelection.get()).toEqual({ lineNo: 4, ref: 'R2', source: 'address' });
    views.showTab('board');
    expect(views.$views.get().opened).toBe(true);
    expect(views.hasSymbol('J9')).toBe(false);
    stop();
  });

  it('open the 3D view from ?view=3d when there is a model, fetch it only once opened, and name it in the address', () => {
    expect(parseEdaAddress(new URLSearchParams('view=3d'), sheets, symbols, true)).toEqual({ tab: 'model', page: 1, ref: null });
    expect(parseEdaAddress(new URLSearchParams('view=3d'), sheets, symbols, false).tab).toBe('board');
    expect(edaAddress('?view=3d&x=1', { tab: 'board', page: 1, ref: null })).toBe('?x=1');
    expect(edaAddress('?sheet=2', { tab: 'model', page: 2, ref: null })).toBe('?view=3d');
    const views = createEdaViews({ sheets, symbols, lines, initial: { tab: 'board', page: 1, ref: null } });
    expect(views.$views.get().modelOpened).toBe(false);
    views.showTab('model');
    views.showTab('board');
    expect(views.$views.get()).toMatchObject({ tab: 'board', modelOpened: true, opened: false });
  });

  it('open the view a design check’s place is on', () => {
    const views = createEdaViews({ sheets, symbols, lines, initial: { tab: 'board', page: 1, ref: null } });
    const stop = views.start();
    $edaFocus.set({ on: 'sheet', page: 2, xMm: 5, yMm: 5 });
    expect(views.$views.get()).toMatchObject({ tab: 'schematic', page: 2 });
    $edaFocus.set({ on: 'board', xMm: 5, yMm: 5 });
    expect(views.$views.get()).toMatchObject({ tab: 'board', page: 2 });
    stop();
  });
});
