import { describe, expect, it } from 'vitest';
import { createModelView, presetPose, type ModelBounds } from '../../../src/stores/eda-model.ts';

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
