/**
 * The 3D view of a board: which way the camera looks (the presets) and whether the browser can
 * draw it at all. Pure and free of three.js, so that the page's first load carries none of it and
 * the logic is tested without a browser; `islands/eda/ModelViewer.tsx` turns these into a camera.
 */
import { atom } from 'nanostores';

/** The views one button away: straight down on the top, straight up at the bottom, and three-quarter. */
export const MODEL_PRESETS = ['angled', 'top', 'bottom'] as const;
export type ModelPreset = (typeof MODEL_PRESETS)[number];

/** A box in the model's frame (glTF: metres, y up; a KiCad board lies in x–z with its top towards +y). */
export interface ModelBounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** Where the camera stands and what it looks at, in the model's frame. */
export interface CameraPose {
  position: [number, number, number];
  target: [number, number, number];
}

/**
 * The camera of a preset, far enough for the whole board to fit a view of `fovDegrees` (vertical)
 * with a margin. Top and bottom look along the board's normal, a hair off so the controls keep the
 * board's up-down (y of the drawing) on screen's up-down.
 */
export function presetPose(preset: ModelPreset, bounds: ModelBounds, fovDegrees = 40): CameraPose {
  const target: [number, number, number] = [0, 1, 2].map((axis) => (bounds.min[axis]! + bounds.max[axis]!) / 2) as [number, number, number];
  const span = Math.max(bounds.max[0] - bounds.min[0], bounds.max[2] - bounds.min[2], 1e-6);
  const distance = (span / 2 / Math.tan((fovDegrees * Math.PI) / 360)) * 1.25;
  const off = distance * 1e-3;
  const [x, y, z] = target;
  if (preset === 'top') return { position: [x, y + distance, z + off], target };
  if (preset === 'bottom') return { position: [x, y - distance, z + off], target };
  // Three-quarter: from the front (+z, the drawing's bottom edge), raised 45°.
  const s = distance / Math.SQRT2;
  return { position: [x + s * 0.35, y + s, z + s], target };
}

/** Whether the browser can draw WebGL; without it the view shows the board's 2D renders. */
export function canDrawWebgl(makeCanvas: () => HTMLCanvasElement = () => document.createElement('canvas')): boolean {
  try {
    const canvas = makeCanvas();
    return Boolean(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

/** What the 3D view is showing: loading the model, drawn, or failed (no WebGL, or the model did not load). */
export type ModelViewState = { status: 'loading' } | { status: 'ready'; preset: ModelPreset | null } | { status: 'failed'; reason: 'webgl' | 'load' };

/** One viewer's state, created with it. */
export function createModelView() {
  const $state = atom<ModelViewState>({ status: 'loading' });
  return {
    $state,
    loaded: () => $state.set({ status: 'ready', preset: 'angled' }),
    failed: (reason: 'webgl' | 'load') => $state.set({ status: 'failed', reason }),
    /** A preset chosen; null once the visitor moves the camera by hand. */
    showPreset: (preset: ModelPreset | null) => {
      if ($state.get().status === 'ready') $state.set({ status: 'ready', preset });
    },
  };
}
