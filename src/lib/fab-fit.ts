/**
 * Will a fab make this board? The board's measured facts against a fab's standard process, from
 * the capabilities in `fabs.json`. A fact the files do not tell (or a limit the fab does not
 * state) is unknown, never counted as passing.
 */
import type { BoardFacts } from './contract/schemas/eda.ts';
import fabData from './fabs.json' with { type: 'json' };

export interface FabProcess {
  minTraceMm: number | null;
  minSpaceMm: number | null;
  minDrillMm: number | null;
  minAnnularRingMm: number | null;
}

export interface Fab {
  id: string;
  name: string;
  /** The public capabilities page the numbers come from. */
  source: string;
  /** When the numbers were taken from it. */
  asOf: string;
  layers: number[];
  thicknessesMm: number[];
  /** Largest board, mm, either way round; null when the page states none. */
  maxSizeMm: [number, number] | null;
  /** The 1–2 layer process. */
  standard: FabProcess;
  /** What changes for 4 or more copper layers. */
  multilayer?: Partial<FabProcess>;
}

/** The facts a fab's process is checked against, in the order they are shown. */
export const FAB_CHECKS = ['size', 'copperLayers', 'thickness', 'minTrace', 'minDrill', 'minAnnularRing'] as const;
export type FabCheck = (typeof FAB_CHECKS)[number];

/**
 * `atOrder`: the files leave it to the order — a thickness no job file declares is picked in the
 * fab's order form from those it offers, so it neither passes nor blocks the board.
 */
export type CheckOutcome = 'ok' | 'fails' | 'unknown' | 'atOrder';

export interface FabCheckResult {
  check: FabCheck;
  outcome: CheckOutcome;
  /** The board's value (mm, or a count); for `size`, width × height. */
  value: number | [number, number] | null;
  /** The fab's limit: a smallest size, the largest board, or what it offers. */
  limit: number | number[] | null;
}

export interface FabFit {
  fab: Fab;
  /** `fits` only when every check is known and passes (a thickness left to the order aside). */
  verdict: 'fits' | 'fails' | 'unknown';
  checks: FabCheckResult[];
}

/** The fabs of `fabs.json`. */
export const FABS: readonly Fab[] = fabData.fabs as Fab[];

/** Lengths written as mils and as mm round differently (6 mil = 0.1524 mm): this much below a limit still meets it. */
const TOLERANCE_MM = 0.001;
/** A declared thickness matches an offered one this close (EAGLE declares 1.57 mm for the 62 mil fabs call 1.6). */
const THICKNESS_TOLERANCE_MM = 0.05;

/** The fab's process for a board with this many copper layers (unknown: the 1–2 layer one, the stricter). */
export function fabProcess(fab: Fab, copperLayers: number | null): FabProcess {
  return copperLayers !== null && copperLayers > 2 ? { ...fab.standard, ...fab.multilayer } : fab.standard;
}

function atLeast(check: FabCheck, value: number | null, limit: number | null): FabCheckResult {
  if (value === null || limit === null) return { check, outcome: 'unknown', value, limit };
  return { check, outcome: value + TOLERANCE_MM >= limit ? 'ok' : 'fails', value, limit };
}

/** Checks a board's facts against a fab's standard process; each check says which fact rules the fab out. */
export function fabFit(facts: BoardFacts, fab: Fab): FabFit {
  const process = fabProcess(fab, facts.copperLayers);
  const checks: FabCheckResult[] = [];

  const size: [number, number] | null = facts.widthMm !== null && facts.heightMm !== null ? [facts.widthMm, facts.heightMm] : null;
  if (size === null || fab.maxSizeMm === null) checks.push({ check: 'size', outcome: 'unknown', value: size, limit: fab.maxSizeMm });
  else {
    const [long, short] = [Math.max(...size), Math.min(...size)];
    const [maxLong, maxShort] = [Math.max(...fab.maxSizeMm), Math.min(...fab.maxSizeMm)];
    checks.push({ check: 'size', outcome: long <= maxLong && short <= maxShort ? 'ok' : 'fails', value: size, limit: fab.maxSizeMm });
  }

  const layers = facts.copperLayers;
  checks.push({
    check: 'copperLayers',
    outcome: layers === null || layers === 0 ? 'unknown' : fab.layers.includes(layers) ? 'ok' : 'fails',
    value: layers,
    limit: fab.layers,
  });

  const thickness = facts.thicknessMm;
  checks.push({
    check: 'thickness',
    outcome: thickness === null ? 'atOrder' : fab.thicknessesMm.some((offered) => Math.abs(offered - thickness) <= THICKNESS_TOLERANCE_MM) ? 'ok' : 'fails',
    value: thickness,
    limit: fab.thicknessesMm,
  });

  checks.push(atLeast('minTrace', facts.minTraceMm, process.minTraceMm));
  checks.push(atLeast('minDrill', facts.minDrillMm, process.minDrillMm));
  checks.push(atLeast('minAnnularRing', facts.minAnnularRingMm, process.minAnnularRingMm));

  const verdict = checks.some((check) => check.outcome === 'fails') ? 'fails' : checks.some((check) => check.outcome === 'unknown') ? 'unknown' : 'fits';
  return { fab, verdict, checks };
}

/** Every fab of `fabs.json` checked against a board. */
export function fitFabs(facts: BoardFacts, fabs: readonly Fab[] = FABS): FabFit[] {
  return fabs.map((fab) => fabFit(facts, fab));
}
