import { describe, expect, it } from 'vitest';
import { boardViewportPoint, centreOn, clampView, createBoardViewer, IDENTITY, keyCommand, layerColour, layersOfSide, MAX_SCALE, pinchFactor, wheelFactor, zoomAt } from '../../../src/stores/eda-viewer.ts';
import type { BoardLayer } from '../../../src/lib/contract/schemas/eda.ts';

const size = { width: 400, height: 300 };

describe('zoom and pan of the board', () => {
  it('zooms towards the cursor: the board point under it stays put', () => {
    const view = zoomAt(IDENTITY, 2, { x: 100, y: 50 }, size);
    expect(view).toEqual({ scale: 2, x: -100, y: -50 });
    // The board point (100, 50) is still drawn at (100, 50).
    expect(100 * view.scale + view.x).toBe(100);
    const back = zoomAt(view, 0.5, { x: 100, y: 50 }, size);
    expect(back).toEqual(IDENTITY);
  });

  it('never zooms out past the viewport nor in past the limit, nor pans past the edges', () => {
    expect(zoomAt(IDENTITY, 0.5, { x: 10, y: 10 }, size)).toEqual(IDENTITY);
    expect(zoomAt(IDENTITY, 1000, { x: 0, y: 0 }, size).scale).toBe(MAX_SCALE);
    expect(clampView({ scale: 2, x: 50, y: -1000 }, size)).toEqual({ scale: 2, x: 0, y: -300 });
  });

  it('turns two fingers moving apart, wheel notches and keys into zoom', () => {
    expect(pinchFactor(100, 150)).toBe(1.5);
    expect(pinchFactor(0, 150)).toBe(1);
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelFactor(100, 0)).toBeLessThan(1);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48, 0));
    expect(keyCommand('+')).toEqual({ zoom: 'in' });
    expect(keyCommand('-')).toEqual({ zoom: 'out' });
    expect(keyCommand('0')).toEqual({ reset: true });
    expect(keyCommand('ArrowLeft')).toEqual({ pan: { x: 40, y: 0 } });
    expect(keyCommand('a')).toBeNull();
  });

  it('drags with one pointer, pinches with two, and tells a click from a drag', () => {
    const viewer = createBoardViewer();
    viewer.zoomStep('in', size);
    expect(viewer.$viewer.get().view).toEqual({ scale: 1.5, x: -100, y: -75 });
    viewer.pointerDown(1, { x: 200, y: 150 });
    viewer.pointerMove(1, { x: 201, y: 150 }, size);
    expect(viewer.dragged()).toBe(false);
    viewer.pointerMove(1, { x: 230, y: 160 }, size);
    expect(viewer.dragged()).toBe(true);
    expect(viewer.$viewer.get().view).toEqual({ scale: 1.5, x: -70, y: -65 });
    viewer.pointerDown(2, { x: 130, y: 160 });
    // Fingers 100 px apart move to 200 px apart around the same midpoint: twice the zoom.
    viewer.pointerMove(1, { x: 280, y: 160 }, size);
    viewer.pointerMove(2, { x: 80, y: 160 }, size);
    expect(viewer.$viewer.get().view.scale).toBeCloseTo(3);
    viewer.reset();
    expect(viewer.$viewer.get().view).toEqual(IDENTITY);
  });
});

describe('the layers of a side', () => {
  const layers: BoardLayer[] = [
    { type: 'outline', side: 'all', purpose: null, filename: 'b.gko', url: '/o.svg' },
    { type: 'copper', side: 'top', purpose: null, filename: 'b.gtl', url: '/1.svg' },
    { type: 'silkscreen', side: 'top', purpose: null, filename: 'b.gto', url: '/2.svg' },
    { type: 'copper', side: 'bottom', purpose: null, filename: 'b.gbl', url: '/3.svg' },
    { type: 'copper', side: 'inner', purpose: null, filename: 'b.g2', url: '/4.svg' },
    { type: 'copper', side: 'inner', purpose: null, filename: 'b.g3', url: '/5.svg' },
    { type: 'drill', side: 'all', purpose: null, filename: 'b.drl', url: '/6.svg' },
    { type: 'soldermask', side: 'top', purpose: null, filename: 'b.gts', url: null },
  ];

  it('stacks inner copper under the side’s copper, silkscreen over it, drills and outline on top; unrendered ones left out', () => {
    expect(layersOfSide(layers, 'top')).toEqual([4, 5, 1, 2, 6, 0]);
    expect(layersOfSide(layers, 'bottom')).toEqual([4, 5, 3, 6, 0]);
  });

  it('gives top and bottom copper and each inner layer their own colour', () => {
    const colours = [1, 3, 4, 5].map((index) => layerColour(layers, index));
    expect(new Set(colours).size).toBe(4);
  });

  it('starts with the documentation layers (courtyards, fab drawings) switched off', () => {
    const courtyard: BoardLayer = { type: 'drawing', side: 'top', purpose: 'courtyard', filename: 'b-F_Courtyard.gbr', url: '/7.svg' };
    const viewer = createBoardViewer([...layers, courtyard]);
    expect(viewer.$viewer.get().hidden).toEqual([8]);
    viewer.toggleLayer(8);
    expect(viewer.$viewer.get().hidden).toEqual([]);
  });

  it('switches a layer off and on', () => {
    const viewer = createBoardViewer();
    viewer.toggleLayer(2);
    expect(viewer.$viewer.get().hidden).toEqual([2]);
    viewer.toggleLayer(2);
    expect(viewer.$viewer.get().hidden).toEqual([]);
  });
});

describe('a place brought into view', () => {
  it('is centred and zoomed in to at least the scale asked, as far as the edges allow', () => {
    const view = centreOn(IDENTITY, { x: 100, y: 150 }, size, 4);
    expect(view.scale).toBe(4);
    expect(100 * view.scale + view.x).toBe(size.width / 2);
    expect(150 * view.scale + view.y).toBe(size.height / 2);
    // already closer: the zoom is kept
    expect(centreOn({ scale: 8, x: 0, y: 0 }, { x: 200, y: 150 }, size, 4).scale).toBe(8);
    // a corner stays in its corner rather than showing beyond the board
    expect(centreOn(IDENTITY, { x: 0, y: 0 }, size, 2)).toEqual({ scale: 2, x: 0, y: 0 });
    // the schematic may zoom further than the board
    expect(centreOn(IDENTITY, { x: 200, y: 150 }, size, 30, 40).scale).toBe(30);
    expect(centreOn(IDENTITY, { x: 200, y: 150 }, size, 30).scale).toBe(MAX_SCALE);
  });

  it('is a DRC item’s place on the board, mirrored when the board is seen from below', () => {
    const board = { widthMm: 40, heightMm: 30 };
    expect(boardViewportPoint({ xMm: 10, yMm: 15 }, 'top', size, board)).toEqual({ x: 100, y: 150 });
    expect(boardViewportPoint({ xMm: 10, yMm: 15 }, 'bottom', size, board)).toEqual({ x: 300, y: 150 });
  });
});
