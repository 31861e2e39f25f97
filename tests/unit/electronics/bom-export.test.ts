import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { MAX_EXPORT_BOARDS } from '../../../src/lib/contract/eda.ts';
import { parseBom } from '../../../src/server/electronics/bom.ts';
import { exportBom } from '../../../src/server/electronics/bom-export.ts';
import type { BomLine } from '../../../src/lib/contract/schemas/eda.ts';

const line = (fields: Partial<BomLine>): BomLine => ({
  lineNo: 1, designators: [], quantity: 1, value: '', footprint: '', manufacturer: '', mpn: '', lcsc: '', mouser: '', digikey: '', farnell: '', description: '', dnp: false, ...fields,
});

const LINES: BomLine[] = [
  line({ lineNo: 1, designators: ['R1', 'R2', 'R3', 'R4', 'R5'], quantity: 5, value: '100', footprint: '0603', manufacturer: 'Yageo', mpn: 'RC0603FR-07100RL', lcsc: 'C105588', mouser: '603-RC0603FR-07100RL', digikey: '311-100HRCT-ND', description: '100 Ω 0603 resistor' }),
  line({ lineNo: 2, designators: ['J1'], quantity: 1, manufacturer: 'Adam Tech', mpn: 'PH2RA-06-UA', description: 'Header 0.100" (2.54mm), right angle' }),
];

/** The CSV as a spreadsheet reads it: without the byte-order mark, as rows of cells. */
function rowsOf(csv: string): string[][] {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
}

describe('exportBom', () => {
  it('writes the JLCPCB assembly template: Comment, Designator, Footprint, JLCPCB Part #', () => {
    const { filename, csv } = exportBom(LINES, 'jlc', 10);
    expect(filename).toBe('bom-jlc-10-boards.csv');
    expect(rowsOf(csv)).toEqual([
      ['Comment', 'Designator', 'Footprint', 'JLCPCB Part #'],
      ['100', 'R1,R2,R3,R4,R5', '0603', 'C105588'],
      ['PH2RA-06-UA', 'J1', '', ''],
    ]);
  });

  it('writes LCSC, Mouser and Digi-Key uploads with quantities for the number of boards', () => {
    expect(rowsOf(exportBom(LINES, 'lcsc', 10).csv)).toEqual([
      ['Quantity', 'Manufacture Part Number', 'Manufacturer', 'LCSC Part Number', 'Description', 'Package', 'Designator'],
      ['50', 'RC0603FR-07100RL', 'Yageo', 'C105588', '100 Ω 0603 resistor', '0603', 'R1,R2,R3,R4,R5'],
      ['10', 'PH2RA-06-UA', 'Adam Tech', '', 'Header 0.100" (2.54mm), right angle', '', 'J1'],
    ]);
    expect(rowsOf(exportBom(LINES, 'mouser', 3).csv)).toEqual([
      ['Mouser Part Number', 'Manufacturer Part Number', 'Manufacturer', 'Quantity', 'Description', 'Customer Part Number'],
      ['603-RC0603FR-07100RL', 'RC0603FR-07100RL', 'Yageo', '15', '100 Ω 0603 resistor', 'R1,R2,R3,R4,R5'],
      // No Mouser number: the line stays, with the manufacturer part number to search by.
      ['', 'PH2RA-06-UA', 'Adam Tech', '3', 'Header 0.100" (2.54mm), right angle', 'J1'],
    ]);
    expect(rowsOf(exportBom(LINES, 'digikey', 2).csv)).toEqual([
      ['Digi-Key Part Number', 'Manufacturer Part Number', 'Manufacturer', 'Quantity', 'Customer Reference'],
      ['311-100HRCT-ND', 'RC0603FR-07100RL', 'Yageo', '10', 'R1,R2,R3,R4,R5'],
      ['', 'PH2RA-06-UA', 'Adam Tech', '2', 'J1'],
    ]);
  });

  it('writes every column in the plain export', () => {
    const rows = rowsOf(exportBom(LINES, 'plain', 1).csv);
    expect(rows[0]).toEqual(['Designators', 'Quantity', 'Value', 'Footprint', 'Manufacturer', 'MPN', 'LCSC', 'Mouser', 'Digi-Key', 'Farnell', 'Description', 'DNP']);
    expect(rows[1]).toEqual(['R1,R2,R3,R4,R5', '5', '100', '0603', 'Yageo', 'RC0603FR-07100RL', 'C105588', '603-RC0603FR-07100RL', '311-100HRCT-ND', '', '100 Ω 0603 resistor', '']);
    expect(exportBom(LINES, 'plain', 1).filename).toBe('bom-plain-1-board.csv');
  });

  it('leaves parts marked "do not populate" out of a distributor upload, and marks them in the plain list', () => {
    const lines = [...LINES, line({ lineNo: 3, designators: ['R9'], value: '0', footprint: '0603', lcsc: 'C21189', dnp: true })];
    for (const format of ['jlc', 'lcsc', 'mouser', 'digikey'] as const) {
      expect(exportBom(lines, format, 1).csv, format).not.toContain('R9');
    }
    expect(rowsOf(exportBom(lines, 'plain', 1).csv)[3]).toEqual(['R9', '1', '0', '0603', '', '', 'C21189', '', '', '', '', 'DNP']);
  });

  it('quotes commas, quotes and line breaks so every cell stays one cell', () => {
    const { csv } = exportBom([line({ designators: ['C1', 'C2'], value: 'cap, "big"\nnew line' })], 'plain', 1);
    expect(csv).toContain('"C1,C2"');
    expect(csv).toContain('"cap, ""big""\nnew line"');
    expect(rowsOf(csv)[1]![2]).toBe('cap, "big"\nnew line');
  });

  it('never hands a spreadsheet a formula: cells starting with = + - @ tab or CR get a quote in front', () => {
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\r=1', '=a\n=b'];
    const { csv } = exportBom(hostile.map((value, i) => line({ lineNo: i + 1, designators: [`R${i + 1}`], value })), 'plain', 1);
    const values = rowsOf(csv).slice(1).map((row) => row[2]);
    expect(values).toEqual(hostile.map((value) => `'${value}`));
  });

  it('keeps the board count sensible and uses CRLF line ends', () => {
    expect(rowsOf(exportBom(LINES, 'lcsc', 0).csv)[1]![0]).toBe('5');
    expect(rowsOf(exportBom(LINES, 'lcsc', 2.7).csv)[1]![0]).toBe('10');
    expect(rowsOf(exportBom(LINES, 'lcsc', Number.NaN).csv)[1]![0]).toBe('5');
    expect(rowsOf(exportBom(LINES, 'lcsc', 1e12).csv)[1]![0]).toBe(String(5 * MAX_EXPORT_BOARDS));
    expect(exportBom(LINES, 'lcsc', 1).csv).toContain('\r\n');
  });

  it('exports a parsed fixture BOM with nothing dropped', async () => {
    const bom = await parseBom(new Uint8Array(readFileSync(new URL('../../fixtures/eda/bom/sanga-bom_jlc.csv', import.meta.url))), 'sanga-bom_jlc.csv');
    const rows = rowsOf(exportBom(bom.lines, 'jlc', 5).csv);
    expect(rows).toHaveLength(bom.lines.length + 1);
    expect(rows).toContainEqual(['', 'U3,U4', '', 'C7512']);
  });
});
