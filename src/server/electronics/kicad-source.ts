/**
 * A KiCad design source turned into what a builder needs, by `kicad-cli` in the box of
 * `kicad-cli.ts`: Gerbers and drill files, the schematic's sheets as SVG, its BOM, the board's
 * placements, the design checks (DRC with schematic parity, ERC) and photoreal renders of both
 * sides. Each stage runs on its own: one that fails is named in `problems` and the others go on,
 * so a board whose DRC crashes `kicad-cli` still shows its schematic.
 *
 * Everything happens in `scratch`, which the caller makes and removes; nothing here touches the
 * database or storage.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import type { SourceErrorKey, SourceStage } from '../../lib/contract/eda.ts';
import type { CheckResult, SchematicSymbol } from '../../lib/contract/schemas/eda.ts';
import type { BomColumn } from '../../lib/contract/eda.ts';
import type { SourceBomLine, SourcePlacement } from '../db/schema/index.ts';
import { ToolTimeout, type ToolResult } from '../media/run-tool.ts';
import { compressBoardModel } from './board-model.ts';
import { runKicadCli } from './kicad-cli.ts';
import { layOutSource, MAX_SCHEMATIC_BYTES, SourceError, type KicadProject, type SourceInput } from './kicad-project.ts';
import { readCheckReport, readSheets, readSourceBom, readSourcePlacements, readSymbols, type SourceSheet } from './kicad-outputs.ts';

export { SourceError, type SourceInput } from './kicad-project.ts';

/** A schematic sheet as drawn by KiCad, with where it sits in the hierarchy. */
export interface SheetOutput {
  name: string;
  page: number;
  path: string;
  svg: string;
  widthMm: number;
  heightMm: number;
}

export interface SourceOutputs {
  name: string;
  kicadVersion: string | null;
  /** Gerber and drill files zipped, for the board pipeline; null without a board or when the stage failed. */
  gerberZip: Buffer | null;
  sheets: SheetOutput[];
  symbols: SchematicSymbol[];
  bom: { lines: SourceBomLine[]; columns: BomColumn[] } | null;
  placements: SourcePlacement[];
  /** DRC items in KiCad's board coordinates (mm, y down); the caller moves them into a board's frame. */
  drc: CheckResult | null;
  erc: CheckResult | null;
  /** WebP renders of the board's top and bottom, at most `RENDER_WIDTH_PX` wide, and the top as JPEG for link previews. */
  renders: { top: Buffer; bottom: Buffer | null; topJpeg: Buffer } | null;
  /** The board in 3D: the GLB from `kicad-cli` compressed (`board-model.ts`), and the exported size before that. */
  model: { glb: Buffer; rawBytes: number } | null;
  problems: Array<{ stage: SourceStage; errorKey: SourceErrorKey }>;
  /** Seconds each stage took, for the log and `npm run bench`. */
  timings: Partial<Record<SourceStage | 'netlist', number>>;
}

/** The renders are made at this size: wide enough for the 2x picture variants of a page's column (1600 px). */
const RENDER_WIDTH_PX = 1600;
const RENDER_HEIGHT_PX = 1200;
/** Sheets whose SVG is larger than this are not kept: a real A4 sheet is well under 5 MB. */
const SHEET_SVG_MAX_BYTES = 24 * 1024 * 1024;
/** Exported models larger than this are not read: a dense 4-layer board is about 15 MB before compression. */
const MODEL_MAX_BYTES = 200 * 1024 * 1024;
/** Reports and netlists larger than this are not read (a large design's netlist is a few MB). */
const REPORT_MAX_BYTES = 64 * 1024 * 1024;

/** What a failed `kicad-cli` run means for its stage. */
export function runFailure(result: ToolResult): SourceErrorKey {
  // SIGXCPU past the CPU limit, SIGKILL past the wall clock or out of memory, SIGSEGV/SIGABRT a crash.
  if (result.signal === 'SIGXCPU' || result.signal === 'SIGKILL') return 'timed_out';
  if (result.signal) return 'crashed';
  return 'unreadable';
}

class StageFailed extends Error {
  readonly key: SourceErrorKey;
  constructor(key: SourceErrorKey) {
    super(key);
    this.key = key;
  }
}

/** Runs one `kicad-cli` command of a stage; a failed run fails the stage with what it means. */
async function kicad(args: string[], folder: string, signal?: AbortSignal): Promise<void> {
  const result = await runKicadCli(args, folder, { signal }).catch((error: unknown) => {
    if (error instanceof ToolTimeout) throw new StageFailed('timed_out');
    throw error;
  });
  if (result.code !== 0) throw new StageFailed(runFailure(result));
}

/** A file the stage should have written, as text; a missing or oversized one fails the stage. */
function readOutput(file: string): string {
  if (!existsSync(file) || statSync(file).size > REPORT_MAX_BYTES) throw new StageFailed('render_failed');
  return readFileSync(file, 'utf8');
}

function zipFolder(folder: string): Promise<Buffer> {
  const zip = new ZipFile();
  for (const name of readdirSync(folder).sort()) {
    const file = path.join(folder, name);
    if (statSync(file).isFile()) zip.addFile(file, name);
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** The schematic text read to place symbols and ERC items, at most: the hierarchy's own sheets are far smaller. */
const SCHEMATIC_TEXT_MAX_BYTES = 128 * 1024 * 1024;

/**
 * Every `.kicad_sch` under `folder` by its path relative to it, where symbols and ERC items are
 * found. `layOutSource` capped each sheet of the hierarchy; here the whole read is capped too, as
 * a source may carry schematics the hierarchy never names.
 */
function schematicTexts(folder: string): Map<string, string> {
  const texts = new Map<string, string>();
  let total = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.')) walk(file);
      else if (entry.isFile() && /\.kicad_sch$/i.test(entry.name)) {
        const size = statSync(file).size;
        if (size > MAX_SCHEMATIC_BYTES || total + size > SCHEMATIC_TEXT_MAX_BYTES) continue;
        total += size;
        texts.set(path.relative(folder, file).split(path.sep).join('/'), readFileSync(file, 'utf8'));
      }
    }
  };
  walk(folder);
  return texts;
}

/**
 * Lays the source out in `scratch` and runs every stage. Rejects with `SourceError` when the
 * source cannot be read at all (no project, unsafe archive, made by a newer KiCad); a stage that
 * fails is only named in `problems`, and when every stage that ran failed to load the files the
 * source as a whole is `unreadable`.
 */
export async function processKicadSource(input: SourceInput, scratch: string, options: { signal?: AbortSignal } = {}): Promise<SourceOutputs> {
  const project = await layOutSource(input, scratch);
  // Outputs go to a folder no source can already hold: a stage that writes nothing is never
  // read from a file the member shipped under the same name.
  const out = path.join(project.folder, `.copperhub-out-${randomBytes(8).toString('hex')}`);
  mkdirSync(out, { recursive: true });
  const outputs: SourceOutputs = {
    name: project.name,
    kicadVersion: project.kicadVersion,
    gerberZip: null,
    sheets: [],
    symbols: [],
    bom: null,
    placements: [],
    drc: null,
    erc: null,
    renders: null,
    model: null,
    problems: [],
    timings: {},
  };
  const stage = async (name: SourceStage | 'netlist', work: () => Promise<void>, counts: SourceStage[] = [name as SourceStage]) => {
    const started = performance.now();
    try {
      await work();
    } catch (error) {
      if (!(error instanceof StageFailed)) throw error;
      for (const failed of counts) outputs.problems.push({ stage: failed, errorKey: error.key });
    } finally {
      outputs.timings[name] = Math.round(performance.now() - started) / 1000;
    }
  };
  const run = (args: string[]) => kicad(args, project.folder, options.signal);
  const o = (name: string) => path.relative(project.folder, path.join(out, name));

  if (project.sch) await runSchematicStages(project, out, outputs, stage, run, o);
  if (project.pcb) await runBoardStages(project, out, outputs, stage, run, o);

  const ran = outputs.problems.length + countDone(outputs);
  if (ran > 0 && countDone(outputs) === 0 && outputs.problems.every((problem) => problem.errorKey === 'unreadable')) {
    throw new SourceError('unreadable', project.kicadVersion ?? undefined);
  }
  return outputs;
}

/** Stages that went through. */
function countDone(outputs: SourceOutputs): number {
  return [outputs.gerberZip, outputs.sheets.length > 0, outputs.bom, outputs.placements.length > 0, outputs.drc, outputs.erc, outputs.renders, outputs.model].filter(Boolean).length;
}

type Stage = (name: SourceStage | 'netlist', work: () => Promise<void>, counts?: SourceStage[]) => Promise<void>;
type Run = (args: string[]) => Promise<void>;

async function runSchematicStages(project: KicadProject, out: string, outputs: SourceOutputs, stage: Stage, run: Run, o: (name: string) => string) {
  const sch = project.sch!;
  // The netlist names the sheets (pages, hierarchy) and every symbol: sheets and BOM are read from it.
  let netlist: string | null = null;
  await stage(
    'netlist',
    async () => {
      await run(['sch', 'export', 'netlist', '--format', 'kicadxml', '-o', o('netlist.xml'), sch]);
      netlist = readOutput(path.join(out, 'netlist.xml'));
    },
    ['sheets', 'bom'],
  );
  const schematics = schematicTexts(project.folder);
  let sheets: SourceSheet[] = [];
  if (netlist !== null) {
    const xml: string = netlist;
    await stage('sheets', async () => {
      // No background: the viewer puts sheets on paper of its own, and version comparison uses them as masks.
      await run(['sch', 'export', 'svg', '--no-background-color', '-o', o('sheets'), sch]);
      const folder = path.join(out, 'sheets');
      const svgs = existsSync(folder)
        ? readdirSync(folder)
            .filter((name) => name.endsWith('.svg') && statSync(path.join(folder, name)).size <= SHEET_SVG_MAX_BYTES)
            .map((name) => ({ file: name, svg: readFileSync(path.join(folder, name), 'utf8') }))
        : [];
      sheets = readSheets(xml, svgs, project.name);
      if (sheets.length === 0) throw new StageFailed('render_failed');
      outputs.sheets = sheets.map(({ file, schematicFile: _file, ...sheet }) => ({ ...sheet, svg: svgs.find((candidate) => candidate.file === file)!.svg }));
      outputs.symbols = readSymbols(xml, schematics, sheets);
    });
    await stage('bom', async () => {
      const bom = readSourceBom(xml);
      if (bom.lines.length === 0) throw new StageFailed('render_failed');
      outputs.bom = bom;
    });
  }
  await stage('erc', async () => {
    await run(['sch', 'erc', '--format', 'json', '--severity-all', '--units', 'mm', '-o', o('erc.json'), sch]);
    // Items are put on their sheets by the parts they name or the file that holds them.
    const erc = readCheckReport(readOutput(path.join(out, 'erc.json')), 'erc', { sheets, schematics, symbols: outputs.symbols });
    if (!erc) throw new StageFailed('render_failed');
    outputs.erc = erc;
  });
}

async function runBoardStages(project: KicadProject, out: string, outputs: SourceOutputs, stage: Stage, run: Run, o: (name: string) => string) {
  const pcb = project.pcb!;
  await stage('gerbers', async () => {
    await run(['pcb', 'export', 'gerbers', '-o', `${o('fab')}/`, pcb]);
    await run(['pcb', 'export', 'drill', '-o', `${o('fab')}/`, pcb]);
    outputs.gerberZip = await zipFolder(path.join(out, 'fab'));
  });
  await stage('placements', async () => {
    await run(['pcb', 'export', 'pos', '--format', 'csv', '--units', 'mm', '--side', 'both', '-o', o('pos.csv'), pcb]);
    outputs.placements = readSourcePlacements(readOutput(path.join(out, 'pos.csv')));
  });
  await stage('drc', async () => {
    const args = ['pcb', 'drc', '--format', 'json', '--severity-all', '--units', 'mm', '-o', o('drc.json')];
    // Schematic parity needs the schematic loaded beside the board, which crashes some kicad-cli 9
    // builds on some boards (SIGSEGV): the check without parity still tells the board's own errors.
    await run([...args, '--schematic-parity', pcb]).catch(async (error: unknown) => {
      if (!(error instanceof StageFailed) || error.key !== 'crashed' || !project.sch) throw error;
      await run([...args, pcb]);
    });
    const drc = readCheckReport(readOutput(path.join(out, 'drc.json')), 'drc');
    if (!drc) throw new StageFailed('render_failed');
    outputs.drc = drc;
  });
  await stage('renders', async () => {
    const render = (side: 'top' | 'bottom') =>
      run(['pcb', 'render', '--side', side, '--width', String(RENDER_WIDTH_PX), '--height', String(RENDER_HEIGHT_PX), '--background', 'opaque', '-o', o(`${side}.png`), pcb]);
    await render('top');
    const top = readFileSync(path.join(out, 'top.png'));
    const image = () => sharp(top, { limitInputPixels: RENDER_WIDTH_PX * RENDER_HEIGHT_PX }).timeout({ seconds: 30 });
    const topWebp = await image().webp({ quality: 80 }).toBuffer();
    const topJpeg = await image().jpeg({ quality: 82 }).toBuffer();
    // A bottom that fails to render leaves the top: one side is enough for a card.
    const bottom = await render('bottom').then(
      () => sharp(readFileSync(path.join(out, 'bottom.png')), { limitInputPixels: RENDER_WIDTH_PX * RENDER_HEIGHT_PX }).timeout({ seconds: 30 }).webp({ quality: 80 }).toBuffer(),
      () => null,
    );
    outputs.renders = { top: topWebp, bottom, topJpeg };
  });
  await stage('model', async () => {
    // The bare board with what is drawn on it: no 3D part models are installed with kicad-cli, and
    // a member's source never brings any (the box has no network and no library paths).
    await run(['pcb', 'export', 'glb', '--board-only', '--include-tracks', '--include-pads', '--include-zones', '--include-silkscreen', '--include-soldermask', '-o', o('board.glb'), pcb]);
    const file = path.join(out, 'board.glb');
    if (!existsSync(file) || statSync(file).size > MODEL_MAX_BYTES) throw new StageFailed('render_failed');
    const raw = readFileSync(file);
    const glb = await compressBoardModel(raw).catch(() => {
      throw new StageFailed('render_failed');
    });
    outputs.model = { glb, rawBytes: raw.length };
  });
}
