/**
 * What `render.ts` and its worker (`render-worker.ts`) say to each other. Types only, so the
 * worker, which Node runs with its types stripped, imports nothing that needs compiling.
 */
import type { BoardErrorKey } from '../../lib/contract/eda.ts';
import type { BoardHole, MeasuredFacts } from './board-facts.ts';
import type { EdgePiece } from './board-outline.ts';
import type { LayerSide, LayerType } from '../../lib/contract/schemas/eda.ts';

export interface WorkerLayer {
  filename: string;
  type: LayerType;
  side: LayerSide;
  filetype: 'gerber' | 'drill';
  bytes: Uint8Array;
}

export interface RenderJob {
  layers: WorkerLayer[];
  /** Largest gap (in the file's units) closed when the outline is joined into one shape. */
  outlineGapFill: number;
}

export interface WorkerResult {
  /** The board's bounds as pcb-stackup draws them: Gerber coordinates × 1000, in `units`. */
  box: [number, number, number, number];
  units: string;
  top: string;
  bottom: string;
  layers: { filename: string; type: LayerType; side: LayerSide; svg: string }[];
  /** What the copper and drill files measure (smallest trace and drill, holes, annular ring). */
  facts: MeasuredFacts;
  /** What the 3D model is built from: the board's edge and its drill holes, Gerber coordinates in mm. */
  shape: BoardShape;
  peakMemoryMb: number;
}

export interface BoardShape {
  edge: EdgePiece[];
  holes: BoardHole[];
}

export type WorkerMessage =
  /** The worker starts on this file (null: stacking, after every file was read). */
  | { kind: 'file'; filename: string | null }
  | { kind: 'done'; result: WorkerResult }
  | { kind: 'failed'; key: BoardErrorKey; filename?: string | undefined }
  | { kind: 'error'; message: string };
