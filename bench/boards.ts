/**
 * Board processing for `npm run bench`: each fixture board of seed/demo/eda processed
 * cold, one at a time, as the board job does it (identification, render in a fresh worker thread,
 * WebP and JPEG previews, the 3D model): seconds per step, the worker's peak memory and the model's
 * size. Answers a Markdown section.
 * Also runnable alone, `node bench/boards.ts`: prints the section and puts it into
 * bench/results.md in place of the previous one, leaving the page benchmark as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processGerberSet } from '../src/server/electronics/process-board.ts';
import { buildGerberModel, gerberModelInput } from '../src/server/electronics/gerber-model.ts';
import { BOARD_NAMES, loadBoard } from '../tests/helpers/board-fixtures.ts';

const HEADING = '## Boards from Gerbers';

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

export async function benchBoards(): Promise<string> {
  const rows: string[] = [];
  for (const name of BOARD_NAMES) {
    const board = await processGerberSet({ files: loadBoard(name) });
    const { renderMs, previewMs, totalMs } = board.timings;
    // As the board job builds it after the render (services/eda/processing.ts).
    const modelStart = performance.now();
    const model = await buildGerberModel(gerberModelInput(name, board));
    const modelMs = performance.now() - modelStart;
    console.log(`[bench] board ${name}: ${seconds(totalMs + modelMs)} s`);
    rows.push(
      `| ${name} | ${board.tool} | ${board.widthMm.toFixed(2)} × ${board.heightMm.toFixed(2)} | ${board.layers.length} | ${seconds(renderMs)} | ${seconds(previewMs)} | ${seconds(modelMs)} | ${seconds(totalMs + modelMs)} | ${board.peakMemoryMb} | ${kb(model.rawBytes)} | ${kb(model.glb.length)} |`,
    );
  }
  return `${HEADING}

Each fixture board processed cold, one at a time: layers identified, rendered in a fresh worker thread (pcb-stackup), WebP and JPEG previews from one rasterization (sharp), and the 3D model (\`gerber-model.ts\`: faces rasterized as WebP, walls and hole barrels, compressed with meshopt), its size before and after compression. Aim: every board ready in under 5 s.

| board | tool | size mm | layers | render s | preview s | 3D model s | total s | peak worker MiB | model | compressed |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const section = await benchBoards();
  const note = `\n\n_Boards measured ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}._`;
  console.log(`\n${section}${note}`);
  const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results.md');
  const previous = existsSync(results) ? readFileSync(results, 'utf8') : '# Benchmark results\n';
  const start = previous.indexOf(HEADING);
  const kept = start >= 0 ? previous.slice(0, start) + previous.slice(start).replace(/^## Boards from Gerbers[\s\S]*?(?=\n## |$)/, '') : previous;
  writeFileSync(results, `${kept.trimEnd()}\n\n${section}${note}\n`);
}
