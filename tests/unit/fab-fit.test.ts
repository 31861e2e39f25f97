import { describe, expect, it } from 'vitest';
import type { BoardFacts } from '../../src/lib/contract/schemas/eda.ts';
import { FABS, fabFit, fabProcess, type Fab } from '../../src/lib/fab-fit.ts';

const FAB: Fab = {
  id: 'test',
  name: 'Test Fab',
  source: 'https://example.com/capabilities',
  asOf: '2025',
  layers: [1, 2, 4],
  thicknessesMm: [0.8, 1.6],
  maxSizeMm: [100, 200],
  standard: { minTraceMm: 0.127, minSpaceMm: 0.127, minDrillMm: 0.3, minAnnularRingMm: 0.13 },
  multilayer: { minTraceMm: 0.09, minDrillMm: 0.15 },
};

/** A board every check can judge, within all of FAB's limits. */
const FITTING: BoardFacts = {
  widthMm: 150, heightMm: 80, widthIn: 5.906, heightIn: 3.15, areaCm2: 120, copperLayers: 2, thicknessMm: 1.57,
  minTraceMm: 0.1524, minDrillMm: 0.3, minAnnularRingMm: 0.15, holes: 10, platedHoles: 10, nonPlatedHoles: 0, vias: 0,
  partsTop: null, partsBottom: null,
};

const outcome = (facts: BoardFacts, check: string) => fabFit(facts, FAB).checks.find((entry) => entry.check === check)?.outcome;

describe('fabFit', () => {
  it('fits a board whose every fact is known and within the standard process (a board may be turned to fit)', () => {
    const fit = fabFit(FITTING, FAB);
    expect(fit.verdict).toBe('fits');
    expect(fit.checks.every((check) => check.outcome === 'ok')).toBe(true);
  });

  it('names the fact that rules the fab out, with the board’s value and the fab’s limit', () => {
    const fit = fabFit({ ...FITTING, minDrillMm: 0.15 }, FAB);
    expect(fit.verdict).toBe('fails');
    expect(fit.checks.filter((check) => check.outcome === 'fails')).toEqual([{ check: 'minDrill', outcome: 'fails', value: 0.15, limit: 0.3 }]);
  });

  it('rules out a board too large, a layer count not offered and a thickness not offered', () => {
    expect(outcome({ ...FITTING, widthMm: 250 }, 'size')).toBe('fails');
    expect(outcome({ ...FITTING, widthMm: 150, heightMm: 150 }, 'size')).toBe('fails');
    expect(outcome({ ...FITTING, copperLayers: 6 }, 'copperLayers')).toBe('fails');
    expect(outcome({ ...FITTING, thicknessMm: 1.2 }, 'thickness')).toBe('fails');
    expect(outcome({ ...FITTING, minTraceMm: 0.1 }, 'minTrace')).toBe('fails');
    expect(outcome({ ...FITTING, minAnnularRingMm: 0.1 }, 'minAnnularRing')).toBe('fails');
  });

  it('says an unknown fact is unknown, never passing, and the board does not fit for sure', () => {
    const fit = fabFit({ ...FITTING, thicknessMm: null, minAnnularRingMm: null }, FAB);
    expect(fit.verdict).toBe('unknown');
    expect(fit.checks.filter((check) => check.outcome === 'unknown').map((check) => check.check)).toEqual(['thickness', 'minAnnularRing']);
  });

  it('a failing fact outweighs unknown ones', () => {
    expect(fabFit({ ...FITTING, thicknessMm: null, minTraceMm: 0.05 }, FAB).verdict).toBe('fails');
  });

  it('a limit the fab does not state is unknown too', () => {
    expect(outcome(FITTING, 'size')).toBe('ok');
    expect(fabFit(FITTING, { ...FAB, maxSizeMm: null }).checks[0]).toMatchObject({ check: 'size', outcome: 'unknown' });
  });

  it('holds a board of 4 or more copper layers to the multilayer process', () => {
    const fourLayers = { ...FITTING, copperLayers: 4, minTraceMm: 0.1, minDrillMm: 0.2 };
    expect(fabFit(fourLayers, FAB).verdict).toBe('fits');
    expect(fabFit({ ...fourLayers, copperLayers: 2 }, FAB).verdict).toBe('fails');
    expect(fabProcess(FAB, 4)).toEqual({ minTraceMm: 0.09, minSpaceMm: 0.127, minDrillMm: 0.15, minAnnularRingMm: 0.13 });
  });

  it('meets a limit written in mils and compared in mm (6 mil against 0.1524 mm)', () => {
    expect(outcome({ ...FITTING, minTraceMm: 0.006 * 25.4 }, 'minTrace')).toBe('ok');
    expect(fabFit({ ...FITTING, minTraceMm: 0.1524 }, { ...FAB, standard: { ...FAB.standard, minTraceMm: 0.1524 } }).verdict).toBe('fits');
  });
});

describe('the fabs data file', () => {
  it('holds JLCPCB, PCBWay, OSH Park and Aisler, each with its source page, a date and sane limits', () => {
    expect(FABS.map((fab) => fab.name)).toEqual(['JLCPCB', 'PCBWay', 'OSH Park', 'Aisler']);
    for (const fab of FABS) {
      expect(fab.source).toMatch(/^https:\/\//);
      expect(fab.asOf).toMatch(/^20\d\d/);
      expect(fab.layers.length).toBeGreaterThan(0);
      expect(fab.thicknessesMm.length).toBeGreaterThan(0);
      for (const value of Object.values(fab.standard)) expect(value === null || (value > 0.05 && value < 1)).toBe(true);
    }
  });

  it('judges the RRF adapter (KiCad, 1.0 mm holes, 0.25 mm traces, 1.6 mm) fit for every fab that states its size limit', () => {
    const rrf: BoardFacts = { ...FITTING, widthMm: 17.53, heightMm: 13.72, thicknessMm: 1.6, minTraceMm: 0.25, minDrillMm: 1, minAnnularRingMm: 0.35 };
    for (const fab of FABS) expect(fabFit(rrf, fab).verdict).toBe(fab.maxSizeMm ? 'fits' : 'unknown');
  });
});
