import { describe, expect, it } from 'vitest';
import type { BoardFacts } from '../../src/lib/contract/schemas/eda.ts';
import { factRows, fitReasons } from '../../src/lib/board-facts-text.ts';
import { FABS, fabFit, fabProcess, type Fab } from '../../src/lib/fab-fit.ts';
import { getT } from '../../src/lib/i18n.ts';

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
    const fit = fabFit({ ...FITTING, minAnnularRingMm: null }, FAB);
    expect(fit.verdict).toBe('unknown');
    expect(fit.checks.filter((check) => check.outcome === 'unknown').map((check) => check.check)).toEqual(['minAnnularRing']);
  });

  it('leaves a thickness the files do not declare to the order form: it neither passes nor blocks', () => {
    const fit = fabFit({ ...FITTING, thicknessMm: null }, FAB);
    expect(fit.checks.find((check) => check.check === 'thickness')).toMatchObject({ outcome: 'atOrder', value: null, limit: [0.8, 1.6] });
    expect(fit.verdict).toBe('fits');
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

describe('how the page words facts and verdicts', () => {
  const en = getT('en-US');
  const zh = getT('zh-CN');

  it('says which fact rules a fab out, in mm and inches, and that unknown facts are unknown', () => {
    const fit = fabFit({ ...FITTING, minDrillMm: 0.15, minAnnularRingMm: null, thicknessMm: null }, FAB);
    expect(fitReasons(fit, en)).toEqual([
      'No thickness in the files: pick one in Test Fab’s order form (0.8 / 1.6 mm)',
      'Smallest drill 0.15 mm (0.0059 in) < Test Fab’s 0.3 mm (0.0118 in)',
      'The board’s smallest annular ring is unknown',
    ]);
    expect(fitReasons(fit, zh)[1]).toBe('最小钻孔 0.15 毫米（0.0059 英寸） < Test Fab 的 0.3 毫米（0.0118 英寸）');
    expect(fitReasons(fit, zh)[0]).toContain('Test Fab');
    expect(fitReasons(fabFit(FITTING, { ...FAB, maxSizeMm: null }), en)).toEqual(['Test Fab states no limit for the size']);
  });

  it('lists the facts with counts in both languages, unknown where the files do not tell', () => {
    const rows = factRows({ ...FITTING, vias: null, platedHoles: null, nonPlatedHoles: null, holes: 1, partsTop: 12, partsBottom: 1 }, en);
    expect(Object.fromEntries(rows.map((row) => [row.key, row.value]))).toEqual({
      area: '120 cm² (18.6 in²)',
      thickness: '1.57 mm (0.0618 in)',
      minTrace: '0.152 mm (0.006 in)',
      minDrill: '0.3 mm (0.0118 in)',
      holes: '1 hole; plating unknown; vias unknown',
      minAnnularRing: '0.15 mm (0.0059 in)',
      parts: '12 parts on top; 1 on the bottom',
    });
    const unknown = factRows({ ...FITTING, minAnnularRingMm: null }, zh).find((row) => row.key === 'minAnnularRing');
    expect(unknown).toMatchObject({ label: '最小孔环', value: '未知', unknown: true });
  });
});
