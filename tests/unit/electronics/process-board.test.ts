import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BoardError, type SourceFile } from '../../../src/server/electronics/errors.ts';
import { identifyLayers } from '../../../src/server/electronics/layers.ts';
import { HEAVY_PREVIEW_WIDTH_PX, PREVIEW_WIDTH_PX } from '../../../src/server/electronics/preview.ts';
import { processGerberSet, type ProcessedBoard } from '../../../src/server/electronics/process-board.ts';
import { renderBoard } from '../../../src/server/electronics/render.ts';
import { loadBoard, makeZip, type BoardName } from '../../helpers/board-fixtures.ts';

/** Board sizes measured on the real boards (seed/demo/eda/SOURCES.md). */
const KNOWN: Record<BoardName, { width: number; height: number; tool: string }> = {
  'altium-bga24': { width: 8, height: 6, tool: 'altium' },
  'eagle-snapper': { width: 27.3, height: 32.06, tool: 'eagle' },
  'kicad-rrf': { width: 17.53, height: 13.72, tool: 'kicad' },
  'kicad-sanga04': { width: 65, height: 56.5, tool: 'kicad' },
};

const viewBoxOf = (svg: string) => /<svg\b[^>]*\sviewBox="([^"]+)"/.exec(svg)?.[1];

async function boardError(promise: Promise<unknown>): Promise<BoardError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BoardError);
  return error as BoardError;
}

async function expectBoard(board: ProcessedBoard, name: BoardName, files: SourceFile[]) {
  expect(Math.abs(board.widthMm - KNOWN[name].width)).toBeLessThanOrEqual(0.2);
  expect(Math.abs(board.heightMm - KNOWN[name].height)).toBeLessThanOrEqual(0.2);
  expect(board.viewBoxMm[2]).toBeCloseTo(board.widthMm, 3);
  expect(board.layerCount).toBe(2);
  expect(board.tool).toBe(KNOWN[name].tool);
  // every layer file became a layer with its own SVG, drawn in the top render's frame
  const layerFiles = files.map((file) => file.name).filter((file) => !/\.gbrjob$/.test(file));
  expect(board.layers.map((layer) => layer.filename).sort()).toEqual(layerFiles.sort());
  const frame = viewBoxOf(board.top);
  expect(frame).toBeTruthy();
  for (const layer of board.layers) {
    expect(viewBoxOf(layer.svg)).toBe(frame);
    expect(layer.svg).not.toMatch(/scale\(-1,\s*1\)/);
  }
  expect(viewBoxOf(board.bottom)).toBe(frame);
  expect(board.bottom).toMatch(/scale\(-1,1\)/);
  // the preview is a WebP of the board's aspect
  const preview = await sharp(board.preview).metadata();
  expect(preview.format).toBe('webp');
  expect([PREVIEW_WIDTH_PX, HEAVY_PREVIEW_WIDTH_PX]).toContain(preview.width);
  expect((preview.height ?? 0) / (preview.width ?? 1)).toBeCloseTo(board.heightMm / board.widthMm, 2);
  // and the same picture as JPEG, for link previews that show no WebP
  const jpeg = await sharp(board.previewJpeg).metadata();
  expect(jpeg).toMatchObject({ format: 'jpeg', width: preview.width, height: preview.height });
}

describe('processGerberSet on the fixture boards', () => {
  it.each(Object.keys(KNOWN) as BoardName[])('%s as loose files: size, layers, tool, renders and preview', async (name) => {
    const files = loadBoard(name);
    const board = await processGerberSet({ files });
    await expectBoard(board, name, files);
    // what a builder waits for, on this 2-core machine
    expect(board.timings.totalMs).toBeLessThan(15_000);
  });

  it.each(Object.keys(KNOWN) as BoardName[])('%s zipped in nested folders with litter beside it', async (name) => {
    const files = loadBoard(name).map((file) => ({ name: `${name}/fab/gerbers/${file.name}`, bytes: file.bytes }));
    const zip = await makeZip([...files, { name: `__MACOSX/${name}/._x.gbr`, bytes: new Uint8Array([0, 5, 22, 7]) }], [`${name}/`, `${name}/fab/`]);
    const board = await processGerberSet({ zip });
    await expectBoard(board, name, files);
  });

  it('renders the bottom side with the bottom copper, and each layer alone', async () => {
    const board = await processGerberSet({ files: loadBoard('kicad-rrf') });
    const top = board.layers.find((layer) => layer.type === 'copper' && layer.side === 'top')!;
    const bottom = board.layers.find((layer) => layer.type === 'copper' && layer.side === 'bottom')!;
    expect(top.svg).not.toBe(bottom.svg);
    // opaque black on transparent: what a CSS mask needs
    expect(top.svg).toContain('fill="#000"');
    const pixels = await sharp(Buffer.from(top.svg.replace(/width="[^"]*mm" height="[^"]*mm"/, 'width="200" height="157"')), { density: 72 }).raw().toBuffer({ resolveWithObject: true });
    let opaque = 0;
    for (let index = 3; index < pixels.data.length; index += pixels.info.channels) if (pixels.data[index]! > 200) opaque += 1;
    expect(opaque).toBeGreaterThan(1000);
  });
});

describe('boards with inner layers', () => {
  const decode = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
  function withInnerLayers(count: number): SourceFile[] {
    const files = loadBoard('kicad-rrf');
    const top = decode(files.find((file) => file.name.endsWith('F_Cu.gbr'))!.bytes);
    const inner = Array.from({ length: count }, (_, n) => ({
      name: `rrf_rpi_skr_adapter-In${n + 1}_Cu.gbr`,
      bytes: new TextEncoder().encode(top.replace('%TF.FileFunction,Copper,L1,Top*%', `%TF.FileFunction,Copper,L${n + 2},Inr*%`)),
    }));
    return [...files, ...inner];
  }

  it.each([
    [4, 2],
    [6, 4],
  ])('a %i-layer board reports %i inner copper layers and draws each', async (layers, inner) => {
    const board = await processGerberSet({ files: withInnerLayers(inner) });
    expect(board.layerCount).toBe(layers);
    const innerLayers = board.layers.filter((layer) => layer.type === 'copper' && layer.side === 'inner');
    expect(innerLayers.map((layer) => layer.filename)).toEqual(Array.from({ length: inner }, (_, n) => `rrf_rpi_skr_adapter-In${n + 1}_Cu.gbr`));
    for (const layer of innerLayers) expect(layer.svg.length).toBeGreaterThan(1000);
    expect(Math.abs(board.widthMm - 17.53)).toBeLessThanOrEqual(0.2);
  });
});

describe('what a set lacks that a fab needs', () => {
  it('warns of a set without a drill file, and of layers its job file names that are missing', async () => {
    const whole = await processGerberSet({ files: loadBoard('kicad-rrf') });
    expect(whole.facts.warnings).toEqual([]);
    const noDrill = await processGerberSet({ files: loadBoard('kicad-rrf').filter((file) => !file.name.endsWith('.drl')) });
    expect(noDrill.facts.warnings).toEqual([{ key: 'no_drill' }]);
    const noSilk = await processGerberSet({ files: loadBoard('kicad-rrf').filter((file) => !/Silkscreen/.test(file.name)) });
    expect(noSilk.facts.warnings).toEqual([{ key: 'job_layers_missing', files: ['rrf_rpi_skr_adapter-F_Silkscreen.gbr', 'rrf_rpi_skr_adapter-B_Silkscreen.gbr'] }]);
  });
});

describe('hostile and broken Gerber sets', () => {
  it('says "no board outline" for a set without an outline layer', async () => {
    const files = loadBoard('kicad-sanga04').filter((file) => !file.name.endsWith('.gm1'));
    expect(await boardError(processGerberSet({ files }))).toMatchObject({ key: 'no_outline', crash: false });
  });

  it('names the PNG that pretends to be a Gerber, inside a zip', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toBuffer();
    const files = loadBoard('altium-bga24').map((file) => (file.name === 'PCB1.GTL' ? { name: 'x/PCB1.GTL', bytes: new Uint8Array(png) } : { ...file, name: `x/${file.name}` }));
    const error = await boardError(processGerberSet({ zip: await makeZip(files) }));
    expect(error).toMatchObject({ key: 'not_gerber', file: 'x/PCB1.GTL' });
  });

  it('names the uploaded zip when the zip itself is cut short or no zip at all', async () => {
    const zip = await makeZip(loadBoard('kicad-rrf'));
    const truncated = await boardError(processGerberSet({ zip: zip.subarray(0, Math.floor(zip.byteLength / 2)), name: 'rrf-gerbers.zip' }));
    expect(truncated).toMatchObject({ key: 'unreadable', file: 'rrf-gerbers.zip' });
    const gerber = loadBoard('kicad-rrf')[0]!.bytes;
    expect(await boardError(processGerberSet({ zip: gerber, name: 'renamed.zip' }))).toMatchObject({ key: 'unreadable', file: 'renamed.zip' });
  });

  it('says a zip of non-Gerber files has no layers', async () => {
    const zip = await makeZip([
      { name: 'README.md', bytes: new TextEncoder().encode('# my board') },
      { name: 'docs/notes.txt', bytes: new TextEncoder().encode('1.6 mm, green') },
    ]);
    expect((await boardError(processGerberSet({ zip }))).key).toBe('no_layers');
  });

  it('stops a Gerber with millions of flashes at the time limit, and the event loop keeps turning meanwhile', async () => {
    const lines = ['%TF.FileFunction,Copper,L1,Top*%', '%FSLAX46Y46*%', '%MOMM*%', '%ADD10C,0.100000*%', 'D10*'];
    for (let n = 0; n < 3_000_000; n += 1) lines.push(`X${(n % 17000) * 1000}Y${Math.floor(n / 17000) * 70}D03*`);
    lines.push('M02*');
    const flashes = new TextEncoder().encode(lines.join('\n'));
    const files = loadBoard('kicad-rrf').map((file) => (file.name.endsWith('F_Cu.gbr') ? { ...file, bytes: flashes } : file));

    let ticks = 0;
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks += 1;
    }, 20);
    const started = performance.now();
    try {
      const error = await boardError(processGerberSet({ files }, { render: { timeLimitMs: 3000 } }));
      expect(error.key).toBe('too_complex');
      expect(error.file).toBe('rrf_rpi_skr_adapter-F_Cu.gbr');
      // a verdict on the files, not a crash: the board job does not try it again
      expect(error.crash).toBe(false);
    } finally {
      clearInterval(timer);
    }
    expect(performance.now() - started).toBeLessThan(6000);
    expect(ticks).toBeGreaterThan(50);
    expect(longestGap).toBeLessThan(500);
  });

  it('ends a render past its memory limit as too complex', async () => {
    const set = identifyLayers(loadBoard('kicad-sanga04'));
    const error = await boardError(renderBoard(set, { memoryLimitMb: 8 }));
    expect(error).toMatchObject({ key: 'too_complex', crash: false });
  });
});
