import { describe, expect, it } from 'vitest';
import type { BomLine } from '../../../src/lib/contract/schemas/eda.ts';
import { createModelMarks, createModelView, markerRadius, partPlace, partsToMark, presetPose, type ModelBounds, type ModelPart } from '../../../src/stores/eda-model.ts';
import { $edaSelection, hoverLine, NO_SELECTION, selectLine, selectPart } from '../../../src/stores/eda-selection.ts';

// A 100 × 60 mm board, 1.6 mm thick, its top towards +y as kicad-cli exports it.
const board: ModelBounds = { min: [0, -0.0016, 0], max: [0.1, 0, 0.06] };

describe('3D presets', () => {
  it('look down on the top and up at the bottom, at the board centre, with all of it in view', () => {
    const top = presetPose('top', board);
    const bottom = presetPose('bottom', board);
    expect(top.target).toEqual([0.05, -0.0008, 0.03]);
    expect(top.position[1]).toBeGreaterThan(0.1);
    expect(bottom.position[1]).toBeLessThan(-0.1);
    // Far enough for the 100 mm side to fit a 40° view.
    const half = 0.05 / Math.tan((20 * Math.PI) / 180);
    expect(top.position[1] - top.target[1]).toBeGreaterThan(half);
  });

  it('the angled view is above the board and in front of it', () => {
    const angled = presetPose('angled', board);
    expect(angled.position[1]).toBeGreaterThan(angled.target[1]);
    expect(angled.position[2]).toBeGreaterThan(angled.target[2]);
  });

  it('a view shows a preset once drawn, and forgets it when the camera is moved by hand', () => {
    const view = createModelView();
    view.showPreset('bottom');
    expect(view.$state.get()).toEqual({ status: 'loading' });
    view.loaded();
    view.showPreset('bottom');
    expect(view.$state.get()).toEqual({ status: 'ready', preset: 'bottom' });
    view.showPreset(null);
    expect(view.$state.get()).toEqual({ status: 'ready', preset: null });
    view.failed('webgl');
    expect(view.$state.get()).toEqual({ status: 'failed', reason: 'webgl' });
  });
});

describe('parts in the 3D view', () => {
  const parts: ModelPart[] = [
    { designator: 'C1', xMm: 10, yMm: 5, side: 'top' },
    { designator: 'c2', xMm: 90, yMm: 55, side: 'bottom' },
    { designator: 'U1', xMm: 50, yMm: 30, side: 'top' },
    { designator: 'TP1', xMm: 1, yMm: 1, side: 'top' },
  ];
  const line = (lineNo: number, designators: string[], dnp = false): BomLine => ({
    lineNo, designators, quantity: designators.length, value: '', footprint: '', manufacturer: '', mpn: '', lcsc: '', mouser: '', digikey: '', farnell: '', description: '', dnp,
  });
  const lines = [line(1, ['C1', 'C2']), line(2, ['U1']), line(3, ['R9'], true)];

  it('a placement lands on its side of the model, x and z from the board’s left and top edges', () => {
    // The board's box need not start at the origin: kicad-cli keeps the drawing's coordinates.
    const box: ModelBounds = { min: [0.02, -0.0016, 0.03], max: [0.12, 0, 0.09] };
    const top = partPlace({ xMm: 10, yMm: 5, side: 'top' }, box);
    expect(top.facing).toBe(1);
    expect(top.position[0]).toBeCloseTo(0.03, 9);
    expect(top.position[1]).toBe(0);
    expect(top.position[2]).toBeCloseTo(0.035, 9);
    const bottom = partPlace({ xMm: 100, yMm: 60, side: 'bottom' }, box);
    expect(bottom.facing).toBe(-1);
    expect(bottom.position[0]).toBeCloseTo(0.12, 9);
    expect(bottom.position[1]).toBe(-0.0016);
    expect(bottom.position[2]).toBeCloseTo(0.09, 9);
  });

  it('a marker grows with the board, and stays visible on a tiny one', () => {
    expect(markerRadius(board)).toBeCloseTo(0.1 / 50, 9);
    expect(markerRadius({ min: [0, 0, 0], max: [0.01, 0.001, 0.01] })).toBe(0.0006);
  });

  it('marks nothing until a line or a part is picked', () => {
    expect(partsToMark(parts, lines, null, null)).toEqual({ status: 'idle' });
  });

  it('marks the placed parts of the highlighted line, whatever the case of the files, on their sides', () => {
    expect(partsToMark(parts, lines, 1, null)).toEqual({
      status: 'marked',
      parts: [
        { designator: 'C1', xMm: 10, yMm: 5, side: 'top', picked: false },
        { designator: 'c2', xMm: 90, yMm: 55, side: 'bottom', picked: false },
      ],
    });
  });

  it('tells the part picked from the rest of its line, and marks a picked part the BOM does not list', () => {
    const marks = partsToMark(parts, lines, 1, 'C2');
    expect(marks.status === 'marked' && marks.parts.map((part) => [part.designator, part.picked])).toEqual([['C1', false], ['c2', true]]);
    const alone = partsToMark(parts, lines, null, 'tp1');
    expect(alone.status === 'marked' && alone.parts.map((part) => [part.designator, part.picked])).toEqual([['TP1', true]]);
  });

  it('says so when nothing of the selection is placed (a DNP line, a part without placement)', () => {
    expect(partsToMark(parts, lines, 3, null)).toEqual({ status: 'unplaced', ref: null, designators: ['R9'] });
    expect(partsToMark(parts, lines, null, 'J7')).toEqual({ status: 'unplaced', ref: 'J7', designators: [] });
    expect(partsToMark([], lines, 2, 'U1')).toEqual({ status: 'unplaced', ref: 'U1', designators: ['U1'] });
  });

  it('follow the page’s selection and the line under the pointer', () => {
    const $marks = createModelMarks(parts, lines);
    const seen: string[] = [];
    const stop = $marks.subscribe((marks) => seen.push(marks.status === 'marked' ? marks.parts.map((part) => part.designator).join(',') : marks.status));
    selectLine(2, 'table');
    hoverLine(1);
    hoverLine(null);
    selectPart('TP1', null, 'board');
    $edaSelection.set(NO_SELECTION);
    stop();
    expect(seen).toEqual(['idle', 'U1', 'C1,c2', 'U1', 'TP1', 'idle']);
  });
});
