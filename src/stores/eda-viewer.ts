import { atom, computed, map } from 'nanostores';
import { takeFocus } from './eda-focus.ts';
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
export function clampView(view: View, size: Size, maxScale = MAX_SCALE): View {
  const scale = clamp(view.scale, MIN_SCALE, maxScale);
  return {
    scale,
    x: clamp(view.x, size.width * (1 - scale), 0),
    y: clamp(view.y, size.height * (1 - scale), 0),
  };
}

/** Zooms by `factor` keeping the board point under `point` (viewport pixels) where it is: towards the cursor. */
export function zoomAt(view: View, factor: number, point: Point, size: Size, maxScale = MAX_SCALE): View {
  const scale = clamp(view.scale * factor, MIN_SCALE, maxScale);
  const ratio = scale / view.scale;
  return clampView({ scale, x: point.x - (point.x - view.x) * ratio, y: point.y - (point.y - view.y) * ratio }, size, maxScale);
}

export const panBy = (view: View, dx: number, dy: number, size: Size, maxScale = MAX_SCALE): View =>
  clampView({ ...view, x: view.x + dx, y: view.y + dy }, size, maxScale);

/**
 * The view that puts `point` (viewport pixels of the unzoomed picture) in the middle of the
 * viewport, zoomed in to at least `minScale` (as far as the edges allow: a point near a corner
 * stays off-centre rather than showing beyond the picture).
 */
export function centreOn(view: View, point: Point, size: Size, minScale: number, maxScale = MAX_SCALE): View {
  const scale = clamp(Math.max(view.scale, minScale), MIN_SCALE, maxScale);
  return clampView({ scale, x: size.width / 2 - point.x * scale, y: size.height / 2 - point.y * scale }, size, maxScale);
}

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

/**
 * Zoom and pan of a picture in a viewport of its proportions, by buttons, keys, wheel, one
 * dragging pointer and two pinching fingers: the board viewer's and the schematic viewer's.
 */
export function createPanZoom(maxScale = MAX_SCALE) {
  const $view = atom<View>(IDENTITY);
  const pointers = new Map<number, Point>();
  let travelled = 0;

  /** A zoom button or key: zooms around the viewport's centre. */
  const zoomStep = (direction: 'in' | 'out', size: Size): void => {
    const factor = direction === 'in' ? ZOOM_STEP : 1 / ZOOM_STEP;
    $view.set(zoomAt($view.get(), factor, { x: size.width / 2, y: size.height / 2 }, size, maxScale));
  };

  return {
    $view,
    zoomStep,
    zoom: (factor: number, point: Point, size: Size) => $view.set(zoomAt($view.get(), factor, point, size, maxScale)),
    pan: (dx: number, dy: number, size: Size) => $view.set(panBy($view.get(), dx, dy, size, maxScale)),
    reset: () => $view.set(IDENTITY),
    /** Keeps the view inside the viewport after it changed size. */
    fit: (size: Size) => $view.set(clampView($view.get(), size, maxScale)),
    /** Brings `point` (viewport pixels of the unzoomed picture) to the middle, zoomed in to at least `minScale`. */
    centre: (point: Point, size: Size, minScale: number) => $view.set(centreOn($view.get(), point, size, minScale, maxScale)),
    /** What a key does: true when it was one of the viewer's (+, −, 0, arrows). */
    key(key: string, size: Size): boolean {
      const command = keyCommand(key);
      if (!command) return false;
      if ('zoom' in command) zoomStep(command.zoom, size);
      else if ('reset' in command) $view.set(IDENTITY);
      else $view.set(panBy($view.get(), command.pan.x, command.pan.y, size, maxScale));
      return true;
    },
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
      const view = $view.get();
      if (others.length === 0) {
        $view.set(panBy(view, point.x - before.x, point.y - before.y, size, maxScale));
      } else {
        const other = others[0]!;
        const factor = pinchFactor(distance(before, other), distance(point, other));
        const from = midpoint(before, other);
        const to = midpoint(point, other);
        $view.set(panBy(zoomAt(view, factor, from, size, maxScale), to.x - from.x, to.y - from.y, size, maxScale));
      }
    },
    pointerUp(id: number): void {
      pointers.delete(id);
    },
    /** Whether the pointers since the last press moved far enough to be a drag rather than a click. */
    dragged: () => travelled >= DRAG_THRESHOLD,
  };
}

export type PanZoom = ReturnType<typeof createPanZoom>;

/** A board's size in mm: the frame of its placements and of its DRC items. */
export interface BoardSize {
  widthMm: number;
  heightMm: number;
}

/** Where a board point (mm from its left and top edges, seen from the top) is drawn in the unzoomed viewport of `side`. */
export function boardViewportPoint(point: { xMm: number; yMm: number }, side: BoardSide, size: Size, board: BoardSize): Point {
  const xMm = side === 'bottom' ? board.widthMm - point.xMm : point.xMm;
  return { x: (xMm * size.width) / board.widthMm, y: (point.yMm * size.height) / board.heightMm };
}

/** A board place is zoomed to at least this many CSS pixels per millimetre (a 0402 part ≈ 8 px), and at least ×2. */
export const BOARD_FOCUS_PX_PER_MM = 8;

/**
 * One board viewer: side, mode, layers switched off, and the zoom and pan with mouse, keys and
 * fingers. The documentation layers of `layers` (courtyards, fab drawings, user layers: `drawing`)
 * start switched off: they draw over the board what no fab makes.
 */
export function createBoardViewer(layers: Pick<BoardLayer, 'type'>[] = []) {
  const panZoom = createPanZoom();
  const documentation = layers.flatMap((layer, index) => (layer.type === 'drawing' ? [index] : []));
  const $settings = map<Omit<ViewerState, 'view'>>({ side: 'top', mode: 'realistic', hidden: documentation });
  const $viewer = computed([$settings, panZoom.$view], (settings, view): ViewerState => ({ ...settings, view }));
  /** A design check's place on this board, marked until another is shown. */
  const $marker = atom<{ xMm: number; yMm: number } | null>(null);

  return {
    ...panZoom,
    $viewer,
    $marker,
    /**
     * The viewport has `size` (zero while hidden): a DRC item's place waiting to be shown is
     * centred and marked, else the view is kept inside the viewport.
     */
    settle(size: Size, board: BoardSize): void {
      if (size.width === 0 || size.height === 0) return;
      const focus = takeFocus('board');
      if (!focus) {
        panZoom.fit(size);
        return;
      }
      $marker.set({ xMm: focus.xMm, yMm: focus.yMm });
      const scale = Math.max(2, BOARD_FOCUS_PX_PER_MM / (size.width / board.widthMm || 1));
      panZoom.centre(boardViewportPoint(focus, $settings.get().side, size, board), size, scale);
    },
    setSide: (side: BoardSide) => $settings.setKey('side', side),
    setMode: (mode: ViewerMode) => $settings.setKey('mode', mode),
    toggleLayer(index: number): void {
      const { hidden } = $settings.get();
      $settings.setKey('hidden', hidden.includes(index) ? hidden.filter((other) => other !== index) : [...hidden, index]);
    },
  };
}
