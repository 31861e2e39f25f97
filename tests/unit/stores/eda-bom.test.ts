import { describe, expect, it } from 'vitest';
import { MAX_EXPORT_BOARDS } from '../../../src/lib/contract/eda.ts';
import { boardsFromText, compareNatural, createBomTable, exportHref, filterLines, sortLines, supplierUrl } from '../../../src/stores/eda-bom.ts';
import type { BomLine } from '../../../src/lib/contract/schemas/eda.ts';

const line = (lineNo: number, designators: string[], fields: Partial<BomLine> = {}): BomLine => ({
  lineNo,
  designators,
  quantity: designators.length,
  value: '',
  footprint: '',
  manufacturer: '',
  mpn: '',
  lcsc: '',
  mouser: '',
  digikey: '',
  farnell: '',
  description: '',
  dnp: false,
  ...fields,
});

const lines = [
  line(1, ['R10', 'R11'], { value: '10k', lcsc: 'C25804', footprint: 'R_0603' }),
  line(2, ['R2'], { value: '4k7', footprint: 'R_0603' }),
  line(3, ['C1', 'C2', 'C3'], { value: '100nF', mpn: 'CL10B104KB8NNNC', footprint: 'C_0603' }),
  line(4, ['U1'], { value: 'ATmega328P', description: 'Microcontroller' }),
];
const columns = ['designators', 'quantity', 'value', 'footprint', 'mpn', 'lcsc', 'description'] as const;

describe('the BOM table', () => {
  it('orders designators naturally: R2 before R10, whatever the case', () => {
    expect(['R10', 'R2', 'r1', 'C1'].sort(compareNatural)).toEqual(['C1', 'r1', 'R2', 'R10']);
    expect(sortLines(lines, { column: 'designators', direction: 'ascending' }).map((l) => l.lineNo)).toEqual([3, 2, 1, 4]);
  });

  it('sorts quantities as numbers and either way, keeping the file order of equal lines', () => {
    expect(sortLines(lines, { column: 'quantity', direction: 'descending' }).map((l) => l.quantity)).toEqual([3, 2, 1, 1]);
    expect(sortLines(lines, { column: 'quantity', direction: 'ascending' }).map((l) => l.lineNo)).toEqual([2, 4, 1, 3]);
  });

  it('puts empty cells last when sorting by text', () => {
    expect(sortLines(lines, { column: 'mpn', direction: 'ascending' })[0]!.lineNo).toBe(3);
  });

  it('filters over every column, any case', () => {
    expect(filterLines(lines, columns, ' r_0603 ').map((l) => l.lineNo)).toEqual([1, 2]);
    expect(filterLines(lines, columns, 'microcontroller').map((l) => l.lineNo)).toEqual([4]);
    expect(filterLines(lines, columns, 'c25804').map((l) => l.lineNo)).toEqual([1]);
    expect(filterLines(lines, columns, 'R11').map((l) => l.lineNo)).toEqual([1]);
    expect(filterLines(lines, columns, '')).toHaveLength(4);
  });

  it('multiplies for a whole number of boards from 1 to the exports\' cap', () => {
    expect(['3', ' 12 ', '0', '-2', '2.7', '', '1e9', '999999999'].map(boardsFromText)).toEqual([3, 12, null, null, null, null, null, MAX_EXPORT_BOARDS]);
    const table = createBomTable({ columns: [...columns], lines });
    table.typeBoards('3');
    expect(table.$table.get()).toMatchObject({ boards: 3, boardsText: '3' });
    // the cap is the one the export answers to, so the link the table builds is never refused
    table.typeBoards(String(MAX_EXPORT_BOARDS + 1));
    expect(table.$table.get().boards).toBe(MAX_EXPORT_BOARDS);
    expect(exportHref('abc', 'plain', table.$table.get().boards)).toBe(`/eda/abc/bom.csv?format=plain&boards=${MAX_EXPORT_BOARDS}`);
  });

  it('lets the boards field be cleared and retyped: clearing then typing 5 means 5 boards, not 15', () => {
    const table = createBomTable({ columns: [...columns], lines });
    table.typeBoards('3');
    table.typeBoards('');
    // the field is empty while the quantities and exports keep the last valid count
    expect(table.$table.get()).toMatchObject({ boardsText: '', boards: 3 });
    table.typeBoards('5');
    expect(table.$table.get()).toMatchObject({ boardsText: '5', boards: 5 });
  });

  it('shows the count in force again when the field is left empty or invalid', () => {
    const table = createBomTable({ columns: [...columns], lines });
    table.typeBoards('4');
    table.typeBoards('');
    table.settleBoards();
    expect(table.$table.get()).toMatchObject({ boardsText: '4', boards: 4 });
    table.typeBoards('0');
    expect(table.$table.get()).toMatchObject({ boardsText: '0', boards: 4 });
    table.settleBoards();
    expect(table.$table.get().boardsText).toBe('4');
  });

  it('cycles a column between ascending and descending, filtering as it goes', () => {
    const table = createBomTable({ columns: [...columns], lines });
    table.sortBy('value');
    expect(table.$table.get().sort).toEqual({ column: 'value', direction: 'ascending' });
    table.sortBy('value');
    expect(table.$table.get().sort).toEqual({ column: 'value', direction: 'descending' });
    table.sortBy('quantity');
    expect(table.$table.get().sort).toEqual({ column: 'quantity', direction: 'ascending' });
    table.setQuery('0603');
    expect(table.$rows.get().map((l) => l.lineNo)).toEqual([2, 1, 3]);
    table.reveal(4);
    expect(table.$table.get().query).toBe('');
  });

  it('links exports and distributors', () => {
    expect(exportHref('abc', 'jlc', 3)).toBe('/eda/abc/bom.csv?format=jlc&boards=3');
    expect(supplierUrl('lcsc', 'c25804')).toBe('https://www.lcsc.com/product-detail/C25804.html');
    expect(supplierUrl('lcsc', 'RC0603 10k')).toBe('https://www.lcsc.com/search?q=RC0603%2010k');
    expect(supplierUrl('mouser', '81-GRM188R71H104KA3D')).toBe('https://www.mouser.com/c/?q=81-GRM188R71H104KA3D');
    expect(supplierUrl('digikey', '311-10.0KHRCT-ND')).toBe('https://www.digikey.com/en/products/result?keywords=311-10.0KHRCT-ND');
    expect(supplierUrl('farnell', '2447230')).toBe('https://www.farnell.com/search?st=2447230');
  });
});
