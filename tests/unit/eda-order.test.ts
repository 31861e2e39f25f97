import { describe, expect, it } from 'vitest';
import { boardGerbersPath, cplPath, digikeyCartFields, DIGIKEY_FAST_ADD_URL, fabOrderLinks } from '../../src/lib/eda-order.ts';
import { createBomTable } from '../../src/stores/eda-bom.ts';
import type { BomLine } from '../../src/lib/contract/schemas/eda.ts';

describe('order links of a board', () => {
  it('hand Aisler and PCBWay the absolute address of the board’s Gerber zip, encoded whole', () => {
    const zip = new URL(boardGerbersPath('abc 1', 7), 'https://copperhub.example').toString();
    expect(zip).toBe('https://copperhub.example/eda/abc%201/board-7-gerbers.zip');
    const links = fabOrderLinks(zip);
    expect(links.map((link) => link.fab)).toEqual(['aisler', 'pcbway']);
    const aisler = new URL(links[0]!.href);
    expect(`${aisler.origin}${aisler.pathname}`).toBe('https://aisler.net/p/new');
    expect(aisler.searchParams.get('url')).toBe(zip);
    const pcbway = new URL(links[1]!.href);
    expect(`${pcbway.origin}${pcbway.pathname}`).toBe('https://www.pcbway.com/QuickOrderOnline.aspx');
    expect(pcbway.searchParams.get('fileurl')).toBe(zip);
    // The zip's own query or fragment cannot leak into the fab's parameters.
    expect(links[0]!.href).toContain(encodeURIComponent('https://copperhub.example/eda/abc%201/board-7-gerbers.zip'));
    expect(new URL(fabOrderLinks('https://x.example/a.zip?x=1&y=2')[1]!.href).searchParams.get('fileurl')).toBe('https://x.example/a.zip?x=1&y=2');
  });

  it('refuse an address a fab could not fetch', () => {
    expect(() => fabOrderLinks('/eda/abc/board-7-gerbers.zip')).toThrow();
    expect(() => fabOrderLinks('javascript:alert(1)')).toThrow();
  });

  it('name the CPL export', () => {
    expect(cplPath('abc')).toBe('/eda/abc/cpl.csv?format=jlc');
  });
});

const line = (lineNo: number, designators: string[], fields: Partial<BomLine> = {}): BomLine => ({
  lineNo, designators, quantity: designators.length, value: '', footprint: '', manufacturer: '', mpn: '', lcsc: '', mouser: '', digikey: '', farnell: '', description: '', dnp: false, ...fields,
});

describe("Digi-Key's add-all-to-cart form", () => {
  const lines = [
    line(1, ['R1', 'R2'], { digikey: '311-10.0KHRCT-ND' }),
    line(2, ['C1'], { digikey: '' }),
    line(3, ['U1'], { digikey: ' 296-1395-5-ND ' }),
    line(4, ['J1'], { digikey: 'A100-ND', dnp: true }),
    line(5, ['X1'], { digikey: 'SOLDER-ND', quantity: 0.25 }),
  ];

  it('numbers part, quantity and reference for each line with a Digi-Key part, leaving out the others', () => {
    expect(digikeyCartFields(lines, 1)).toEqual([
      { name: 'part1', value: '311-10.0KHRCT-ND' }, { name: 'qty1', value: '2' }, { name: 'cref1', value: 'R1,R2' },
      { name: 'part2', value: '296-1395-5-ND' }, { name: 'qty2', value: '1' }, { name: 'cref2', value: 'U1' },
      { name: 'part3', value: 'SOLDER-ND' }, { name: 'qty3', value: '1' }, { name: 'cref3', value: 'X1' },
    ]);
    expect(DIGIKEY_FAST_ADD_URL).toBe('https://www.digikey.com/classic/ordering/fastadd.aspx');
  });

  it('follows the table’s number of boards, whatever its filter', () => {
    const table = createBomTable({ columns: ['designators', 'digikey'], lines });
    table.setQuery('U1');
    table.typeBoards('10');
    const fields = Object.fromEntries(table.$digikeyCart.get().map((field) => [field.name, field.value]));
    expect(fields).toMatchObject({ qty1: '20', qty2: '10', qty3: '3' });
    table.typeBoards('');
    expect(table.$digikeyCart.get().find((field) => field.name === 'qty1')?.value).toBe('20');
  });
});
