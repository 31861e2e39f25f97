/**
 * The 3D view of a board: which way the camera looks (the presets), whether the browser can draw
 * it at all, and which placed parts it marks for the page's selection, where. Pure and free of three.js, so that the page's first load carries none of it and
 * the logic is tested without a browser; `islands/eda/ModelViewer.tsx` turns these into a camera.
 */
import { atom, computed } from 'nanostores';
import type { BomLine } from '../lib/contract/schemas/eda.ts';
import { $edaHighlight, $edaSelection, designatorsOf } from './eda-selection.ts';

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

/** A part placed on the board shown in 3D: what the viewer needs of a placement, and no more. */
export interface ModelPart {
  designator: string;
  /** Millimetres from the board's left and top edges, seen from the top (y grows downwards), as the board view has them. */
  xMm: number;
  yMm: number;
  side: 'top' | 'bottom';
}

/** Where a part's marker sits in the model's frame and which way its face looks (+1 up for the top, −1 down for the bottom). */
export interface PartPlace {
  position: [number, number, number];
  facing: 1 | -1;
}

/**
 * A placement in the model's frame. The models are bare boards (kicad-cli's `--board-only`, and
 * models made from Gerbers the same way), so their box in x–z is the board outline: the drawing's
 * x is the model's x and its y (down) the model's z, in metres; the top face is the box's top.
 */
export function partPlace(part: Pick<ModelPart, 'xMm' | 'yMm' | 'side'>, bounds: ModelBounds): PartPlace {
  const x = bounds.min[0] + part.xMm / 1000;
  const z = bounds.min[2] + part.yMm / 1000;
  return part.side === 'top' ? { position: [x, bounds.max[1], z], facing: 1 } : { position: [x, bounds.min[1], z], facing: -1 };
}

/**
 * The radius of a marker: a part's footprint is a millimetre or two, too small to find on a whole
 * board, so the marker follows the board's size (1/50 of its longer side), at least 0.6 mm.
 */
export function markerRadius(bounds: ModelBounds): number {
  const span = Math.max(bounds.max[0] - bounds.min[0], bounds.max[2] - bounds.min[2]);
  return Math.max(0.0006, span / 50);
}

/** A part the 3D view marks; `picked` for the one part picked, drawn apart from the rest of its line. */
export interface MarkedPart extends ModelPart {
  picked: boolean;
}

/**
 * What the 3D view marks for the line highlighted (hovered, else selected) and the part picked:
 * nothing asked for; the placed parts of both; or nothing placed, which the view says in words
 * (a DNP line, a part the pick-and-place file does not list).
 */
export type ModelMarks =
  | { status: 'idle' }
  | { status: 'marked'; parts: MarkedPart[] }
  | { status: 'unplaced'; ref: string | null; designators: string[] };

/** The parts to mark, as the board view marks them: the line's parts, and the part picked even when the BOM does not list it. */
export function partsToMark(parts: readonly ModelPart[], lines: readonly BomLine[], highlight: number | null, picked: string | null): ModelMarks {
  if (highlight === null && picked === null) return { status: 'idle' };
  const line = designatorsOf(lines, highlight);
  const pickedRef = picked?.toUpperCase() ?? null;
  const marked = parts
    .filter((part) => line.has(part.designator.toUpperCase()) || part.designator.toUpperCase() === pickedRef)
    .map((part) => ({ ...part, picked: part.designator.toUpperCase() === pickedRef }));
  if (marked.length > 0) return { status: 'marked', parts: marked };
  return { status: 'unplaced', ref: picked, designators: lines.find((candidate) => candidate.lineNo === highlight)?.designators ?? [] };
}

/** The parts the 3D view marks, following the shared selection (and the line under the pointer) of the page. */
export function createModelMarks(parts: readonly ModelPart[], lines: readonly BomLine[]) {
  return computed([$edaHighlight, $edaSelection], (highlight, selection) => partsToMark(parts, lines, highlight, selection.ref));
}
