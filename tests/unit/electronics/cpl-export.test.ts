import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { alignPlacements } from '../../../src/server/electronics/placement-alignment.ts';
import { exportJlcCpl, JLC_CPL_HEADER, normaliseRotation } from '../../../src/server/electronics/cpl-export.ts';

const rows = (csv: string) => Papa.parse<string[]>(csv.trim(), { skipEmptyLines: true }).data;

describe("JLCPCB's placement (CPL) file", () => {
  // A 50 × 30 mm board whose Gerbers span x 100…150, y −80…−50 (KiCad's absolute coordinates, y up).
  const viewBox = [100, -80, 50, 30] as const;

  it("names JLC's columns in its order and writes millimetres with their unit", () => {
    const csv = exportJlcCpl([{ designator: 'R1', xMm: 10, yMm: 5, rotation: 90, side: 'top' }], viewBox, 30);
    const [header, r1] = rows(csv);
    expect(header).toEqual([...JLC_CPL_HEADER]);
    expect(header).toEqual(['Designator', 'Mid X', 'Mid Y', 'Layer', 'Rotation']);
    // 10 mm from the left edge, 5 mm below the top edge: x 110, y −50 − 5.
    expect(r1).toEqual(['R1', '110mm', '-55mm', 'Top', '90']);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('gives back the placement file’s own Gerber coordinates after the parts were put on the board', () => {
    const raw = [
      { designator: 'U1', x: 112.5, y: -61.25, rotation: 270, side: 'top' as const },
      { designator: 'C3', x: 140.125, y: -75.5, rotation: 180, side: 'bottom' as const },
    ];
    const parts = alignPlacements(raw, viewBox, { widthMm: 50, heightMm: 30 });
    const byRef = Object.fromEntries(rows(exportJlcCpl(parts, viewBox, 30)).slice(1).map((row) => [row[0], row]));
    expect(byRef.U1).toEqual(['U1', '112.5mm', '-61.25mm', 'Top', '270']);
    expect(byRef.C3).toEqual(['C3', '140.125mm', '-75.5mm', 'Bottom', '180']);
  });

  it('keeps a bottom part’s position as seen from the top (not mirrored) and its rotation as the design gives it', () => {
    const csv = exportJlcCpl([{ designator: 'D2', xMm: 40, yMm: 20, rotation: -90, side: 'bottom' }], viewBox, 30);
    expect(rows(csv)[1]).toEqual(['D2', '140mm', '-70mm', 'Bottom', '270']);
  });

  it('normalises rotations to [0, 360)', () => {
    expect([0, 90, 360, 450, -90, -360, 359.9999, 45.5, Number.NaN].map(normaliseRotation)).toEqual([0, 90, 0, 90, 270, 0, 0, 45.5, 0]);
  });

  it('orders parts by designator naturally and keeps a designator from running as a formula', () => {
    const parts = ['R10', 'R2', '=HYPERLINK("x")', 'C1'].map((designator) => ({ designator, xMm: 1, yMm: 1, rotation: 0, side: 'top' as const }));
    expect(rows(exportJlcCpl(parts, viewBox, 30)).slice(1).map((row) => row[0])).toEqual(["'=HYPERLINK(\"x\")", 'C1', 'R2', 'R10']);
  });
});
