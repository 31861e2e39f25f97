/**
 * The one entry point of the board job: a Gerber set (a zip, or loose files) in, everything a board
 * stores out: its facts, identified layers, SVG renders, WebP and JPEG previews and how long each step took.
 * Pure computation: no database, no storage; the caller decides where the renders go.
 */
import { performance } from 'node:perf_hooks';
import type { EdaTool } from '../../lib/contract/eda.ts';
import type { LayerPurpose, StoredBoardFacts } from '../../lib/contract/schemas/eda.ts';
import { extractGerberArchive, type ArchiveLimits } from './archive.ts';
import { BoardError, type SourceFile } from './errors.ts';
import { gerberFlashes } from './gerber-flashes.ts';
import { identifyLayers, type IdentifiedLayer, type IdentifiedSet, type LayerEvidence } from './layers.ts';
import { rasterizePreview, type PreviewOptions } from './preview.ts';
import type { BoardShape } from './render-protocol.ts';
import { renderBoard, type RenderedBoard, type RenderedLayer, type RenderOptions } from './render.ts';

export interface ProcessOptions {
  archive?: Partial<ArchiveLimits>;
  render?: RenderOptions;
  preview?: PreviewOptions;
}

export interface ProcessedLayer extends RenderedLayer {
  /** How the layer was recognised: a job file, the file's own attribute, or its name. */
  evidence: LayerEvidence;
  /** What a documentation layer is for (courtyard, fab, …), when its function or name says it. */
  purpose: LayerPurpose | null;
}

export interface ProcessedBoard {
  widthMm: number;
  heightMm: number;
  /** Copper layers: top + bottom + inner. */
  layerCount: number;
  tool: EdaTool;
  /** Board bounds in Gerber coordinates (mm): lower-left x, y, width, height. */
  viewBoxMm: [number, number, number, number];
  layers: ProcessedLayer[];
  /** Realistic SVG renders of each side (the bottom mirrored, as seen turned over). */
  top: string;
  bottom: string;
  /** WebP of the top side. */
  preview: Buffer;
  /** The same picture as JPEG, for link previews that show no WebP. */
  previewJpeg: Buffer;
  /** What the fabrication files tell a fab (the parts per side are counted from placements later). */
  facts: StoredBoardFacts;
  /** The board's edge and drill holes (Gerber coordinates, mm), for the 3D model (`gerber-model.ts`). */
  shape: BoardShape;
  /** Files of the set that are no layer (job files, documentation, unknown names). */
  ignored: string[];
  /**
   * Pad centres of the top paste layer (or, without one, a small top copper layer) in Gerber
   * coordinates (mm): where a pick-and-place file's origin lies is read from them.
   */
  pads: Array<[number, number]>;
  peakMemoryMb: number;
  timings: { extractMs: number; identifyMs: number; renderMs: number; previewMs: number; totalMs: number };
}

/** Loose files, or a zip with the name it was uploaded under (named when the zip itself is at fault). */
export type GerberSetInput = { files: SourceFile[] } | { zip: Uint8Array; name?: string };

/** Layers larger than this are not read for pads (a paste layer is a few hundred kilobytes). */
const PAD_LAYER_MAX_BYTES = 2 * 1024 * 1024;
/** Pads kept per board: enough to place parts, small enough to store with the board. */
const MAX_PADS = 5_000;

function padsOf(layers: IdentifiedLayer[]): Array<[number, number]> {
  const source =
    layers.find((layer) => layer.type === 'solderpaste' && layer.side === 'top') ??
    layers.find((layer) => layer.type === 'copper' && layer.side === 'top');
  if (!source || source.bytes.length > PAD_LAYER_MAX_BYTES) return [];
  const pads = gerberFlashes(new TextDecoder().decode(source.bytes));
  const step = Math.ceil(pads.length / MAX_PADS);
  return step > 1 ? pads.filter((_, i) => i % step === 0) : pads;
}

const to = (value: number, digits: number) => Number(value.toFixed(digits));

/** The board's facts: its size and layers from the render and the job file, the rest measured from the files. */
function factsOf(board: RenderedBoard, set: IdentifiedSet): StoredBoardFacts {
  return {
    widthMm: board.widthMm,
    heightMm: board.heightMm,
    widthIn: to(board.widthMm / 25.4, 3),
    heightIn: to(board.heightMm / 25.4, 3),
    areaCm2: to((board.widthMm * board.heightMm) / 100, 2),
    copperLayers: set.copperLayerCount,
    thicknessMm: set.jobThicknessMm,
    ...board.measured,
    warnings: warningsOf(set),
  };
}

/** What the set lacks that a fab needs, though the board renders. */
function warningsOf(set: IdentifiedSet): NonNullable<StoredBoardFacts['warnings']> {
  const warnings: NonNullable<StoredBoardFacts['warnings']> = [];
  if (!set.layers.some((layer) => layer.type === 'drill')) warnings.push({ key: 'no_drill' });
  if (set.missingFromJob.length > 0) warnings.push({ key: 'job_layers_missing', files: set.missingFromJob });
  return warnings;
}

const elapsed = (since: number) => Math.round(performance.now() - since);

/**
 * The files of a zip. When the zip as a whole is at fault (not a zip, cut short, a damaged
 * directory) no entry is to blame, so the zip's own name is the file the author is told about.
 */
async function extractNamed(zip: Uint8Array, name: string | undefined, limits: Partial<ArchiveLimits> | undefined): Promise<SourceFile[]> {
  try {
    return await extractGerberArchive(zip, limits);
  } catch (error) {
    if (error instanceof BoardError && error.file === undefined && name) throw new BoardError(error.key, name, error.message);
    throw error;
  }
}

/**
 * Extracts (a zip), identifies, renders and rasterizes a Gerber set. Throws `BoardError` with the
 * key the author will read and the file at fault when there is one.
 */
export async function processGerberSet(input: GerberSetInput, options: ProcessOptions = {}): Promise<ProcessedBoard> {
  const start = performance.now();
  const files = 'zip' in input ? await extractNamed(input.zip, input.name, options.archive) : input.files;
  const extractMs = elapsed(start);

  const identifyStart = performance.now();
  const set = identifyLayers(files);
  const identifyMs = elapsed(identifyStart);

  const renderStart = performance.now();
  const board = await renderBoard(set, options.render);
  const renderMs = elapsed(renderStart);

  const previewStart = performance.now();
  const previews = await rasterizePreview(board.top, options.preview);
  const previewMs = elapsed(previewStart);

  const identified = new Map(set.layers.map((layer) => [layer.filename, layer]));
  return {
    widthMm: board.widthMm,
    heightMm: board.heightMm,
    layerCount: board.layerCount,
    tool: board.tool,
    viewBoxMm: board.viewBoxMm,
    layers: board.layers.map((layer) => ({ ...layer, evidence: identified.get(layer.filename)?.evidence ?? 'name', purpose: identified.get(layer.filename)?.purpose ?? null })),
    top: board.top,
    bottom: board.bottom,
    preview: previews.webp,
    previewJpeg: previews.jpeg,
    facts: factsOf(board, set),
    shape: board.shape,
    ignored: set.ignored,
    pads: padsOf(set.layers),
    peakMemoryMb: board.peakMemoryMb,
    timings: { extractMs, identifyMs, renderMs, previewMs, totalMs: elapsed(start) },
  };
}
