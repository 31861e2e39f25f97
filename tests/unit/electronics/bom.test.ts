import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { BOM_LIMITS, parseBom } from '../../../src/server/electronics/bom.ts';
import { expandDesignators, MAX_DESIGNATORS_PER_LINE } from '../../../src/server/electronics/designators.ts';

const FIXTURES = new URL('../../fixtures/eda/bom/', import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const text = (s: string) => new TextEncoder().encode(s);

describe('parseBom on the real fixture BOMs', () => {
  it('reads the EAGLE SnapperGPS BOM: designator lists with their quantity and Murata part numbers', async () => {
    const bom = await parseBom(fixture('SnapperGPS_1_0_0_BOM.csv'), 'SnapperGPS_1_0_0_BOM.csv');
    expect(bom.errorKey).toBeUndefined();
    expect(bom.columns).toEqual(['designators', 'quantity', 'footprint', 'manufacturer', 'mpn', 'description']);
    expect(bom.foundColumns.slice(0, 4)).toEqual(['Designator', 'Qty', 'Manufacturer', 'Part #']);
    expect(bom.lines.length).toBeGreaterThan(20);
    const first = bom.lines[0]!;
    expect(first.lineNo).toBe(1);
    expect(first.designators).toEqual(['C4', 'C8', 'C10', 'C12', 'C13', 'C14', 'C16', 'C17', 'C20', 'C23']);
    expect(first.quantity).toBe(10);
    expect(first).toMatchObject({ manufacturer: 'Murata', mpn: 'GRM155R60J104KA01D', description: 'Ceramic capacitor, 100 nF' });
  });

  it('reads the 1-click-BOM TSV with DigiKey, LCSC and Mouser numbers', async () => {
    const bom = await parseBom(fixture('rrf-1-click-bom.tsv'), 'rrf-1-click-bom.tsv');
    expect(bom.errorKey).toBeUndefined();
    expect(bom.columns).toEqual(expect.arrayContaining(['designators', 'quantity', 'mpn', 'manufacturer', 'lcsc', 'digikey', 'mouser', 'description']));
    expect(bom.lines).toHaveLength(3);
    const resistors = bom.lines.find((line) => line.designators.includes('R1'))!;
    expect(resistors).toMatchObject({
      designators: ['R1', 'R2', 'R3', 'R4', 'R5'],
      quantity: 5,
      digikey: '311-100HRCT-ND',
      lcsc: 'C105588',
      mouser: '603-RC0603FR-07100RL',
      mpn: 'RC0603FR-07100RL',
      manufacturer: 'Yageo',
    });
    // A description with quotes inside quotes arrives whole.
    expect(bom.lines[0]!.description).toBe('Connector Header Through Hole, Right Angle 2x3 position 0.100" (2.54mm)');
  });

  it('reads the JLC BOM: Comment is the value, LCSC the part number', async () => {
    const bom = await parseBom(fixture('sanga-bom_jlc.csv'), 'sanga-bom_jlc.csv');
    expect(bom.errorKey).toBeUndefined();
    expect(bom.columns).toEqual(['designators', 'quantity', 'value', 'lcsc']);
    expect(bom.lines).toHaveLength(28);
    expect(bom.lines.find((line) => line.designators.includes('U3'))).toMatchObject({ designators: ['U3', 'U4'], quantity: 2, lcsc: 'C7512', value: '' });
    expect(bom.lines[0]).toMatchObject({ designators: ['Y1'], value: '8MHz Crystal SMD 3225 10-15pF load capactianc', lcsc: 'C133366' });
  });

  it('reads the EasyEDA BOM in UTF-16LE with tabs, taking the part number of the supplier the row names', async () => {
    const bom = await parseBom(fixture('easyeda-style-utf16.csv'), 'easyeda-style-utf16.csv');
    expect(bom.errorKey).toBeUndefined();
    expect(bom.foundColumns).toEqual(['ID', 'Name', 'Designator', 'Footprint', 'Quantity', 'Manufacturer Part', 'Manufacturer', 'Supplier', 'Supplier Part', 'Price']);
    expect(bom.lines).toHaveLength(3);
    expect(bom.lines[1]).toMatchObject({
      designators: ['C1', 'C3', 'C4', 'C5', 'C6'],
      quantity: 5,
      value: '10uF',
      footprint: 'C0805',
      mpn: 'CL21A106KAYNNNE',
      manufacturer: 'SAMSUNG(三星)',
      lcsc: 'C15850',
    });
    expect(bom.lines[2]).toMatchObject({ designators: ['R16'], value: '10K', lcsc: '', mpn: '' });
  });
});

describe('parseBom on other layouts', () => {
  it('reads an XLSX BOM (first sheet) by its bytes, whatever its name', async () => {
    const xlsx = await writeExcelFile([
      [{ value: 'Reference' }, { value: 'Value' }, { value: 'Footprint' }, { value: 'Qty' }, { value: 'Manufacturer' }, { value: 'MPN' }],
      [{ value: 'R1-R4' }, { value: '10k' }, { value: 'R_0603' }, { value: 4 }, { value: 'Yageo' }, { value: 'RC0603FR-0710KL' }],
      [{ value: 'U1' }, { value: 'ATmega328P' }, { value: 'TQFP-32' }, { value: 1 }, { value: 'Microchip' }, { value: 'ATMEGA328P-AU' }],
    ]).toBuffer();
    const bom = await parseBom(new Uint8Array(xlsx), 'bom.dat');
    expect(bom.errorKey).toBeUndefined();
    expect(bom.columns).toEqual(['designators', 'quantity', 'value', 'footprint', 'manufacturer', 'mpn']);
    expect(bom.lines).toEqual([
      expect.objectContaining({ lineNo: 1, designators: ['R1', 'R2', 'R3', 'R4'], quantity: 4, value: '10k', mpn: 'RC0603FR-0710KL' }),
      expect.objectContaining({ lineNo: 2, designators: ['U1'], quantity: 1, value: 'ATmega328P', manufacturer: 'Microchip' }),
    ]);
  });

  it('reads a semicolon CSV (European Excel) with title lines above the header and a total row below', async () => {
    const csv = 'Bill of Materials;;;\nProject: sensor v2;;;\n\nReferences;Value;Package;Quantity\n"C1, C2";100n;0603;2\nR1..R3;4k7;0603;3\n;Total;;5\n';
    const bom = await parseBom(text(csv), 'sensor.csv');
    expect(bom.errorKey).toBeUndefined();
    expect(bom.foundColumns).toEqual(['References', 'Value', 'Package', 'Quantity']);
    expect(bom.lines.map((line) => [line.designators, line.value, line.quantity])).toEqual([
      [['C1', 'C2'], '100n', 2],
      [['R1', 'R2', 'R3'], '4k7', 3],
    ]);
  });

  it('reads Altium column names and counts designators when there is no quantity', async () => {
    const csv = 'Comment,Description,Designator,Footprint,Manufacturer 1,Manufacturer Part Number 1,Supplier 1,Supplier Part Number 1\n' +
      '100nF,Capacitor,"C1 C2 C5",C0402,Murata,GRM155R71C104KA88D,Mouser,81-GRM155R71C104KA8D\n';
    const bom = await parseBom(text(csv), 'Altium.csv');
    expect(bom.lines).toEqual([
      expect.objectContaining({ designators: ['C1', 'C2', 'C5'], quantity: 3, value: '100nF', manufacturer: 'Murata', mpn: 'GRM155R71C104KA88D', mouser: '81-GRM155R71C104KA8D' }),
    ]);
  });

  it('reads a KiCad BOM in UTF-8 with a byte-order mark, and an EAGLE export naming designators "Parts"', async () => {
    const kicad = await parseBom(text('\uFEFF"Reference","Value","Footprint","Qty","LCSC Part #"\n"D1,D2","LED","LED_0805","2","C2297"\n'), 'board.csv');
    expect(kicad.lines[0]).toMatchObject({ designators: ['D1', 'D2'], quantity: 2, value: 'LED', footprint: 'LED_0805', lcsc: 'C2297' });
    const eagle = await parseBom(text('Qty\tValue\tDevice\tPackage\tParts\tDescription\n2\t10k\tR-EU_R0603\tR0603\tR1, R2\tRESISTOR\n'), 'eagle.txt');
    expect(eagle.lines[0]).toMatchObject({ designators: ['R1', 'R2'], quantity: 2, value: '10k', footprint: 'R0603', description: 'RESISTOR' });
  });

  it('reads the Chinese headers of EasyEDA', async () => {
    const csv = '序号\t名称\t位号\t封装\t数量\t制造商料号\t制造商\t供应商\t供应商编号\n1\t10uF\tC1,C2\tC0805\t2\tCL21A106KAYNNNE\tSAMSUNG\tLCSC\tC15850\n';
    const bom = await parseBom(text(csv), 'BOM.csv');
    expect(bom.lines[0]).toMatchObject({ designators: ['C1', 'C2'], quantity: 2, value: '10uF', footprint: 'C0805', mpn: 'CL21A106KAYNNNE', lcsc: 'C15850' });
  });

  it('says which columns it found when none is a BOM column', async () => {
    const bom = await parseBom(text('Name,Email,Phone\nAda,ada@example.com,123\n'), 'contacts.csv');
    expect(bom).toMatchObject({ errorKey: 'no_columns', foundColumns: ['Name', 'Email', 'Phone'], lines: [] });
    // Only one known column is not enough to call it a BOM either.
    expect((await parseBom(text('Designator,Colour\nR1,red\n'), 'x.csv')).errorKey).toBe('no_columns');
  });

  it('answers empty for a header without lines, and for nothing at all', async () => {
    expect(await parseBom(text('Designator,Value,Footprint\n'), 'bom.csv')).toMatchObject({ errorKey: 'empty', foundColumns: ['Designator', 'Value', 'Footprint'] });
    expect((await parseBom(text(''), 'bom.csv')).errorKey).toBe('empty');
  });

  it('never throws on hostile input: random bytes, a broken workbook, binary with a BOM-like name', async () => {
    for (let i = 0; i < 20; i++) {
      const result = await parseBom(new Uint8Array(randomBytes(2000)), 'bom.csv');
      expect(result.errorKey).toMatch(/unreadable|no_columns|empty/);
      expect(result.lines).toEqual([]);
    }
    const fakeZip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...randomBytes(500)]);
    expect((await parseBom(fakeZip, 'bom.xlsx')).errorKey).toBe('unreadable');
    expect((await parseBom(new Uint8Array([0xff, 0xfe, 0x00, 0xd8]), 'bom.csv')).errorKey).toBe('unreadable');
  });

  it('keeps to its limits: lines, columns and cell length', async () => {
    const many = `Designator,Value\n${Array.from({ length: BOM_LIMITS.lines + 50 }, (_, i) => `R${i + 1},10k`).join('\n')}\n`;
    const bom = await parseBom(text(many), 'big.csv');
    expect(bom.lines).toHaveLength(BOM_LIMITS.lines);
    const wide = `Designator,Value,${Array.from({ length: 400 }, (_, i) => `c${i}`).join(',')}\nR1,${'x'.repeat(2000)}\n`;
    const cut = await parseBom(text(wide), 'wide.csv');
    expect(cut.foundColumns).toHaveLength(BOM_LIMITS.columns);
    expect(cut.lines[0]!.value).toHaveLength(BOM_LIMITS.cellChars);
  });
});

describe('expandDesignators', () => {
  it('splits on commas, spaces and semicolons and expands ranges', () => {
    expect(expandDesignators('C4, C8;C10 C12')).toEqual(['C4', 'C8', 'C10', 'C12']);
    expect(expandDesignators('R1-R4')).toEqual(['R1', 'R2', 'R3', 'R4']);
    expect(expandDesignators('R1..R4, R7')).toEqual(['R1', 'R2', 'R3', 'R4', 'R7']);
    expect(expandDesignators('D2-5')).toEqual(['D2', 'D3', 'D4', 'D5']);
    expect(expandDesignators('R1 - R3')).toEqual(['R1', 'R2', 'R3']);
    expect(expandDesignators('R4-R2')).toEqual(['R4', 'R3', 'R2']);
    expect(expandDesignators('LED01-LED03')).toEqual(['LED01', 'LED02', 'LED03']);
  });

  it('leaves names that are no range alone and drops duplicates', () => {
    expect(expandDesignators('U1-A, U1-B')).toEqual(['U1-A', 'U1-B']);
    expect(expandDesignators('R1-C4')).toEqual(['R1-C4']);
    expect(expandDesignators('R1, R1, R2')).toEqual(['R1', 'R2']);
  });

  it('caps a huge range', () => {
    expect(expandDesignators('R1-R999999999')).toHaveLength(MAX_DESIGNATORS_PER_LINE);
  });
});
