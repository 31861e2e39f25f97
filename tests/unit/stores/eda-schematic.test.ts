import { beforeEach, describe, expect, it } from 'vitest';
import { $edaFocus } from '../../../src/stores/eda-focus.ts';
import { $edaSelection, NO_SELECTION, selectLine, selectPart } from '../../../src/stores/eda-selection.ts';
import {
  createSchematicViewer, focusScale, isSearchableText, parseSheetText, searchSchematic, stepMatch, symbolAt, toSheetPoint, toViewportPoint, type SheetText,
} from '../../../src/stores/eda-schematic.ts';
import { createEdaViews } from '../../../src/stores/eda-views.ts';
import type { BomLine, SchematicSheet, SchematicSymbol } from '../../../src/lib/contract/schemas/eda.ts';

// As `kicad-cli sch export svg` writes text: an invisible <text> in mm beside the strokes that draw it.
const SVG = `<svg viewBox="0.0000 0.0000 279.4000 215.9000">
<g style="fill:none; stroke:#0F0F0F;">
<text x="43.1800" y="93.3767"
textLength="5.6461" font-size="1.6933" lengthAdjust="spacingAndGlyphs"
text-anchor="start" opacity="0" stroke-opacity="0">VIN_M</text>
<g class="stroked-text"><desc>VIN_M</desc>
<path d="M43.4011 91.9432" /></g>
<g transform="rotate(-90.000000 67.9450 128.7780)">
<text x="67.9450" y="129.4130"
textLength="2.5013" font-size="1.6933" lengthAdjust="spacingAndGlyphs"
text-anchor="end" opacity="0" stroke-opacity="0">VS</text>
</g>
<text x="105.4100" y="106.4300" textLength="39.8750" font-size="1.6933" lengthAdjust="spacingAndGlyphs" text-anchor="middle" opacity="0" stroke-opacity="0">Fan at 100% -&gt; &amp; more</text>
<text x="59.0550" y="130.5560" textLength="1.4127" font-size="1.6933" lengthAdjust="spacingAndGlyphs" text-anchor="middle" opacity="0" stroke-opacity="0">12</text>
<text x="160.4000" y="192.3500" textLength="24.2285" font-size="2.0000" lengthAdjust="spacingAndGlyphs" text-anchor="start" opacity="0" stroke-opacity="0">File: power.kicad_sch</text>
<text x="216.5857" y="67.9449" textLength="3.8922" font-size="1.6933" lengthAdjust="spacingAndGlyphs" text-anchor="middle" opacity="0" stroke-opacity="0">R15</text>
</g></svg>`;

const sheet = (page: number, name: string): SchematicSheet => ({ name, page, path: page === 1 ? '/' : `/${name}/`, svg: `/files/sheets/${page}.svg`, widthMm: 279.4, heightMm: 215.9 });
const sheets = [sheet(1, 'root'), sheet(2, 'Power'), sheet(3, 'ESP32')];
const symbol = (ref: string, value: string, page: number, xMm: number, yMm: number, dnp = false): SchematicSymbol => ({ ref, value, footprint: 'R_0402', sheet: page, xMm, yMm, dnp });
const symbols = [symbol('R15', '3.32k', 2, 217, 69), symbol('U3', 'TPS40305', 2, 120, 40), symbol('U30', 'ESP32-S3', 3, 100, 100), symbol('C1', '10u', 1, 50, 50), symbol('R2', '10k', 3, 20, 20)];
const lines = [{ lineNo: 1, designators: ['R15'], value: '3.32k' }, { lineNo: 2, designators: ['U3'] }, { lineNo: 3, designators: ['C1', 'R2'] }] as BomLine[];

describe('the text of a sheet drawn by KiCad', () => {
  const texts = parseSheetText(SVG);

  it('is read with where it is drawn, rotated text and entities included', () => {
    expect(texts.map((text) => text.text)).toEqual(['VIN_M', 'VS', 'Fan at 100% -> & more', '12', 'File: power.kicad_sch', 'R15']);
    const label = texts[0]!;
    expect(label.box.x).toBeCloseTo(43.18);
    expect(label.box.width).toBeCloseTo(5.6461);
    expect(label.box.y).toBeLessThan(93.3767);
    expect(label.box.y + label.box.height).toBeGreaterThan(93.3767);
    // Drawn upwards: the box is tall and narrow, below the rotation centre (as its strokes are).
    const vertical = texts[1]!;
    expect(vertical.box.height).toBeCloseTo(2.5013);
    expect(vertical.box.width).toBeLessThan(vertical.box.height);
    expect(vertical.box.y).toBeCloseTo(128.778, 2);
    expect(vertical.xMm).toBeCloseTo(67.945, 0);
    // Centred text spans both sides of its anchor.
    expect(texts[2]!.xMm).toBeCloseTo(105.41);
  });

  it('leaves pin numbers, the title block and single characters out of search', () => {
    expect(['VIN_M', 'VS', 'Fan at 100% -> & more'].every(isSearchableText)).toBe(true);
    expect(['12', 'File: power.kicad_sch', 'KiCad E.D.A. 9.0.8', 'A'].some(isSearchableText)).toBe(false);
  });
});

describe('search in the schematic', () => {
  const texts = new Map<number, SheetText[]>([[2, parseSheetText(SVG)]]);

  it('finds symbols by reference or value and net labels in the sheet text, exact matches first', () => {
    const found = searchSchematic('u3', symbols, texts);
    expect(found.map((match) => (match.kind === 'symbol' ? match.ref : match.text))).toEqual(['U3', 'U30']);
    expect(searchSchematic('10K', symbols, texts).map((match) => match.kind === 'symbol' && match.ref)).toEqual(['R2']);
    const label = searchSchematic('vin', symbols, texts);
    expect(label).toEqual([expect.objectContaining({ kind: 'text', text: 'VIN_M', page: 2 })]);
    expect(searchSchematic('  ', symbols, texts)).toEqual([]);
  });

  it('finds a symbol once, not again as its reference drawn on its sheet', () => {
    expect(searchSchematic('R15', symbols, texts).map((match) => match.kind)).toEqual(['symbol']);
    // pin numbers and the title block are not matches
    expect(searchSchematic('12', symbols, texts)).toEqual([]);
    expect(searchSchematic('power.kicad', symbols, texts)).toEqual([]);
  });

  it('lists the rest in reading order: by sheet, then from the top', () => {
    const all = searchSchematic('R', symbols, texts).filter((match) => match.kind === 'symbol');
    expect(all.map((match) => match.kind === 'symbol' && match.ref)).toEqual(['R15', 'R2']);
  });

  it('cycles the matches both ways, round the ends', () => {
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });
});

describe('where the reader points on a sheet', () => {
  const size = { width: 558.8, height: 431.8 }; // 2 px per mm
  const a4 = { widthMm: 279.4, heightMm: 215.9 };

  it('turns viewport pixels into sheet millimetres at any zoom, and back', () => {
    expect(toSheetPoint({ scale: 1, x: 0, y: 0 }, { x: 100, y: 50 }, size, a4)).toEqual({ xMm: 50, yMm: 25 });
    // zoomed ×4 and moved: the point under (100, 50) is (100 + 400) / 4 / 2 mm from the left
    const at = toSheetPoint({ scale: 4, x: -400, y: -200 }, { x: 100, y: 50 }, size, a4);
    expect(at.xMm).toBeCloseTo(62.5);
    expect(at.yMm).toBeCloseTo(31.25);
    expect(toViewportPoint({ xMm: 50, yMm: 25 }, size, a4)).toEqual({ x: 100, y: 50 });
  });

  it('hits the nearest symbol of the sheet shown within the radius, and nothing farther', () => {
    expect(symbolAt(symbols, 2, { xMm: 118, yMm: 42 }, 8)?.ref).toBe('U3');
    expect(symbolAt(symbols, 2, { xMm: 212, yMm: 69 }, 8)?.ref).toBe('R15');
    expect(symbolAt(symbols, 2, { xMm: 150, yMm: 150 }, 8)).toBeNull();
    // U30 is on sheet 3: not hit on sheet 2
    expect(symbolAt(symbols, 2, { xMm: 100, yMm: 100 }, 8)).toBeNull();
  });

  it('zooms a shown place in far enough to read, more on a narrow screen', () => {
    expect(focusScale({ width: 1000, height: 773 }, a4)).toBeCloseTo(8 / (1000 / 279.4));
    expect(focusScale({ width: 330, height: 255 }, a4)).toBeGreaterThan(focusScale({ width: 1000, height: 773 }, a4));
    expect(focusScale({ width: 4000, height: 3000 }, a4)).toBe(2);
  });
});

describe('the schematic viewer', () => {
  const size = { width: 558.8, height: 431.8 };
  const now = (run: () => void) => run();
  const make = (fetched: Record<string, string> = { '/files/sheets/2.svg': SVG }) => {
    const views = createEdaViews({ sheets, symbols, lines, initial: { tab: 'schematic', page: 1, ref: null } });
    const requests: string[] = [];
    const viewer = createSchematicViewer({
      sheets,
      symbols,
      lines,
      views,
      fetchSheet: async (url) => {
        requests.push(url);
        if (!(url in fetched)) return '<svg></svg>';
        return fetched[url]!;
      },
    });
    return { views, viewer, requests };
  };

  beforeEach(() => {
    $edaSelection.set(NO_SELECTION);
    $edaFocus.set(null);
  });

  it('searches, then reads the sheets’ text once, and shows each match in turn on its sheet', async () => {
    const { views, viewer, requests } = make();
    viewer.setQuery('v');
    expect(viewer.$search.get().text).toBe('loading');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(viewer.$search.get().text).toBe('ready');
    // the sheet shown first, then the others
    expect(requests).toEqual(['/files/sheets/1.svg', '/files/sheets/2.svg', '/files/sheets/3.svg']);
    viewer.setQuery('vin');
    expect(requests).toHaveLength(3);
    expect(viewer.$search.get().matches).toHaveLength(1);
    viewer.step(1);
    expect(views.$views.get().page).toBe(2);
    expect(viewer.$search.get().current).toBe(0);
    expect(viewer.$target.get()).toMatchObject({ page: 2 });
  });

  it('picks the symbol a match names, and the one clicked', async () => {
    const { views, viewer } = make();
    viewer.setQuery('TPS40305');
    viewer.step(1);
    expect($edaSelection.get()).toEqual({ lineNo: 2, ref: 'U3', source: 'schematic' });
    expect(views.$views.get().page).toBe(2);
    viewer.settle(size);
    // U3 (120, 40) mm is in the middle of the viewport now
    const view = viewer.$view.get();
    expect(120 * 2 * view.scale + view.x).toBeCloseTo(size.width / 2);
    expect(40 * 2 * view.scale + view.y).toBeCloseTo(size.height / 2);
    // a click on R15, drawn at (217, 69) mm
    viewer.click({ x: 217 * 2 * view.scale + view.x, y: 69 * 2 * view.scale + view.y }, size);
    expect($edaSelection.get()).toEqual({ lineNo: 1, ref: 'R15', source: 'schematic' });
    // a click on nothing lets go
    viewer.reset();
    viewer.click({ x: 5, y: 5 }, size);
    expect($edaSelection.get()).toEqual(NO_SELECTION);
  });

  it('follows a part picked on the board to its sheet, centring it once the viewer is on screen', () => {
    const { views, viewer } = make();
    let measured = { width: 0, height: 0 };
    const stop = viewer.follow(() => measured, now);
    selectPart('R2', 3, 'board');
    // hidden (the board tab is shown): the sheet is turned, the place waits
    expect(views.$views.get().page).toBe(3);
    expect(viewer.$target.get()).toMatchObject({ page: 3, xMm: 20, yMm: 20 });
    measured = size;
    viewer.settle(measured);
    expect(viewer.$target.get()).toBeNull();
    expect(viewer.$view.get().scale).toBeGreaterThan(1);
    // a whole line picked in the table turns to a sheet drawing one of its parts only when this one has none
    selectLine(2, 'table');
    expect(views.$views.get().page).toBe(2);
    selectLine(3, 'table');
    expect(views.$views.get().page).toBe(1);
    stop();
  });

  it('shows a check’s place on its sheet and marks it', () => {
    const { views, viewer } = make();
    const stop = viewer.follow(() => size, now);
    $edaFocus.set({ on: 'sheet', page: 3, xMm: 100, yMm: 50 });
    expect($edaFocus.get()).toBeNull();
    expect(viewer.$marker.get()).toEqual({ on: 'sheet', page: 3, xMm: 100, yMm: 50 });
    expect(views.$views.get().page).toBe(3);
    const view = viewer.$view.get();
    expect(100 * 2 * view.scale + view.x).toBeCloseTo(size.width / 2);
    stop();
  });

  it('opens a sheet from the list whole, and says so when the sheets’ text cannot be read', async () => {
    const { views, viewer } = make();
    viewer.zoomStep('in', size);
    viewer.openSheet(3);
    expect(views.$views.get()).toMatchObject({ page: 3, tab: 'schematic' });
    expect(viewer.$view.get().scale).toBe(1);
    const failing = createSchematicViewer({ sheets, symbols, lines, views, fetchSheet: () => Promise.reject(new Error('offline')) });
    failing.setQuery('U3');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(failing.$search.get()).toMatchObject({ text: 'failed', matches: [expect.objectContaining({ ref: 'U3' }), expect.objectContaining({ ref: 'U30' })] });
  });
});
