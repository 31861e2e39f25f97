import { describe, expect, it } from 'vitest';
import { diffBom, overlayFrames, withoutRenderIds } from '../../src/lib/version-diff.ts';
import type { BomLine } from '../../src/lib/contract/schemas/eda.ts';

let lineNo = 0;
const line = (designators: string, quantity: number, value: string, more: Partial<BomLine> = {}): BomLine => ({
  lineNo: ++lineNo,
  designators: designators ? designators.split(',') : [],
  quantity,
  value,
  footprint: '',
  manufacturer: '',
  mpn: '',
  lcsc: '',
  mouser: '',
  digikey: '',
  farnell: '',
  description: '',
  dnp: false,
  ...more,
});

describe('the BOM diff of two versions', () => {
  it('pairs lines by the designators they share, so a line that gained a part is one changed line', () => {
    const before = [line('R1,R2', 2, '10k'), line('C1', 1, '100n'), line('U1', 1, 'ATmega')];
    const after = [line('R1,R2,R3', 3, '10k'), line('C1', 1, '100n'), line('U2', 1, 'LDO')];
    const diff = diffBom(before, after);
    expect(diff.changed).toEqual([{ before: before[0], after: after[0], fields: ['designators', 'quantity'] }]);
    expect(diff.removed).toEqual([before[2]]);
    expect(diff.added).toEqual([after[2]]);
  });

  it('pairs lines without designators by part number, then by value and footprint', () => {
    const before = [line('', 4, 'M3 screw', { mpn: 'ISO7380-M3' }), line('', 1, 'Header', { footprint: '1x04' })];
    const after = [line('', 6, 'M3 screw', { mpn: 'iso7380-m3' }), line('', 1, 'Header', { footprint: '1x04', manufacturer: 'Samtec' })];
    expect(diffBom(before, after).changed.map((change) => change.fields)).toEqual([['quantity'], ['manufacturer']]);
  });

  it('reports a part number or value change, and nothing for identical BOMs', () => {
    const before = [line('U5', 1, 'CAT24C32', { lcsc: 'C81193' })];
    const after = [line('U5', 1, 'CAT24C64', { lcsc: 'C81192' })];
    expect(diffBom(before, after).changed[0]!.fields).toEqual(['value', 'lcsc']);
    expect(diffBom(before, before)).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe('the overlay of two boards', () => {
  it('lines the boards up in Gerber coordinates: a larger board frames both', () => {
    // 100 × 50 mm at the origin, then 120 × 50 mm grown to the right
    expect(overlayFrames([0, 0, 100, 50], [0, 0, 120, 50])).toEqual({ before: { left: 0, top: 0, width: 83.333, height: 100 }, after: { left: 0, top: 0, width: 100, height: 100 }, aspect: 2.4 });
    // the y axis points up in Gerbers: a board grown downwards keeps its top edge
    expect(overlayFrames([0, 0, 100, 50], [0, -50, 100, 100]).before).toEqual({ left: 0, top: 0, width: 100, height: 50 });
    expect(overlayFrames(null, [10, 10, 20, 10])).toEqual({ before: null, after: { left: 0, top: 0, width: 100, height: 100 }, aspect: 2 });
  });
});

describe('comparing two renders of a layer', () => {
  it('ignores the renderer’s random id prefix, even one with underscores and dashes', () => {
    const render = (prefix: string, x: number) => `<svg><defs><path id="${prefix}_pad-10" d="M0 0"/><mask id="${prefix}_clear-1"/></defs><use xlink:href="#${prefix}_pad-10" x="${x}"/></svg>`;
    expect(withoutRenderIds(render('a_b-c_d_e-f_', 1))).toBe(withoutRenderIds(render('Zq9_x-Y0kLm3', 1)));
    expect(withoutRenderIds(render('a_b-c_d_e-f_', 1))).not.toBe(withoutRenderIds(render('Zq9_x-Y0kLm3', 2)));
  });
});
