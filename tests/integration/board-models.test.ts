import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KICAD_SOURCES, outlineOf, zipProject } from '../helpers/kicad-sources.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { publishWithFiles } from '../helpers/publish.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import sharp from 'sharp';
import { measureBoardModel, readBoardModel } from '../../src/server/electronics/board-model.ts';
import { measureBoard } from '../../src/server/electronics/board-facts.ts';
import { loadBoard, type BoardName } from '../helpers/board-fixtures.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { getEdaDetail } from '../../src/server/services/eda/index.ts';
import { getStorage, readStoredBytes } from '../../src/server/storage/index.ts';
import { getDb } from '../../src/server/db/client.ts';
import { boards } from '../../src/server/db/schema/index.ts';
import type { EdaDetail } from '../../src/lib/contract/schemas/eda.ts';

/**
 * Every fixture KiCad source becomes a board in 3D: the job queue exports the GLB with kicad-cli,
 * compresses it, and the board made from the source carries it (`boards[].model`). The model is
 * measured with gltf-transform against the board's outline read from the `.kicad_pcb` itself.
 */
useTestDatabase();

const SOURCES = KICAD_SOURCES;

async function waitForModel(id: string, ownerId: number, timeoutMs = 240_000): Promise<EdaDetail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const detail = await getEdaDetail(id, ownerId);
    const sourceDone = detail.source && ['ready', 'failed'].includes(detail.source.status);
    const boardsDone = detail.boards.length > 0 && detail.boards.every((board) => board.status === 'ready' || board.status === 'failed');
    if (sourceDone && boardsDone && (detail.source?.status === 'failed' || detail.boards.some((board) => board.model))) return detail;
    if (Date.now() > until) throw new Error(`model not made: ${JSON.stringify({ source: detail.source?.status, boards: detail.boards.map((b) => [b.status, b.model]) })}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  await createTag('power');
  await startJobWorkers();
});
afterAll(() => stopJobWorkers());

describe('a KiCad source board in 3D', () => {
  for (const fixture of readdirSync(SOURCES).sort()) {
    it(`${fixture}: a compressed model the size of the board's outline and 1.6 mm thick`, { timeout: 300_000 }, async () => {
      const { user } = await createUser();
      const id = await publishWithFiles(user.id, [{ name: `${fixture}.zip`, bytes: await zipProject(fixture) }], 'A KiCad project');
      const detail = await waitForModel(id, user.id);
      expect(detail.source!.problems).not.toContainEqual(expect.objectContaining({ stage: 'model' }));
      const [board] = detail.boards;
      expect(board!.model).toMatchObject({ url: expect.stringMatching(/^\/files\/sources\/\d+\/board\.glb$/) });
      const glb = await readStoredBytes(board!.model!.url.replace(/^\/files\//, ''));
      expect(glb!.length).toBe(board!.model!.bytes);
      // A few hundred KB to about a MB for the densest four-layer fixture, against 1.4–13 MB from kicad-cli.
      expect(glb!.length).toBeLessThan(1_500_000);

      const pcb = readdirSync(path.join(SOURCES, fixture)).find((file) => file.endsWith('.kicad_pcb'))!;
      const outline = outlineOf(readFileSync(path.join(SOURCES, fixture, pcb), 'utf8'));
      const { sizeMm } = await measureBoardModel(glb!);
      expect(Math.abs(sizeMm[0] - outline.widthMm)).toBeLessThan(0.2);
      expect(Math.abs(sizeMm[1] - outline.heightMm)).toBeLessThan(0.2);
      // 1.6 mm of board with copper, mask and silkscreen faces on both sides.
      expect(sizeMm[2]).toBeGreaterThan(1.55);
      expect(sizeMm[2]).toBeLessThan(1.75);
    });
  }
});

/** What the board job builds for a board known only from Gerbers: the Gerber sets of the demo's four boards (`BOARD_NAMES`). */
const GERBER_BOARDS: Array<{ name: BoardName; thicknessMm: number }> = [
  { name: 'altium-bga24', thicknessMm: 1.6 }, // no job file: the common 1.6 mm
  { name: 'eagle-snapper', thicknessMm: 1.57 }, // its .gbrjob says 1.57 mm
  { name: 'kicad-rrf', thicknessMm: 1.6 }, // its .gbrjob says 1.6 mm
  { name: 'kicad-sanga04', thicknessMm: 1.6 },
];

async function waitForBoard(id: string, ownerId: number, timeoutMs = 120_000): Promise<EdaDetail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const detail = await getEdaDetail(id, ownerId);
    if (detail.boards.length > 0 && detail.boards.every((board) => board.status === 'ready' || board.status === 'failed')) return detail;
    if (Date.now() > until) throw new Error(`board not rendered: ${detail.boards.map((board) => board.status).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The alpha of a face picture at a point of the board, given in Gerber mm. */
async function alphaAt(picture: Uint8Array, viewBoxMm: [number, number, number, number], xMm: number, yMm: number): Promise<number> {
  const { data, info } = await sharp(picture).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const [x0, y0, width, height] = viewBoxMm;
  const column = Math.min(info.width - 1, Math.floor(((xMm - x0) / width) * info.width));
  const row = Math.min(info.height - 1, Math.floor(((y0 + height - yMm) / height) * info.height));
  return data[(row * info.width + column) * info.channels + 3]!;
}

describe('a board known only from Gerbers in 3D', () => {
  for (const { name, thicknessMm } of GERBER_BOARDS) {
    it(`${name}: its outline at the job file's thickness, the renders as faces, see-through holes lined with copper`, { timeout: 180_000 }, async () => {
      const { user } = await createUser();
      const id = await publishWithFiles(user.id, loadBoard(name), 'A board from Gerbers');
      const detail = await waitForBoard(id, user.id);
      const [board] = detail.boards;
      expect(board).toMatchObject({ status: 'ready', model: { url: expect.stringMatching(/^\/files\/boards\/\d+\/model\.glb$/) } });
      const glb = await readStoredBytes(board!.model!.url.replace(/^\/files\//, ''));
      expect(glb!.length).toBe(board!.model!.bytes);
      // The two faces' pictures are most of it: a few hundred KB.
      expect(glb!.length).toBeLessThan(600_000);

      // The board's size, as the facts and the 2D view say, and its thickness.
      const facts = board!.facts!;
      const { min, sizeMm } = await measureBoardModel(glb!);
      expect(Math.abs(sizeMm[0] - facts.widthMm!)).toBeLessThan(0.02);
      expect(Math.abs(sizeMm[1] - facts.heightMm!)).toBeLessThan(0.02);
      expect(Math.abs(sizeMm[2] - thicknessMm)).toBeLessThan(0.01);
      // In the frame of kicad-cli's models: the board's corner at the origin, its bottom at y = 0.
      for (const value of min) expect(Math.abs(value)).toBeLessThan(0.00002);

      const document = await readBoardModel(glb!);
      const textures = document.getRoot().listTextures();
      expect(textures.map((texture) => texture.getMimeType())).toEqual(['image/webp', 'image/webp']);
      const [top] = textures;
      expect(top!.getSize()![0]).toBeGreaterThanOrEqual(1024);
      const materials = document.getRoot().listMaterials().map((material) => material.getName());
      expect(materials).toEqual(expect.arrayContaining(['top', 'bottom', 'core', 'plating']));

      // A drilled hole is see-through on the top face; the board beside it is not.
      const holes = measureBoard(loadBoard(name).flatMap((file) => (/\.(xln|drl|txt)$/i.test(file.name) ? [{ filename: file.name, type: 'drill' as const, side: 'all' as const, filetype: 'drill' as const, bytes: file.bytes }] : []))).holes;
      const largest = holes.reduce((best, hole) => (hole.diameterMm > best.diameterMm ? hole : best));
      const source = await storedViewBox(board!.top!);
      expect(await alphaAt(top!.getImage()!, source, largest.xMm, largest.yMm)).toBe(0);
      expect(await alphaAt(top!.getImage()!, source, largest.xMm + largest.diameterMm * 2, largest.yMm)).toBe(255);
    });
  }
});

/** The render's frame in Gerber mm, read from its stored SVG (thousandths of its unit). */
async function storedViewBox(url: string): Promise<[number, number, number, number]> {
  const svg = (await readStoredBytes(url.replace(/^\/files\//, '')))!.toString();
  const box = /viewBox="([^"]+)"/.exec(svg)![1]!.split(/[\s,]+/).map(Number);
  const scale = /width="[\d.]+in"/.test(svg) ? 25.4 / 1000 : 1 / 1000;
  return box.map((value) => value * scale) as [number, number, number, number];
}

describe('boards rendered before facts and models existed', () => {
  const run = promisify(execFile);
  /** `npm run ops -- …` against this file's database, as an operator types it. */
  const ops = (...args: string[]) => run(process.execPath, ['scripts/ops.ts', ...args], { env: { ...process.env } });

  it('get them from `npm run ops -- eda:refresh`, rendered again in the queue', { timeout: 180_000 }, async () => {
    const { user } = await createUser();
    const id = await publishWithFiles(user.id, loadBoard('altium-bga24'), 'An old board');
    const [rendered] = (await waitForBoard(id, user.id)).boards;
    // As an older site left it: ready, with renders, but no facts and no model.
    await getDb().update(boards).set({ facts: null, modelKey: null, modelBytes: null, modelRawBytes: null }).where(eq(boards.id, rendered!.id));
    await getStorage().delete(rendered!.model!.url.replace(/^\/files\//, ''));
    expect((await getEdaDetail(id, user.id)).boards[0]).toMatchObject({ status: 'ready', facts: null, model: null });

    const { stdout } = await ops('eda:refresh');
    expect(stdout).toMatch(/^1 board queued to render again\./m);
    const until = Date.now() + 120_000;
    let board = (await getEdaDetail(id, user.id)).boards[0]!;
    while (!(board.status === 'ready' && board.model) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      board = (await getEdaDetail(id, user.id)).boards[0]!;
    }
    expect(board).toMatchObject({ id: rendered!.id, status: 'ready', facts: { copperLayers: 2, holes: 11 }, model: { url: rendered!.model!.url } });
    expect((await readStoredBytes(board.model!.url.replace(/^\/files\//, '')))!.length).toBe(board.model!.bytes);

    // Nothing is left to refresh: the next run queues none.
    expect((await ops('eda:refresh')).stdout).toMatch(/^0 boards queued to render again\./m);
  });
});
