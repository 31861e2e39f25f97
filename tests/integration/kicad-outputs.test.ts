import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKicadCli } from '../../src/server/electronics/kicad-cli.ts';
import { readCheckReport, readSheets, readSourceBom, readSourcePlacements, readSymbols, type SourceSheet } from '../../src/server/electronics/kicad-outputs.ts';
import type { SchematicSymbol } from '../../src/lib/contract/schemas/eda.ts';

/**
 * The readers of kicad-cli's outputs on what the real `kicad-cli` 9 writes for the four public
 * design sources of tests/fixtures/eda/kicad-sources, each checked against facts found another
 * way: SOURCES.md's measurements, KiCad's own BOM export, counts taken from the `.kicad_sch` files
 * with regular expressions, the SVGs' own text, and the ERC, DRC and placement outputs against
 * one another.
 */
const SOURCES = path.resolve(import.meta.dirname, '../fixtures/eda/kicad-sources');
const scratches: string[] = [];

afterAll(() => {
  for (const folder of scratches.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratchFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'copperhub-kicad-outputs-'));
  scratches.push(folder);
  return folder;
}

/** Every `.kicad_sch` under the project folder, by its path relative to it. */
function schematicsIn(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.')) walk(file);
      else if (entry.name.endsWith('.kicad_sch')) out.set(path.relative(folder, file), readFileSync(file, 'utf8'));
    }
  };
  walk(folder);
  return out;
}

function svgsIn(folder: string): Array<{ file: string; svg: string }> {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.svg'))
    .map((file) => ({ file, svg: readFileSync(path.join(folder, file), 'utf8') }));
}

/**
 * Parts drawn in a schematic, counted from the files alone: each placed symbol (`(symbol (lib_id`,
 * or `(symbol (lib_name …) (lib_id` for one whose library symbol was renamed) whose Reference does
 * not start with `#`, once per placement of its file in the hierarchy (`Sheet file`/`Sheetfile` of
 * a sheet, relative to the file that places it).
 */
function countPlacedParts(file: string): number {
  const text = readFileSync(file, 'utf8');
  const own = text
    .split(/\(symbol\s+(?:\(lib_name\s+"(?:[^"\\]|\\.)*"\s*\)\s*)?\(lib_id\s/)
    .slice(1)
    .filter((chunk) => {
      const ref = /\(property\s+"Reference"\s+"([^"]*)"/.exec(chunk)?.[1];
      return ref !== undefined && !ref.startsWith('#');
    }).length;
  const sheets = [...text.matchAll(/\(property\s+"Sheet ?file"\s+"([^"]+)"/g)].map((match) => path.resolve(path.dirname(file), match[1]!));
  return own + sheets.reduce((sum, sheet) => sum + countPlacedParts(sheet), 0);
}

type Report = { violations?: { severity: string }[]; unconnected_items?: { severity: string }[]; schematic_parity?: { severity: string }[]; sheets?: { violations: { severity: string }[] }[] };
/** Errors and warnings of a DRC or ERC report, counted from its JSON. */
function countBySeverity(report: Report): [number, number] {
  const items = [...(report.violations ?? []), ...(report.unconnected_items ?? []), ...(report.schematic_parity ?? []), ...(report.sheets ?? []).flatMap((sheet) => sheet.violations)];
  return [items.filter((item) => item.severity === 'error').length, items.filter((item) => item.severity === 'warning').length];
}

/** The searchable text KiCad puts in a sheet's SVG (`<text x y …>R1</text>`, invisible over the stroked glyphs). */
function svgTexts(svg: string): Array<{ x: number; y: number; text: string }> {
  return [...svg.matchAll(/<text\s+x="([-\d.]+)"\s+y="([-\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((match) => ({ x: Number(match[1]), y: Number(match[2]), text: match[3]! }));
}

/**
 * What SOURCES.md measured with kicad-cli 9.0.8, and the user fields of each design that name what
 * one orders (read from its files: `orderFields`), by which KiCad's own BOM export is grouped for
 * comparison. `near`: a small part whose anchor must lie right beside its reference on the drawing.
 */
const FIXTURES = [
  { folder: 'rrf-kicad6', base: 'rrf_rpi_skr_adapter', sheets: ['rrf_rpi_skr_adapter'], bomSymbols: 7, orderFields: ['Manufacturer', 'MPN', 'LCSC_SKU', 'Mouser_SKU', 'DigiKey_SKU'], erc: [1, 25], drc: [0, 24], near: 'R1' },
  { folder: 'bitaxe-ultra-kicad7', base: 'bitaxeUltra', sheets: ['bitaxeUltra', 'Power', 'ESP32', 'BM1366', 'Fan'], bomSymbols: 87, orderFields: ['Manufacturer', 'PARTNO', 'DK', 'JLC Part', 'LCSC Part'], erc: [37, 770], drc: [3, 2], near: 'C34' },
  { folder: 'ferrit-m8-kicad8', base: 'sxa', sheets: ['sxa'], bomSymbols: 30, orderFields: [], erc: [9, 89], drc: [0, 30], near: 'C1' },
  {
    folder: 'primecam-bias-kicad9',
    base: 'primecamLNABiasPotVreg_2ch',
    sheets: ['primecamLNABiasPotVreg_2ch', 'BiasCircuit', 'BiasCircuit1'],
    bomSymbols: 70,
    orderFields: ['Digikey', 'LCSC Part #', 'Mouser', 'Mouser Part Number', 'Part Number', 'Part #'],
    erc: [14, 104],
    // kicad-cli 9.0.8 crashes on this board's DRC with schematic parity (SOURCES.md).
    drc: null,
    near: 'C7',
  },
] as const;

describe.each(FIXTURES)('what kicad-cli writes for $folder', (fixture) => {
  let scratch: string;
  let sheets: SourceSheet[];
  let symbols: SchematicSymbol[];
  let netlist: string;
  const codes: Record<string, number | null> = {};
  let drcCrash: { code: number | null; signal: string | null } | null = null;

  beforeAll(async () => {
    scratch = scratchFolder();
    cpSync(path.join(SOURCES, fixture.folder), scratch, { recursive: true });
    const schematic = `${fixture.base}.kicad_sch`;
    const board = `${fixture.base}.kicad_pcb`;
    const runs: Record<string, string[]> = {
      netlist: ['sch', 'export', 'netlist', '--format', 'kicadxml', '-o', 'netlist.xml', schematic],
      svg: ['sch', 'export', 'svg', '-o', 'sheets/', schematic],
      erc: ['sch', 'erc', '--format', 'json', '--severity-all', '--units', 'mm', '-o', 'erc.json', schematic],
      pos: ['pcb', 'export', 'pos', '--format', 'csv', '--units', 'mm', '--side', 'both', '-o', 'pos.csv', board],
      // KiCad's own BOM, grouped by value, footprint, DNP and what one orders, for comparison.
      bom: [
        'sch', 'export', 'bom', '--fields', ['Reference', '${QUANTITY}', 'Value', 'Footprint', '${DNP}', ...fixture.orderFields].join(','),
        '--group-by', ['Value', 'Footprint', '${DNP}', ...fixture.orderFields].join(','), '--ref-range-delimiter', '', '-o', 'bom-grouped.csv', schematic,
      ],
    };
    for (const [stage, args] of Object.entries(runs)) codes[stage] = (await runKicadCli(args, scratch)).code;
    const drc = await runKicadCli(['pcb', 'drc', '--format', 'json', '--schematic-parity', '--severity-all', '--units', 'mm', '-o', 'drc.json', board], scratch);
    codes.drc = drc.code;
    if (drc.code !== 0) {
      drcCrash = { code: drc.code, signal: drc.signal };
      // What the job can fall back to: the DRC without the parity check.
      codes.drcWithoutParity = (await runKicadCli(['pcb', 'drc', '--format', 'json', '--severity-all', '--units', 'mm', '-o', 'drc.json', board], scratch)).code;
    }
    netlist = readFileSync(path.join(scratch, 'netlist.xml'), 'utf8');
    sheets = readSheets(netlist, svgsIn(path.join(scratch, 'sheets')), fixture.base);
    symbols = readSymbols(netlist, schematicsIn(scratch), sheets);
  }, 60_000);

  it('runs every stage', () => {
    expect(codes).toMatchObject({ netlist: 0, svg: 0, erc: 0, pos: 0, bom: 0 });
    if (fixture.drc) expect(codes.drc).toBe(0);
    else {
      expect(drcCrash).toEqual({ code: null, signal: 'SIGSEGV' });
      expect(codes.drcWithoutParity).toBe(0);
    }
  });

  it('reads every sheet, in page order, each with its SVG and page size', () => {
    const files = readdirSync(path.join(scratch, 'sheets'));
    expect(files).toHaveLength(fixture.sheets.length);
    expect(sheets.map((sheet) => sheet.name)).toEqual(fixture.sheets);
    expect(sheets.map((sheet) => sheet.page)).toEqual(fixture.sheets.map((_, index) => index + 1));
    expect(sheets[0]).toMatchObject({ path: '/', file: `${fixture.base}.svg` });
    expect(new Set(sheets.map((sheet) => sheet.file)).size).toBe(files.length);
    for (const sheet of sheets.slice(1)) expect(sheet.path).toBe(`/${sheet.name}/`);
    for (const sheet of sheets) {
      // The SVG's frame is the page in mm from its top-left: the frame symbol positions are given in.
      const viewBox = /viewBox="([^"]+)"/.exec(readFileSync(path.join(scratch, 'sheets', sheet.file), 'utf8'))![1]!.split(/\s+/).map(Number);
      expect(viewBox[0]).toBe(0);
      expect(viewBox[1]).toBe(0);
      expect(viewBox[2]).toBeCloseTo(sheet.widthMm, 3);
      expect(viewBox[3]).toBeCloseTo(sheet.heightMm, 3);
    }
  });

  it('places every part drawn in the schematic on its sheet, where the drawing shows its reference', () => {
    expect(symbols).toHaveLength(countPlacedParts(path.join(scratch, `${fixture.base}.kicad_sch`)));
    expect(new Set(symbols.map((symbol) => symbol.ref)).size).toBe(symbols.length);
    const texts = new Map(sheets.map((sheet) => [sheet.page, svgTexts(readFileSync(path.join(scratch, 'sheets', sheet.file), 'utf8'))]));
    const distanceToReference = (symbol: SchematicSymbol) =>
      Math.min(...texts.get(symbol.sheet)!.filter((text) => text.text === symbol.ref).map((text) => Math.hypot(text.x - symbol.xMm, text.y - symbol.yMm)));
    for (const symbol of symbols) {
      const sheet = sheets.find((candidate) => candidate.page === symbol.sheet)!;
      expect(symbol.xMm).toBeGreaterThan(0);
      expect(symbol.xMm).toBeLessThan(sheet.widthMm);
      expect(symbol.yMm).toBeGreaterThan(0);
      expect(symbol.yMm).toBeLessThan(sheet.heightMm);
      // Its reference is written on its own sheet's drawing, within a large IC's reach of it.
      expect(distanceToReference(symbol), symbol.ref).toBeLessThan(70);
    }
    expect(distanceToReference(symbols.find((symbol) => symbol.ref === fixture.near)!)).toBeLessThan(8);
  });

  it('makes the BOM KiCad makes, grouped by value, footprint, DNP and part numbers', () => {
    const bom = readSourceBom(netlist);
    // KiCad's default BOM export lists one row per part in the BOM: SOURCES.md's BOM line counts.
    expect(bom.lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(fixture.bomSymbols);
    const kicadRows = Papa.parse<Record<string, string>>(readFileSync(path.join(scratch, 'bom-grouped.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;
    expect(bom.lines.map((line) => line.designators.join(','))).toEqual(kicadRows.map((row) => row.Reference));
    expect(bom.lines.map((line) => [line.quantity, line.value, line.footprint])).toEqual(kicadRows.map((row) => [Number(row.QUANTITY), row.Value, row.Footprint]));
    expect(bom.lines.map((line) => line.lineNo)).toEqual(bom.lines.map((_, index) => index + 1));
    expect(bom.columns).toEqual(expect.arrayContaining(['designators', 'quantity', 'value', 'footprint']));
    for (const line of bom.lines) for (const ref of line.designators) expect(symbols.some((symbol) => symbol.ref === ref)).toBe(true);
  });

  it('counts the ERC as KiCad does and puts each violation on the sheet, and at the place, of what it names', () => {
    const json = readFileSync(path.join(scratch, 'erc.json'), 'utf8');
    const erc = readCheckReport(json, 'erc', { sheets, schematics: schematicsIn(scratch), symbols })!;
    expect([erc.errors, erc.warnings]).toEqual(fixture.erc);
    expect([erc.errors, erc.warnings]).toEqual(countBySeverity(JSON.parse(json) as Report));
    expect(Object.values(erc.byType).reduce((sum, n) => sum + n, 0)).toBe(erc.errors + erc.warnings);
    expect(erc.items).toHaveLength(erc.errors + erc.warnings);
    expect(erc.items.findLastIndex((item) => item.severity === 'error')).toBe(erc.errors - 1);
    const pages = new Set(sheets.map((sheet) => sheet.page));
    for (const item of erc.items) expect(pages.has(item.sheet!), item.description).toBe(true);
    // A missing library is reported at the symbol's own anchor: the same place as its (at x y) in its file.
    const symbolIssues = erc.items.filter((item) => item.type === 'lib_symbol_issues' && item.refs.length === 1);
    expect(symbolIssues.length).toBeGreaterThan(0);
    for (const item of symbolIssues) {
      const symbol = symbols.find((candidate) => candidate.ref === item.refs[0])!;
      expect({ ref: item.refs[0], sheet: item.sheet, x: item.xMm!.toFixed(2), y: item.yMm!.toFixed(2) }).toEqual({
        ref: symbol.ref,
        sheet: symbol.sheet,
        x: symbol.xMm.toFixed(2),
        y: symbol.yMm.toFixed(2),
      });
    }
  });

  it('counts the DRC as KiCad does, at places in the board coordinates the placement file uses', () => {
    const json = readFileSync(path.join(scratch, 'drc.json'), 'utf8');
    const drc = readCheckReport(json, 'drc')!;
    if (!fixture.drc) {
      // Without the parity check the board itself is clean (SOURCES.md): its one violation, a
      // solder mask bridge, is one the designer excluded, which `--severity-all` lists all the same.
      expect(drc).toEqual({ errors: 0, warnings: 0, byType: {}, items: [] });
      expect(JSON.parse(json)).toMatchObject({ violations: [{ type: 'solder_mask_bridge', severity: 'error', excluded: true }] });
      return;
    }
    expect([drc.errors, drc.warnings]).toEqual(fixture.drc);
    expect([drc.errors, drc.warnings]).toEqual(countBySeverity(JSON.parse(json) as Report));
    expect(drc.items.every((item) => item.sheet === null)).toBe(true);
    const placements = readSourcePlacements(readFileSync(path.join(scratch, 'pos.csv'), 'utf8'));
    // A footprint's violation sits on its anchor, which the placement file writes with y negated.
    const footprintItems = drc.items.filter((item) => /^Footprint /.test(item.description) || ['lib_footprint_issues', 'footprint_type_mismatch'].includes(item.type));
    const checked = footprintItems.filter((item) => item.refs.length === 1 && placements.some((part) => part.designator === item.refs[0]));
    expect(checked.length).toBeGreaterThan(0);
    for (const item of checked) {
      const part = placements.find((candidate) => candidate.designator === item.refs[0])!;
      expect([item.xMm, item.yMm]).toEqual([part.x, -part.y]);
    }
  });

  it('reads every placement of the board', () => {
    const csv = readFileSync(path.join(scratch, 'pos.csv'), 'utf8');
    const rows = csv.trim().split('\n').slice(1);
    const placements = readSourcePlacements(csv);
    expect(placements).toHaveLength(rows.length);
    expect(placements.filter((part) => part.side === 'bottom')).toHaveLength(rows.filter((row) => row.endsWith(',bottom')).length);
    expect(placements.every((part) => Number.isFinite(part.x) && Number.isFinite(part.y) && part.rotation >= 0 && part.rotation < 360)).toBe(true);
  });
});

/** The R_US symbol of the KiCad 6 fixture, as a schematic embeds it in `lib_symbols`. */
function resistorSymbol(): string {
  const text = readFileSync(path.join(SOURCES, 'rrf-kicad6/rrf_rpi_skr_adapter.kicad_sch'), 'utf8');
  const start = text.indexOf('(symbol "Device:R_US"');
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(start, i + 1);
  }
  throw new Error('no R_US in the fixture');
}

describe('a nested hierarchy with a sheet file in a folder, placed twice, under names holding / \\ and &', () => {
  const uuid = (n: number) => `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const resistor = (id: number, ref: string, x: number, y: number) =>
    `  (symbol (lib_id "Device:R_US") (at ${x} ${y} 0) (unit 1) (in_bom yes) (on_board yes)\n    (uuid ${uuid(id)})\n` +
    `    (property "Reference" "${ref}" (id 0) (at ${x + 3} ${y} 0))\n    (property "Value" "1k" (id 1) (at ${x + 6} ${y} 0))\n` +
    `    (property "Footprint" "Resistor_SMD:R_0603_1608Metric" (id 2) (at ${x} ${y} 0) (effects (font (size 1.27 1.27)) hide))\n  )\n`;
  const sheet = (id: number, name: string, file: string, y: number) =>
    `  (sheet (at 50 ${y}) (size 20 10) (uuid ${uuid(id)})\n    (property "Sheet name" "${name}" (id 0) (at 50 ${y - 1} 0))\n    (property "Sheet file" "${file}" (id 1) (at 50 ${y + 11} 0))\n  )\n`;
  const schematic = (id: number, paper: string, body: string, tail = '') =>
    `(kicad_sch (version 20211123) (generator eeschema)\n  (uuid ${uuid(id)})\n  (paper "${paper}")\n  (lib_symbols\n${resistorSymbol()}\n  )\n${body}${tail})\n`;
  let scratch: string;
  let sheets: SourceSheet[];
  let symbols: SchematicSymbol[];

  beforeAll(async () => {
    scratch = scratchFolder();
    mkdirSync(path.join(scratch, 'parts'));
    const [a, b, c, d] = [uuid(101), uuid(102), uuid(103), uuid(104)];
    writeFileSync(
      path.join(scratch, 'nest.kicad_sch'),
      schematic(1, 'A4', resistor(201, 'R1', 100, 50) + sheet(101, 'Sub A/B', 'parts/sub.kicad_sch', 50) + sheet(104, 'Z', 'z.kicad_sch', 120), `  (sheet_instances
    (path "/" (page "1")) (path "/${a}/" (page "2")) (path "/${a}/${b}/" (page "3")) (path "/${a}/${c}/" (page "4")) (path "/${d}/" (page "5"))
  )
  (symbol_instances
    (path "/${uuid(201)}" (reference "R1") (unit 1) (value "1k") (footprint "Resistor_SMD:R_0603_1608Metric"))
    (path "/${a}/${uuid(202)}" (reference "R2") (unit 1) (value "1k") (footprint "Resistor_SMD:R_0603_1608Metric"))
    (path "/${a}/${b}/${uuid(203)}" (reference "R3") (unit 1) (value "1k") (footprint "Resistor_SMD:R_0603_1608Metric"))
    (path "/${a}/${c}/${uuid(203)}" (reference "R4") (unit 1) (value "1k") (footprint "Resistor_SMD:R_0603_1608Metric"))
    (path "/${d}/${uuid(209)}" (reference "R9") (unit 1) (value "1k") (footprint "Resistor_SMD:R_0603_1608Metric"))
  )
`),
    );
    // The sheet file of a sheet in `parts/` is named relative to that folder, as KiCad resolves it.
    writeFileSync(path.join(scratch, 'parts/sub.kicad_sch'), schematic(2, 'A3', resistor(202, 'R2', 120, 60) + sheet(102, 'Inner', 'inner.kicad_sch', 50) + sheet(103, 'In\\\\ner & 2', 'inner.kicad_sch', 80)));
    writeFileSync(path.join(scratch, 'parts/inner.kicad_sch'), schematic(3, 'A5', resistor(203, 'R3', 70, 40)));
    writeFileSync(path.join(scratch, 'z.kicad_sch'), schematic(9, 'A4', resistor(209, 'R9', 30, 30)));
    expect((await runKicadCli(['sch', 'export', 'svg', '-o', 'sheets/', 'nest.kicad_sch'], scratch)).code).toBe(0);
    expect((await runKicadCli(['sch', 'export', 'netlist', '--format', 'kicadxml', '-o', 'netlist.xml', 'nest.kicad_sch'], scratch)).code).toBe(0);
    const netlist = readFileSync(path.join(scratch, 'netlist.xml'), 'utf8');
    sheets = readSheets(netlist, svgsIn(path.join(scratch, 'sheets')), 'nest');
    symbols = readSymbols(netlist, schematicsIn(scratch), sheets);
  }, 30_000);

  it('matches each sheet to the SVG kicad-cli names after the sheet names on its path, / and \\ made _', () => {
    expect(sheets.map(({ name, page, path: sheetPath, file }) => ({ name, page, path: sheetPath, file }))).toEqual([
      { name: 'nest', page: 1, path: '/', file: 'nest.svg' },
      { name: 'Sub A/B', page: 2, path: '/Sub A/B/', file: 'nest-Sub A_B.svg' },
      { name: 'Inner', page: 3, path: '/Sub A/B/Inner/', file: 'nest-Sub A_B-Inner.svg' },
      { name: 'In\\ner & 2', page: 4, path: '/Sub A/B/In\\ner & 2/', file: 'nest-Sub A_B-In_ner & 2.svg' },
      { name: 'Z', page: 5, path: '/Z/', file: 'nest-Z.svg' },
    ]);
    expect(readdirSync(path.join(scratch, 'sheets')).sort()).toEqual(sheets.map((entry) => entry.file).sort());
    // Each sheet has its own paper: A4, A3, A5 landscape.
    expect(sheets.map((entry) => Math.round(entry.widthMm))).toEqual([297, 420, 210, 210, 297]);
  });

  it('places the symbols of a file in a folder on each sheet that draws it, under each placement’s reference', () => {
    expect(symbols.map(({ ref, sheet, xMm, yMm }) => ({ ref, sheet, xMm, yMm }))).toEqual([
      { ref: 'R1', sheet: 1, xMm: 100, yMm: 50 },
      { ref: 'R2', sheet: 2, xMm: 120, yMm: 60 },
      { ref: 'R3', sheet: 3, xMm: 70, yMm: 40 },
      { ref: 'R4', sheet: 4, xMm: 70, yMm: 40 },
      { ref: 'R9', sheet: 5, xMm: 30, yMm: 30 },
    ]);
    expect(existsSync(path.join(scratch, 'sheets', 'nest-Sub A_B-In_ner & 2.svg'))).toBe(true);
    expect(readFileSync(path.join(scratch, 'sheets', 'nest-Sub A_B-In_ner & 2.svg'), 'utf8')).toMatch(/>R4<\/text>/);
  });
});
