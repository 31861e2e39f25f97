/**
 * KiCad design sources for `npm run bench`: each fixture of tests/fixtures/eda/kicad-sources run
 * through `kicad-cli` stage by stage, cold and one at a time, in the box the site runs it in
 * (`runKicadCli`): seconds per stage and the peak memory (resident) of `kicad-cli` over all stages.
 * Answers a Markdown section. Also runnable alone, `node bench/kicad-sources.ts`: prints the
 * section and puts it into bench/results.md in place of the previous one.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressBoardModel } from '../src/server/electronics/board-model.ts';
import { kicadCliPath, runKicadCli } from '../src/server/electronics/kicad-cli.ts';

const HEADING = '## KiCad design sources';
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../tests/fixtures/eda/kicad-sources');
/** GNU time reports the peak resident memory of what it runs (`%M`, KiB). */
const TIME = '/usr/bin/time';

const STAGES: Array<[string, (base: string) => string[]]> = [
  ['Gerbers', (base) => ['pcb', 'export', 'gerbers', '-o', 'fab/', `${base}.kicad_pcb`]],
  ['drill', (base) => ['pcb', 'export', 'drill', '-o', 'fab/', `${base}.kicad_pcb`]],
  ['sheets SVG', (base) => ['sch', 'export', 'svg', '-o', 'sheets/', `${base}.kicad_sch`]],
  ['BOM', (base) => ['sch', 'export', 'bom', '-o', 'bom.csv', `${base}.kicad_sch`]],
  ['placements', (base) => ['pcb', 'export', 'pos', '--format', 'csv', '--units', 'mm', '-o', 'pos.csv', `${base}.kicad_pcb`]],
  ['ERC', (base) => ['sch', 'erc', '--format', 'json', '-o', 'erc.json', `${base}.kicad_sch`]],
  ['DRC + parity', (base) => ['pcb', 'drc', '--format', 'json', '--schematic-parity', '-o', 'drc.json', `${base}.kicad_pcb`]],
  // As the source job's `model` stage exports it (kicad-source.ts).
  ['3D GLB', (base) => ['pcb', 'export', 'glb', '--board-only', '--include-tracks', '--include-pads', '--include-zones', '--include-silkscreen', '--include-soldermask', '-o', 'board.glb', `${base}.kicad_pcb`]],
];

export async function benchKicadSources(): Promise<string> {
  const kicad = kicadCliPath();
  if (!kicad) return `${HEADING}\n\nNot measured: no \`kicad-cli\` installed (\`scripts/install-kicad.sh\`).`;
  const rows: string[] = [];
  for (const folder of readdirSync(FIXTURES).sort()) {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'copperhub-bench-kicad-'));
    try {
      cpSync(path.join(FIXTURES, folder), scratch, { recursive: true });
      const base = readdirSync(scratch)
        .find((name) => name.endsWith('.kicad_pro'))!
        .slice(0, -'.kicad_pro'.length);
      const cells: string[] = [];
      let peakKib = 0;
      for (const [, args] of STAGES) {
        const started = performance.now();
        const result = await runKicadCli(['-f', '%M', '-o', '.peak', kicad, ...args(base)], scratch, { command: existsSync(TIME) ? TIME : undefined });
        const ms = performance.now() - started;
        peakKib = Math.max(peakKib, Number(readFileSync(path.join(scratch, '.peak'), 'utf8').trim().split('\n').at(-1)) || 0);
        cells.push(result.code === 0 ? (ms / 1000).toFixed(2) : `failed (${result.signal ?? result.code})`);
      }
      // The model's compression, as the job does it after the export: size before and after, seconds.
      const glbFile = path.join(scratch, 'board.glb');
      if (existsSync(glbFile)) {
        const raw = readFileSync(glbFile);
        const started = performance.now();
        const compressed = await compressBoardModel(raw);
        cells.push(`${(raw.length / 1024 / 1024).toFixed(2)} MB`, `${Math.round(compressed.length / 1024)} KB`, ((performance.now() - started) / 1000).toFixed(2));
      } else cells.push('–', '–', '–');
      console.log(`[bench] kicad ${folder}: ${cells.join(' / ')}`);
      rows.push(`| ${folder} | ${cells.join(' | ')} | ${Math.round(peakKib / 1024)} |`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return `${HEADING}

Each design source of \`tests/fixtures/eda/kicad-sources/\` (KiCad 6, 7, 8 and 9 files) through \`kicad-cli\`, stage by stage, cold and one at a time, in the box the site runs it in (scratch folder, empty \`HOME\`, kernel limits, \`nobody\` when run as root): seconds per stage, and the peak resident memory of \`kicad-cli\` over all stages. A stage that fails says how.

The 3D model's columns: the GLB kicad-cli wrote, the same compressed (\`board-model.ts\`: dedup, weld, join, quantize, meshopt) and the compression's seconds.

| source | ${STAGES.map(([name]) => `${name} s`).join(' | ')} | GLB | compressed | compression s | peak MiB |
|---|${STAGES.map(() => '---:').join('|')}|---:|---:|---:|---:|
${rows.join('\n')}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const section = await benchKicadSources();
  const note = `\n\n_KiCad sources measured ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}._`;
  console.log(`\n${section}${note}`);
  const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results.md');
  const previous = existsSync(results) ? readFileSync(results, 'utf8') : '# Benchmark results\n';
  const start = previous.indexOf(HEADING);
  const kept = start >= 0 ? previous.slice(0, start) + previous.slice(start).replace(/^## KiCad design sources[\s\S]*?(?=\n## |$)/, '') : previous;
  writeFileSync(results, `${kept.trimEnd()}\n\n${section}${note}\n`);
}
