/**
 * Renders an identified Gerber set into board SVGs in a `worker_threads` worker with a wall-clock
 * limit and a heap limit: a file with millions of flashes, a parser that throws from inside a
 * stream or a render that eats memory ends that worker with `too_complex` or `unreadable`, and the
 * server's event loop keeps serving meanwhile.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EdaTool } from '../../lib/contract/eda.ts';
import { BoardError } from './errors.ts';
import { looksLikeExcellon, type IdentifiedSet } from './layers.ts';
import type { MeasuredFacts } from './board-facts.ts';
import type { BoardShape, RenderJob, WorkerMessage, WorkerResult } from './render-protocol.ts';
import type { LayerSide, LayerType } from '../../lib/contract/schemas/eda.ts';

/** The slowest fixture (EAGLE, heavy copper pours) renders in about 3 s on 2 cores. */
export const RENDER_TIME_LIMIT_MS = 30_000;
/** The worker's V8 heap; the largest fixture peaks well under a quarter of it. */
export const RENDER_MEMORY_LIMIT_MB = 768;
/** EAGLE's outlines leave hairline gaps between segments; pcb-stackup closes gaps up to this size. */
export const OUTLINE_GAP_FILL = 0.01;

export interface RenderOptions {
  timeLimitMs?: number;
  memoryLimitMb?: number;
}

export interface RenderedLayer {
  type: LayerType;
  side: LayerSide;
  filename: string;
  /** The layer alone, opaque black, in the board's frame (the same viewBox as `top`, not mirrored). */
  svg: string;
}

export interface RenderedBoard {
  widthMm: number;
  heightMm: number;
  layerCount: number;
  tool: EdaTool;
  /** Board bounds in Gerber coordinates, mm: x and y of the lower-left corner, width, height. */
  viewBoxMm: [number, number, number, number];
  layers: RenderedLayer[];
  /** Realistic render of the top side. */
  top: string;
  /** Realistic render of the bottom side, mirrored as one sees it turned over. */
  bottom: string;
  /** What the copper and drill files measure. */
  measured: MeasuredFacts;
  /** The edge and holes the 3D model is built from. */
  shape: BoardShape;
  /** Largest heap the worker used, in MiB. */
  peakMemoryMb: number;
}

const round = (value: number, digits = 4) => Number(value.toFixed(digits));

const WORKER_SOURCE = 'src/server/electronics/render-worker.ts';

/**
 * The worker's file. Beside this module when Node runs the source tree; when this module was
 * bundled into the built server (`dist/server/…`, where Vite leaves `new URL(…, import.meta.url)`
 * alone in server code) the worker is still run from the source tree, found by walking up.
 */
function workerUrl(): URL {
  const beside = new URL('./render-worker.ts', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  for (let folder = path.dirname(fileURLToPath(import.meta.url)); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, WORKER_SOURCE);
    if (existsSync(candidate)) return pathToFileURL(candidate);
    if (path.dirname(folder) === folder) return beside;
  }
}

function runWorker(job: RenderJob, options: Required<RenderOptions>): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryLimitMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    });
    let currentFile: string | null = null;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new BoardError('too_complex', currentFile ?? undefined, 'time limit'))), options.timeLimitMs);
    // An exception while a file is read is that file's fault (it is broken: `unreadable`, named);
    // one outside any file (stacking, drawing, the worker's own start) or the worker dying is a
    // crash the files do not explain, worth one more try.
    const thrown = (message: string) =>
      currentFile ? new BoardError('unreadable', currentFile, message) : new BoardError('render_failed', undefined, message, { crash: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'file') currentFile = message.filename;
      else if (message.kind === 'done') finish(() => resolve(message.result));
      else if (message.kind === 'failed') finish(() => reject(new BoardError(message.key, message.filename)));
      else finish(() => reject(thrown(message.message)));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') finish(() => reject(new BoardError('too_complex', currentFile ?? undefined, 'memory limit')));
      else finish(() => reject(thrown(error.message)));
    });
    worker.on('exit', (code) => finish(() => reject(new BoardError('render_failed', undefined, `worker exited with ${code}`, { crash: true }))));
  });
}

/**
 * Renders the layers of an identified set. Throws `BoardError`: `no_outline` (no outline layer, or
 * one that draws nothing), `too_complex` (time or memory limit), `unreadable` (a file the parser
 * chokes on, named), `render_failed` (an empty render; or, marked `crash`, the worker throwing
 * outside any file or dying).
 */
export async function renderBoard(set: IdentifiedSet, options: RenderOptions = {}): Promise<RenderedBoard> {
  if (!set.layers.some((layer) => layer.type === 'outline')) throw new BoardError('no_outline');
  const job: RenderJob = {
    outlineGapFill: OUTLINE_GAP_FILL,
    layers: set.layers.map((layer) => ({
      filename: layer.filename,
      type: layer.type,
      side: layer.side,
      filetype: looksLikeExcellon(layer.bytes) ? 'drill' : 'gerber',
      bytes: layer.bytes,
    })),
  };
  const result = await runWorker(job, {
    timeLimitMs: options.timeLimitMs ?? RENDER_TIME_LIMIT_MS,
    memoryLimitMb: options.memoryLimitMb ?? RENDER_MEMORY_LIMIT_MB,
  });
  const [x, y, width, height] = result.box;
  if (!(width > 0 && height > 0)) throw new BoardError('render_failed', undefined, 'nothing was drawn');
  // pcb-stackup draws in thousandths of the set's majority unit
  const toMm = (result.units === 'in' ? 25.4 : 1) / 1000;
  return {
    widthMm: round(width * toMm),
    heightMm: round(height * toMm),
    layerCount: set.copperLayerCount,
    tool: set.tool,
    viewBoxMm: [round(x * toMm), round(y * toMm), round(width * toMm), round(height * toMm)],
    layers: result.layers,
    top: result.top,
    bottom: result.bottom,
    measured: result.facts,
    shape: result.shape,
    peakMemoryMb: result.peakMemoryMb,
  };
}
