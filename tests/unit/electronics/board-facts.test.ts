import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredBoardFacts } from '../../../src/lib/contract/schemas/eda.ts';
import type { SourceFile } from '../../../src/server/electronics/errors.ts';
import { processGerberSet } from '../../../src/server/electronics/process-board.ts';
import { BOARD_FIXTURES, loadBoard, type BoardName } from '../../helpers/board-fixtures.ts';

const KICAD9_RRF = path.resolve(BOARD_FIXTURES, '../../../tests/fixtures/eda/kicad9-rrf');

function loadFolder(folder: string): SourceFile[] {
  return readdirSync(folder)
    .filter((name) => name !== 'LICENSE')
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(folder, name))) }));
}

type Expected = Omit<StoredBoardFacts, 'widthIn' | 'heightIn' | 'areaCm2'>;

/** Measured by hand from the files: tests/fixtures/eda/BOARD-FACTS.md says how. */
const BY_HAND: Record<BoardName | 'kicad9-rrf', Expected> = {
  'altium-bga24': {
    widthMm: 8, heightMm: 6, copperLayers: 2, thicknessMm: null, minTraceMm: 0.1524, minDrillMm: 0.3048,
    holes: 11, platedHoles: 11, nonPlatedHoles: 0, vias: null, minAnnularRingMm: 0.1524,
  },
  'eagle-snapper': {
    widthMm: 27.3, heightMm: 32.06, copperLayers: 2, thicknessMm: 1.57, minTraceMm: 0.0675, minDrillMm: 0.305,
    holes: 105, platedHoles: null, nonPlatedHoles: null, vias: null, minAnnularRingMm: 0.2031,
  },
  'kicad-rrf': {
    widthMm: 17.53, heightMm: 13.72, copperLayers: 2, thicknessMm: 1.6, minTraceMm: 0.25, minDrillMm: 1,
    holes: 16, platedHoles: 16, nonPlatedHoles: 0, vias: 0, minAnnularRingMm: 0.35,
  },
  'kicad-sanga04': {
    widthMm: 65, heightMm: 56.5, copperLayers: 2, thicknessMm: null, minTraceMm: 0.2, minDrillMm: 0.50038,
    holes: 174, platedHoles: 170, nonPlatedHoles: 4, vias: null, minAnnularRingMm: 0.1498,
  },
  'kicad9-rrf': {
    widthMm: 17.53, heightMm: 13.72, copperLayers: 2, thicknessMm: 1.6, minTraceMm: 0.25, minDrillMm: 1,
    holes: 16, platedHoles: 16, nonPlatedHoles: 0, vias: 0, minAnnularRingMm: 0.35,
  },
};

const LENGTHS = ['thicknessMm', 'minTraceMm', 'minDrillMm', 'minAnnularRingMm'] as const;
const COUNTS = ['copperLayers', 'holes', 'platedHoles', 'nonPlatedHoles', 'vias'] as const;

describe('board facts from the fabrication files', () => {
  for (const [name, expected] of Object.entries(BY_HAND)) {
    it(`measures ${name} as measured by hand`, async () => {
      const files = name === 'kicad9-rrf' ? loadFolder(KICAD9_RRF) : loadBoard(name as BoardName);
      const { facts } = await processGerberSet({ files });
      expect(Math.abs(facts.widthMm! - expected.widthMm!)).toBeLessThanOrEqual(0.2);
      expect(Math.abs(facts.heightMm! - expected.heightMm!)).toBeLessThanOrEqual(0.2);
      expect(facts.widthIn).toBeCloseTo(facts.widthMm! / 25.4, 3);
      expect(facts.areaCm2).toBeCloseTo((facts.widthMm! * facts.heightMm!) / 100, 2);
      for (const key of COUNTS) expect({ [key]: facts[key] }).toEqual({ [key]: expected[key] });
      for (const key of LENGTHS) {
        if (expected[key] === null) expect({ [key]: facts[key] }).toEqual({ [key]: null });
        else expect(Math.abs(facts[key]! - expected[key]!), key).toBeLessThanOrEqual(0.0005);
      }
    }, 60_000);
  }
});
