/**
 * Runs in a `worker_threads` worker started by `render.ts`: converts each identified layer with
 * gerber-to-svg, stacks them with pcb-stackup into realistic top and bottom renders, and draws every
 * layer alone in the board's frame. A hostile file can throw from inside a parser stream, loop for
 * minutes or eat memory; here that only ends this thread, and the parent knows which file it was
 * reading because each layer is announced before it starts.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import gerberToSvg from 'gerber-to-svg';
import pcbStackup from 'pcb-stackup';
import { measureBoard, UNMEASURED, type BoardHole, type MeasuredFacts } from './board-facts.ts';
import { readBoardEdge, type EdgePiece } from './board-outline.ts';
import type { RenderJob, WorkerMessage, WorkerLayer } from './render-protocol.ts';

const job = workerData as RenderJob;
const port = parentPort!;

let peakBytes = 0;
function sampleMemory() {
  const heap = getHeapStatistics();
  peakBytes = Math.max(peakBytes, heap.total_heap_size + heap.malloced_memory + heap.external_memory);
}
// gerber-parser reads in chunks, so the event loop turns and this catches the peak while a layer parses
const sampler = setInterval(sampleMemory, 25);

function send(message: WorkerMessage) {
  port.postMessage(message);
}

function convert(layer: WorkerLayer): Promise<gerberToSvg.Converter> {
  return new Promise((resolve, reject) => {
    const options: gerberToSvg.Options = {};
    // the outline is plotted as one closed path; a gap this small (mm or in) is closed, which EAGLE's needs
    if (layer.type === 'outline') options.plotAsOutline = job.outlineGapFill;
    // the bytes were judged already: telling the parser saves it from guessing on a short file
    options.filetype = layer.filetype;
    const converter = gerberToSvg(Buffer.from(layer.bytes), options, (error) => {
      if (error) reject(error);
      else resolve(converter);
    });
  });
}

type Box = [number, number, number, number];

/** Scale that brings a layer drawn in `from` units into a board drawn in `to` units. */
function unitScale(to: string, from: string): number {
  if (!from || to === from) return 1;
  return to === 'in' ? 1 / 25.4 : 25.4;
}

/**
 * One layer alone, in the board's frame (the top render's viewBox, not mirrored), drawn opaque
 * black on transparent so the viewer can colour it with a CSS mask.
 */
function layerSvg(converter: gerberToSvg.Converter, box: Box, units: string): string {
  const scale = unitScale(units, converter.units);
  const flip = `translate(0,${2 * box[1] + box[3]}) scale(1,-1)`;
  const inner = scale === 1 ? '' : ` transform="scale(${scale})"`;
  const defs = converter.defs.length > 0 ? `<defs>${converter.defs.join('')}</defs>` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" ` +
    `stroke-linecap="round" stroke-linejoin="round" stroke-width="0" fill-rule="evenodd" clip-rule="evenodd" ` +
    `viewBox="${box.join(' ')}" width="${box[2] / 1000}${units}" height="${box[3] / 1000}${units}">` +
    `${defs}<g transform="${flip}"><g fill="#000" stroke="#000" color="#000"${inner}>${converter.layer.join('')}</g></g></svg>`
  );
}

async function run() {
  const converted: { layer: WorkerLayer; converter: gerberToSvg.Converter }[] = [];
  for (const layer of job.layers) {
    send({ kind: 'file', filename: layer.filename });
    converted.push({ layer, converter: await convert(layer) });
    sampleMemory();
  }

  const outline = converted.find((entry) => entry.layer.type === 'outline');
  if (!outline || outline.converter.viewBox[2] === 0 || outline.converter.viewBox[3] === 0) {
    send({ kind: 'failed', key: 'no_outline', filename: outline?.layer.filename });
    return;
  }

  send({ kind: 'file', filename: null });
  const stackup = await pcbStackup(
    converted.map(({ layer, converter }) => ({
      filename: layer.filename,
      type: layer.type,
      // pcb-stackup stacks top and bottom only; inner copper is drawn alone below
      side: layer.side,
      converter,
    })),
    // the board as it comes from the fab: solder paste is the stencil's, not on the board, so the
    // pads show their gold finish (the paste layer is still drawn alone below)
    { outlineGapFill: job.outlineGapFill, useOutline: true, color: { sp: '#00000000' } },
  );
  sampleMemory();

  const box = stackup.top.viewBox as Box;
  const units = stackup.top.units;
  const layers = converted.map(({ layer, converter }) => ({
    filename: layer.filename,
    type: layer.type,
    side: layer.side,
    svg: layerSvg(converter, box, units),
  }));
  sampleMemory();
  // measured here, under the worker's time and memory limits, from the files the renders were drawn from
  // (the renders are what the board needs: a fact that cannot be measured is unknown, not a failed board)
  let facts: MeasuredFacts;
  let holes: BoardHole[] = [];
  try {
    ({ facts, holes } = measureBoard(job.layers));
  } catch {
    facts = UNMEASURED;
  }
  // the 3D model's walls and holes: a board whose edge cannot be read is modelled without walls
  const edge: EdgePiece[] = await readBoardEdge(outline.layer.bytes, job.outlineGapFill).catch(() => []);
  sampleMemory();
  send({
    kind: 'done',
    result: {
      box,
      units,
      top: stackup.top.svg,
      bottom: stackup.bottom.svg,
      layers,
      facts,
      shape: { edge, holes },
      peakMemoryMb: Math.round(peakBytes / 2 ** 20),
    },
  });
}

run()
  .catch((error: unknown) => {
    send({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  })
  .finally(() => clearInterval(sampler));
