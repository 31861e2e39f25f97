import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredBoardFacts } from '../../../src/lib/contract/schemas/eda.ts';
import type { SourceFile } from '../../../src/server/electronics/errors.ts';
import { measureLayers, type MeasuredLayer } from '../../../src/server/electronics/board-facts.ts';
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

const layer = (type: MeasuredLayer['type'], side: MeasuredLayer['side'], filetype: MeasuredLayer['filetype'], text: string): MeasuredLayer => ({
  filename: `${type}-${side}`,
  type,
  side,
  filetype,
  bytes: new TextEncoder().encode(text),
});

/** KiCad 9's merged drill file: a via tool and a non-plated tool, each named by its X2 attribute. */
const MERGED_DRILL = `M48
; #@! TF.FileFunction,MixedPlating,1,2
FMAT,2
METRIC
; #@! TA.AperFunction,Plated,PTH,ViaDrill
T1C0.300
; #@! TA.AperFunction,NonPlated,NPTH,ComponentDrill
T2C3.000
%
G90
G05
T1
X1.0Y1.0
X2.0Y1.0
T2
X5.0Y5.0
M30
`;

/** An X2 copper layer: a conductor, a graphic line (not a trace), a region stroked thin, via pads. */
const X2_COPPER = `%FSLAX46Y46*%
%MOMM*%
%TA.AperFunction,Conductor*%
%ADD10C,0.150000*%
%TD*%
%TA.AperFunction,NonConductor*%
%ADD11C,0.100000*%
%TD*%
%TA.AperFunction,ViaPad*%
%ADD12C,0.600000*%
%TD*%
%ADD13C,0.050000*%
D10*
X0Y0D02*
X3000000Y0D01*
D11*
X0Y1000000D02*
X3000000Y1000000D01*
D12*
X1000000Y1000000D03*
X2000000Y1000000D03*
D13*
G36*
X0Y0D02*
X1000000Y0D01*
X1000000Y1000000D01*
G37*
M02*
`;

describe('measuring the files', () => {
  it('counts vias and non-plated holes of one merged drill file by their tools’ X2 functions', () => {
    const facts = measureLayers([layer('drill', 'all', 'drill', MERGED_DRILL), layer('copper', 'top', 'gerber', X2_COPPER)]);
    expect(facts).toEqual({ minTraceMm: 0.15, minDrillMm: 0.3, holes: 3, platedHoles: 2, nonPlatedHoles: 1, vias: 2, minAnnularRingMm: 0.15 });
  });

  it('takes every line on copper when the file says nothing of its apertures, and no drill file leaves holes unknown', () => {
    const plain = X2_COPPER.replace(/%T[AD][^%]*%\n/g, '');
    expect(measureLayers([layer('copper', 'top', 'gerber', plain)])).toEqual({
      minTraceMm: 0.1, minDrillMm: null, holes: null, platedHoles: null, nonPlatedHoles: null, vias: null, minAnnularRingMm: null,
    });
  });
});
