import { describe, expect, it } from 'vitest';
import type { BomLine } from '../../../src/lib/contract/eda.ts';
import { clampBoards, compareNatural, createBomTable, exportHref, filterLines, sortLines, supplierUrl } from '../../../src/stores/eda-bom.ts';

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

  it('multiplies for a whole number of boards from 1 to 100000', () => {
    expect([clampBoards(3), clampBoards(0), clampBoards(-2), clampBoards(2.7), clampBoards(Number.NaN), clampBoards(1e9)]).toEqual([3, 1, 1, 2, 1, 100_000]);
    const table = createBomTable({ columns: [...columns], lines });
    table.setBoards(3);
    expect(table.$table.get().boards).toBe(3);
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
