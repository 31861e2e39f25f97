import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gerberFlashes } from '../../../src/server/electronics/gerber-flashes.ts';
import { alignPlacements } from '../../../src/server/electronics/placement-alignment.ts';
import { looksLikePlacements, parsePlacements } from '../../../src/server/electronics/placements.ts';

const FIXTURES = new URL('../../fixtures/eda/', import.meta.url);
const bytes = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const parse = (name: string) => parsePlacements(bytes(name), name);
const text = (s: string) => new TextEncoder().encode(s);

describe('parsePlacements', () => {
  it('reads KiCad .pos (ASCII) in mm and in inches', () => {
    expect(parse('kicad-board.pos')).toEqual({
      placements: [
        { designator: 'C1', x: 10, y: -5.5, rotation: 90, side: 'top' },
        { designator: 'R1', x: 12.5, y: -8.25, rotation: 180, side: 'top' },
        { designator: 'U1', x: 20, y: -15, rotation: 270, side: 'bottom' },
      ],
    });
    const inches = parse('kicad-board-inches.pos').placements;
    expect(inches[0]).toMatchObject({ designator: 'C1', rotation: 90 });
    expect(inches[0]!.x).toBeCloseTo(12.7, 6);
    expect(inches[0]!.y).toBeCloseTo(-6.35, 6);
    expect(inches[1]!.x).toBeCloseTo(25.4, 6);
  });

  it('reads the KiCad CSV, with negative rotations brought into 0–360', () => {
    const { placements } = parse('kicad-board-pos.csv');
    expect(placements).toHaveLength(3);
    expect(placements[2]).toEqual({ designator: 'U1', x: 20, y: -15, rotation: 270, side: 'bottom' });
  });

  it('reads EAGLE mountsmd output: .mnt is the top side, .mnb the bottom', () => {
    expect(parse('eagle-board.mnt').placements).toEqual([
      { designator: 'C1', x: 10.16, y: 5.08, rotation: 90, side: 'top' },
      { designator: 'R1', x: 12.7, y: 7.62, rotation: 0, side: 'top' },
      { designator: 'U1', x: 25.4, y: 15.24, rotation: 180, side: 'top' },
    ]);
    expect(parse('eagle-board.mnb').placements).toEqual([{ designator: 'C9', x: 3.81, y: 2.54, rotation: 270, side: 'bottom' }]);
  });

  it('reads Altium Pick Place files past their title lines, in mm (CSV) and in mil (quoted text)', () => {
    expect(parse('altium-pick-place.csv').placements).toEqual([
      { designator: 'C1', x: 12.7, y: 15.24, rotation: 90, side: 'top' },
      { designator: 'R1', x: 20.32, y: 15.24, rotation: 0, side: 'top' },
      { designator: 'U2', x: 30.48, y: 10.16, rotation: 180, side: 'bottom' },
    ]);
    const mil = parse('altium-pick-place.txt').placements;
    expect(mil.map((part) => part.designator)).toEqual(['C1', 'U2']);
    expect(mil[0]!.x).toBeCloseTo(12.7, 6);
    expect(mil[0]!.y).toBeCloseTo(15.24, 6);
    expect(mil[1]).toMatchObject({ side: 'bottom', rotation: 180 });
    expect(mil[1]!.x).toBeCloseTo(30.48, 6);
  });

  it('reads JLC CPL files with "mm" after the numbers and T/B layers, and the real Sangaboard CPL', () => {
    expect(parse('jlc-cpl.csv').placements).toEqual([
      { designator: 'C1', x: 10.16, y: 5.08, rotation: 90, side: 'top' },
      { designator: 'R1', x: 12.7, y: 7.62, rotation: 0, side: 'top' },
      { designator: 'U3', x: 25.4, y: 15.24, rotation: 180, side: 'bottom' },
    ]);
    const sanga = parse('sangaboard-pos_jlc.csv').placements;
    expect(sanga).toHaveLength(67);
    expect(sanga[0]).toEqual({ designator: 'C1', x: 28.76, y: 39.49, rotation: 270, side: 'top' });
  });

  it('refuses what is no placement file, and never throws', () => {
    expect(parsePlacements(text('Designator,Value\nR1,10k\n'), 'bom.csv').errorKey).toBe('no_columns');
    expect(parsePlacements(text('Designator,Mid X,Mid Y,Layer,Rotation\n'), 'cpl.csv').errorKey).toBe('empty');
    for (let i = 0; i < 20; i++) {
      const result = parsePlacements(new Uint8Array(randomBytes(3000)), 'board.pos');
      expect(result.placements).toEqual([]);
      expect(result.errorKey).toBeDefined();
    }
  });
});

describe('looksLikePlacements', () => {
  it('recognises every placement format and no BOM', () => {
    for (const name of ['kicad-board.pos', 'kicad-board-pos.csv', 'eagle-board.mnt', 'eagle-board.mnb', 'altium-pick-place.csv', 'altium-pick-place.txt', 'jlc-cpl.csv', 'sangaboard-pos_jlc.csv']) {
      expect(looksLikePlacements(readFileSync(new URL(name, FIXTURES), 'utf8'), name), name).toBe(true);
    }
    for (const name of ['bom/SnapperGPS_1_0_0_BOM.csv', 'bom/rrf-1-click-bom.tsv', 'bom/sanga-bom_jlc.csv']) {
      expect(looksLikePlacements(readFileSync(new URL(name, FIXTURES), 'utf8'), name), name).toBe(false);
    }
    expect(looksLikePlacements('Just some notes about my board.', 'notes.txt')).toBe(false);
  });
});

describe('alignPlacements', () => {
  // The Sangaboard's Gerber view box, measured with pcb-stackup 4.2.8 (outlineGapFill 0.01) on
  // /work/shared/fixtures/eda/kicad-sanga04: top.viewBox [196860, -144234, 65000, 56500] in µm,
  // i.e. the outline from x 196.86 to 261.86 mm and y -144.234 to -87.734 mm (y up).
  const SANGA_VIEWBOX = [196.86, -144.234, 65, 56.5] as const;
  const SANGA = { widthMm: 65, heightMm: 56.5 };

  it('finds where the Sangaboard CPL origin lies from the paste pads, and puts every part on the board', () => {
    const pads = gerberFlashes(readFileSync(new URL('sangaboard_v0.4-F_Paste.gtp', FIXTURES), 'utf8'));
    expect(pads.length).toBeGreaterThan(100);
    const parts = alignPlacements(parse('sangaboard-pos_jlc.csv').placements, SANGA_VIEWBOX, SANGA, pads);
    expect(parts).toHaveLength(67);
    for (const part of parts) {
      expect(part.xMm, part.designator).toBeGreaterThanOrEqual(0);
      expect(part.xMm, part.designator).toBeLessThanOrEqual(SANGA.widthMm);
      expect(part.yMm, part.designator).toBeGreaterThanOrEqual(0);
      expect(part.yMm, part.designator).toBeLessThanOrEqual(SANGA.heightMm);
    }
    // The CPL was written from KiCad's auxiliary origin at (200, -150) on the Gerbers: D2 at
    // x -0.87 in the file sits 2.27 mm from the board's left edge; C1 (y 39.49 up) 22.78 mm from its top.
    expect(parts.find((part) => part.designator === 'D2')).toMatchObject({ xMm: 2.27, rotation: 90, side: 'top' });
    const c1 = parts.find((part) => part.designator === 'C1')!;
    expect(c1.xMm).toBeCloseTo(31.9, 2);
    expect(c1.yMm).toBeCloseTo(22.776, 2);
  });

  it('keeps Gerber-absolute coordinates when they already fall on the board (KiCad .pos, EAGLE)', () => {
    // A 30 × 20 mm board whose outline starts at (100, -120) in Gerber coordinates.
    const placed = alignPlacements(
      [
        { designator: 'R1', x: 105, y: -105, rotation: 0, side: 'top' },
        { designator: 'C1', x: 125, y: -115, rotation: 90, side: 'bottom' },
      ],
      [100, -120, 30, 20],
      { widthMm: 30, heightMm: 20 },
    );
    expect(placed).toEqual([
      { designator: 'R1', xMm: 5, yMm: 5, rotation: 0, side: 'top' },
      { designator: 'C1', xMm: 25, yMm: 15, rotation: 90, side: 'bottom' },
    ]);
  });

  it('measures from the lower-left corner when the file does (placement origin at the board corner)', () => {
    const placed = alignPlacements(
      [
        { designator: 'R1', x: 5, y: 15, rotation: 0, side: 'top' },
        { designator: 'C1', x: 25, y: 5, rotation: 0, side: 'top' },
      ],
      [100, -120, 30, 20],
      { widthMm: 30, heightMm: 20 },
    );
    expect(placed.map((part) => [part.designator, part.xMm, part.yMm])).toEqual([
      ['R1', 5, 5],
      ['C1', 25, 15],
    ]);
  });
});

describe('gerberFlashes', () => {
  it('reads flash centres in mm whatever the coordinate format and units, and small regions as pads', () => {
    const mm = gerberFlashes('%FSLAX46Y46*%\n%MOMM*%\n%ADD10R,1X1*%\nD10*\nX1500000Y-2000000D03*\nX2500000D03*\nX0Y0D02*\nX9000000Y0D01*\nG36*\nX0Y0D02*\nX1000000Y0D01*\nX1000000Y1000000D01*\nX0Y1000000D01*\nG37*\nM02*');
    expect(mm).toEqual([[1.5, -2], [2.5, -2], [0.5, 0.5]]);
    const inches = gerberFlashes('%FSTAX23Y23*%\n%MOIN*%\nX1Y-005D03*\nM02*');
    expect(inches[0]![0]).toBeCloseTo(254, 6);
    expect(inches[0]![1]).toBeCloseTo(-12.7, 6);
  });
});
