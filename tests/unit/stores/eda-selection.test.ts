import { beforeEach, describe, expect, it } from 'vitest';
import { $edaHighlight, $edaSelection, designatorsOf, findDesignator, hoverLine, isLit, lineByDesignator, NO_SELECTION, selectLine, selectPart, sideOfLit } from '../../../src/stores/eda-selection.ts';
import type { BomLine, Placement } from '../../../src/lib/contract/schemas/eda.ts';

const line = (lineNo: number, designators: string[]) => ({ lineNo, designators }) as BomLine;
const lines = [line(1, ['R1', 'R2']), line(2, ['c1']), line(3, ['U1'])];

describe('the selection shared by the BOM table and the board', () => {
  beforeEach(() => {
    $edaSelection.set(NO_SELECTION);
    hoverLine(null);
  });

  it('maps designators to their line and back, whatever the case', () => {
    const index = lineByDesignator(lines);
    expect(index).toEqual({ R1: 1, R2: 1, C1: 2, U1: 3 });
    expect(findDesignator(index, ' r2 ')).toBe(1);
    expect(findDesignator(index, 'R')).toBeNull();
    expect([...designatorsOf(lines, 2)]).toEqual(['C1']);
    expect(designatorsOf(lines, null).size).toBe(0);
  });

  it('highlights the hovered line over the selected one', () => {
    selectLine(2, 'board');
    expect($edaHighlight.get()).toBe(2);
    hoverLine(3);
    expect($edaHighlight.get()).toBe(3);
    hoverLine(null);
    expect($edaHighlight.get()).toBe(2);
  });

  it('unselects a line pressed again in the table, but keeps it when the board picks it again', () => {
    selectLine(1, 'table');
    selectLine(1, 'table');
    expect($edaSelection.get().lineNo).toBeNull();
    selectLine(1, 'board');
    selectLine(1, 'board');
    expect($edaSelection.get()).toEqual({ lineNo: 1, ref: null, source: 'board' });
  });

  it('picks one part of a line, on the board or in the schematic', () => {
    selectPart('R2', 1, 'schematic');
    expect($edaSelection.get()).toEqual({ lineNo: 1, ref: 'R2', source: 'schematic' });
    // the line still lights on the board: its parts share the line
    expect($edaHighlight.get()).toBe(1);
    // pressing the line in the table then lets go of it, as for a line picked on the board
    selectLine(1, 'table');
    expect($edaSelection.get()).toEqual({ lineNo: null, ref: null, source: 'table' });
    // a part the BOM does not list can still be picked
    selectPart('TP3', null, 'board');
    expect($edaSelection.get()).toEqual({ lineNo: null, ref: 'TP3', source: 'board' });
    expect($edaHighlight.get()).toBeNull();
  });

  it('marks the parts of the highlighted line and the part picked, and shows the side holding most of them', () => {
    const index = lineByDesignator(lines);
    expect(['R1', 'r2', 'C1', 'U1'].filter((designator) => isLit(designator, index, 1, null))).toEqual(['R1', 'r2']);
    // a part picked that the BOM does not list, beside the highlighted line
    expect(['R1', 'TP3', 'U1'].filter((designator) => isLit(designator, index, 3, 'tp3'))).toEqual(['TP3', 'U1']);
    expect(isLit('R1', index, null, null)).toBe(false);
    const on = (side: Placement['side']) => ({ side });
    expect(sideOfLit([])).toBe('top');
    expect(sideOfLit([on('bottom')])).toBe('bottom');
    expect(sideOfLit([on('top'), on('bottom')])).toBe('top');
    expect(sideOfLit([on('bottom'), on('top'), on('bottom')])).toBe('bottom');
  });
});
