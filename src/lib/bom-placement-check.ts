/**
 * Whether a project's BOM and its pick-and-place files name the same parts: a part on the board
 * that no BOM line lists is never bought, and a BOM line no board places is never assembled.
 * The electronics page lists both (`BomSection.astro`); an assembler would ask about each.
 */
import type { BomLine, Placement } from './contract/schemas/eda.ts';

export interface BomPlacementCheck {
  /** Designators placed on a board that no BOM line lists, in natural order (R2 before R10). */
  unlisted: string[];
  /** Designators a BOM line lists (not "do not populate") that no board places, with their line. */
  unplaced: { designator: string; lineNo: number }[];
}

const key = (designator: string) => designator.trim().toUpperCase();
const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The parts the BOM and the placements disagree on; both empty when either is missing. */
export function checkBomAgainstPlacements(lines: Pick<BomLine, 'lineNo' | 'designators' | 'dnp'>[], placements: Pick<Placement, 'designator'>[]): BomPlacementCheck {
  if (lines.length === 0 || placements.length === 0) return { unlisted: [], unplaced: [] };
  const listed = new Set(lines.flatMap((line) => line.designators.map(key)));
  const placed = new Set(placements.map((placement) => key(placement.designator)));
  const unlisted = [...new Set(placements.map((placement) => placement.designator.trim()))].filter((designator) => designator && !listed.has(key(designator)));
  const unplaced = lines
    .filter((line) => !line.dnp)
    .flatMap((line) => line.designators.filter((designator) => designator.trim() && !placed.has(key(designator))).map((designator) => ({ designator: designator.trim(), lineNo: line.lineNo })));
  return {
    unlisted: unlisted.sort(natural.compare),
    unplaced: unplaced.sort((a, b) => natural.compare(a.designator, b.designator)),
  };
}
