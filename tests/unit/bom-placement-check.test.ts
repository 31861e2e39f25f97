import { describe, expect, it } from 'vitest';
import { checkBomAgainstPlacements } from '../../src/lib/bom-placement-check.ts';

const line = (lineNo: number, designators: string[], dnp = false) => ({ lineNo, designators, dnp });
const placed = (...designators: string[]) => designators.map((designator) => ({ designator }));

describe('a BOM checked against the placements', () => {
  it('lists parts placed but not in the BOM, and BOM parts placed nowhere, in natural order', () => {
    const check = checkBomAgainstPlacements([line(1, ['R1', 'R2', 'R10']), line(2, ['C1']), line(3, ['U5'])], placed('R1', 'r2', 'R19', 'C1', 'R3', 'R19'));
    expect(check).toEqual({ unlisted: ['R3', 'R19'], unplaced: [{ designator: 'R10', lineNo: 1 }, { designator: 'U5', lineNo: 3 }] });
  });

  it('does not ask where a "do not populate" part is, and says nothing without a BOM or without placements', () => {
    expect(checkBomAgainstPlacements([line(1, ['R1']), line(2, ['J9'], true)], placed('R1'))).toEqual({ unlisted: [], unplaced: [] });
    expect(checkBomAgainstPlacements([], placed('R1'))).toEqual({ unlisted: [], unplaced: [] });
    expect(checkBomAgainstPlacements([line(1, ['R1'])], [])).toEqual({ unlisted: [], unplaced: [] });
  });
});
