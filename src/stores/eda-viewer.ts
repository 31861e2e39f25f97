import { map } from 'nanostores';
import type { BoardLayer, LayerType } from '../lib/contract/schemas/eda.ts';

export type BoardSide = 'top' | 'bottom';
/** The realistic render of a side, or its layers one by one in their own colours. */
export type ViewerMode = 'realistic' | 'layers';

/** Zoom and pan of the board: `translate(x, y) scale(scale)` from the viewport's top left, in CSS pixels. */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 20;
/** One press of a zoom button or key. */
export const ZOOM_STEP = 1.5;
/** One arrow-key press moves the board by this many CSS pixels. */
export const PAN_STEP = 40;
/** A press that moves less than this is a click on a part, not a drag. */
export const DRAG_THRESHOLD = 4;

export const IDENTITY: View = { scale: 1, x: 0, y: 0 };

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The view kept within limits: never smaller than the viewport, never panned past the board's edges. */
export function clampView(view: View, size: Size): View {
  const scale = clamp(view.scale, MIN_SCALE, MAX_SCALE);
  return {
    scale,
    x: clamp(view.x, size.width * (1 - scale), 0),
    y: clamp(view.y, size.height * (1 - scale), 0),
  };
}

/** Zooms by `factor` keeping the board point under `point` (viewport pixels) where it is: towards the cursor. */
export function zoomAt(view: View, factor: number, point: Point, size: Size): View {
  const scale = clamp(view.scale * factor, MIN_SCALE, MAX_SCALE);
  const ratio = scale / view.scale;
  return clampView({ scale, x: point.x - (point.x - view.x) * ratio, y: point.y - (point.y - view.y) * ratio }, size);
}

export const panBy = (view: View, dx: number, dy: number, size: Size): View => clampView({ ...view, x: view.x + dx, y: view.y + dy }, size);

export const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
export const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** How much two fingers moving from `before` apart to `after` apart zoom (1 when nothing can be told). */
export function pinchFactor(before: number, after: number): number {
  return before > 0 && after > 0 ? after / before : 1;
}

/** The zoom of one wheel event: smooth for touchpads, one notch of a mouse wheel ≈ 1.2×. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-clamp(pixels, -200, 200) * 0.0018);
}

export type KeyCommand = { zoom: 'in' | 'out' } | { reset: true } | { pan: Point };

/** What a key does on the focused board: + and - zoom, 0 resets, arrows move the board. */
export function keyCommand(key: string): KeyCommand | null {
  switch (key) {
    case '+':
    case '=':
      return { zoom: 'in' };
    case '-':
    case '_':
      return { zoom: 'out' };
    case '0':
      return { reset: true };
    case 'ArrowLeft':
      return { pan: { x: PAN_STEP, y: 0 } };
    case 'ArrowRight':
      return { pan: { x: -PAN_STEP, y: 0 } };
    case 'ArrowUp':
      return { pan: { x: 0, y: PAN_STEP } };
    case 'ArrowDown':
      return { pan: { x: 0, y: -PAN_STEP } };
    default:
      return null;
  }
}

// Bottom of the stack first: what lies on the board's surface is drawn over what lies beneath.
const STACK_ORDER: LayerType[] = ['drawing', 'copper', 'soldermask', 'solderpaste', 'silkscreen', 'drill', 'outline'];

/**
 * The layers drawn in `side`'s view, by their index in `layers`, bottom of the stack first:
 * that side's, the inner copper and the layers of both sides (drills, outline).
 */
export function layersOfSide(layers: readonly BoardLayer[], side: BoardSide): number[] {
  const rank = (layer: BoardLayer) => STACK_ORDER.indexOf(layer.type) * 3 + (layer.side === 'inner' ? 0 : layer.side === 'all' ? 2 : 1);
  return layers
    .map((layer, index) => ({ layer, index }))
    .filter(({ layer }) => layer.url !== null && (layer.side === side || layer.side === 'inner' || layer.side === 'all'))
    .sort((a, b) => rank(a.layer) - rank(b.layer) || a.index - b.index)
    .map(({ index }) => index);
}

const INNER_COLOURS = ['#d4b83a', '#b36ad1', '#3fb8a5', '#e0873d'];
const COLOURS: Record<LayerType, Record<'top' | 'bottom', string>> = {
  copper: { top: '#d9483b', bottom: '#3f7fe0' },
  soldermask: { top: '#2f9e5b', bottom: '#2b7fa3' },
  silkscreen: { top: '#f4f4f0', bottom: '#e8dfa8' },
  solderpaste: { top: '#a7b0b8', bottom: '#8d98a3' },
  drill: { top: '#101214', bottom: '#101214' },
  outline: { top: '#f2d16b', bottom: '#f2d16b' },
  drawing: { top: '#9aa0a6', bottom: '#9aa0a6' },
};

/** The colour a layer is drawn in: red top copper, blue bottom copper, a colour per inner copper layer… */
export function layerColour(layers: readonly BoardLayer[], index: number): string {
  const layer = layers[index]!;
  if (layer.side === 'inner') {
    const innerIndex = layers.slice(0, index).filter((other) => other.side === 'inner' && other.type === layer.type).length;
    return INNER_COLOURS[innerIndex % INNER_COLOURS.length]!;
  }
  return COLOURS[layer.type][layer.side === 'bottom' ? 'bottom' : 'top'];
}

export interface ViewerState {
  side: BoardSide;
  mode: ViewerMode;
  /** Indices (in `board.layers`) of the layers switched off. */
  hidden: number[];
  view: View;
}

/** One board viewer: side, mode, layers switched off, and the zoom and pan with mouse, keys and fingers. */
export function createBoardViewer() {
  const $viewer = map<ViewerState>({ side: 'top', mode: 'realistic', hidden: [], view: IDENTITY });
  const pointers = new Map<number, Point>();
  let travelled = 0;

  const setView = (view: View) => $viewer.setKey('view', view);

  return {
    $viewer,
    setSide: (side: BoardSide) => $viewer.setKey('side', side),
    setMode: (mode: ViewerMode) => $viewer.setKey('mode', mode),
    toggleLayer(index: number): void {
      const { hidden } = $viewer.get();
      $viewer.setKey('hidden', hidden.includes(index) ? hidden.filter((other) => other !== index) : [...hidden, index]);
    },
    /** A zoom button or key: zooms around the viewport's centre. */
    zoomStep(direction: 'in' | 'out', size: Size): void {
      const factor = direction === 'in' ? ZOOM_STEP : 1 / ZOOM_STEP;
      setView(zoomAt($viewer.get().view, factor, { x: size.width / 2, y: size.height / 2 }, size));
    },
    zoom: (factor: number, point: Point, size: Size) => setView(zoomAt($viewer.get().view, factor, point, size)),
    pan: (dx: number, dy: number, size: Size) => setView(panBy($viewer.get().view, dx, dy, size)),
    reset: () => setView(IDENTITY),
    /** Keeps the view inside the viewport after it changed size. */
    fit: (size: Size) => setView(clampView($viewer.get().view, size)),
    pointerDown(id: number, point: Point): void {
      pointers.set(id, point);
      if (pointers.size === 1) travelled = 0;
    },
    /** A pointer moved: one pointer drags, two pinch (zoom by their spread, pan by their midpoint). */
    pointerMove(id: number, point: Point, size: Size): void {
      const before = pointers.get(id);
      if (!before) return;
      const others = [...pointers].filter(([other]) => other !== id).map(([, where]) => where);
      pointers.set(id, point);
      travelled += distance(before, point);
      const view = $viewer.get().view;
      if (others.length === 0) {
        setView(panBy(view, point.x - before.x, point.y - before.y, size));
      } else {
        const other = others[0]!;
        const factor = pinchFactor(distance(before, other), distance(point, other));
        const from = midpoint(before, other);
        const to = midpoint(point, other);
        setView(panBy(zoomAt(view, factor, from, size), to.x - from.x, to.y - from.y, size));
      }
    },
    pointerUp(id: number): void {
      pointers.delete(id);
    },
    /** Whether the pointers since the last press moved far enough to be a drag rather than a click. */
    dragged: () => travelled >= DRAG_THRESHOLD,
  };
}
