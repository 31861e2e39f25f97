/**
 * The board's edge as line pieces, for the walls of the 3D model built from Gerbers. The outline
 * layer is plotted the way pcb-stackup plots it for the renders (gerber-plotter with
 * `plotAsOutline`, the same gap fill), so the walls stand exactly where the renders' board shape
 * ends. Arcs become chords no longer than `ARC_STEP_MM`.
 *
 * Runs inside the render worker (`render-worker.ts`), so only erasable TypeScript here.
 */
import gerberParser from 'gerber-parser';
import gerberPlotter from 'gerber-plotter';

/** One straight piece of the edge, Gerber coordinates in mm: x1, y1, x2, y2. */
export type EdgePiece = [number, number, number, number];

/** Longest chord of an arc (mm): round corners and circular boards stay round at a glance. */
const ARC_STEP_MM = 0.5;
/** More pieces than this is not a board edge but a drawing on the outline layer; the walls are left out. */
export const MAX_EDGE_PIECES = 50_000;

type Segment =
  | { type: 'line'; start: number[]; end: number[] }
  | { type: 'arc'; start: number[]; end: number[]; center: number[]; radius: number; sweep: number; dir: 'cw' | 'ccw' };

interface PlotObject {
  type: string;
  path?: Segment[];
  units?: string;
}

const round = (value: number) => Number(value.toFixed(4));

function piecesOf(segment: Segment, scale: number, into: EdgePiece[]): void {
  if (segment.type === 'line') {
    into.push([segment.start[0]! * scale, segment.start[1]! * scale, segment.end[0]! * scale, segment.end[1]! * scale].map(round) as EdgePiece);
    return;
  }
  const radius = segment.radius * scale;
  const steps = Math.max(2, Math.min(256, Math.ceil((Math.abs(segment.sweep) * radius) / ARC_STEP_MM)));
  const from = segment.start[2]!;
  const turn = (segment.dir === 'ccw' ? 1 : -1) * Math.abs(segment.sweep);
  const cx = segment.center[0]! * scale;
  const cy = segment.center[1]! * scale;
  let px = segment.start[0]! * scale;
  let py = segment.start[1]! * scale;
  for (let step = 1; step <= steps; step += 1) {
    const angle = from + (turn * step) / steps;
    const x = step === steps ? segment.end[0]! * scale : cx + radius * Math.cos(angle);
    const y = step === steps ? segment.end[1]! * scale : cy + radius * Math.sin(angle);
    into.push([round(px), round(py), round(x), round(y)]);
    px = x;
    py = y;
  }
}

/**
 * The edge pieces of an outline layer; empty when the layer draws too many (its walls are then
 * left out, the model is still the board's two faces).
 */
export function readBoardEdge(bytes: Uint8Array, gapFillMm: number): Promise<EdgePiece[]> {
  return new Promise((resolve, reject) => {
    const parser = gerberParser({ filetype: 'gerber' });
    const plotter = gerberPlotter({ plotAsOutline: gapFillMm });
    const objects: PlotObject[] = [];
    plotter.on('data', (object: PlotObject) => objects.push(object));
    plotter.once('error', reject);
    parser.once('error', reject);
    plotter.once('end', () => {
      const units = objects.find((object) => object.type === 'size')?.units;
      const scale = units === 'in' ? 25.4 : 1;
      const pieces: EdgePiece[] = [];
      for (const object of objects) {
        if ((object.type !== 'stroke' && object.type !== 'fill') || !object.path) continue;
        for (const segment of object.path) {
          piecesOf(segment, scale, pieces);
          if (pieces.length > MAX_EDGE_PIECES) return resolve([]);
        }
      }
      resolve(pieces);
    });
    parser.pipe(plotter);
    parser.end(Buffer.from(bytes));
  });
}
