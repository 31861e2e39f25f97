import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_FIXTURES, loadBoard, makeZip, zipBoard, zipEntryNames } from '../helpers/board-fixtures.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { publishWithFiles } from '../helpers/publish.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { boards } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { exportProjectBom, getEdaDetail, streamFabricationZip } from '../../src/server/services/eda/index.ts';
import { getProjectDetail, listProjects, editProject, editProjectSchema } from '../../src/server/services/projects/index.ts';
import { getStorage } from '../../src/server/storage/index.ts';
import { onPagePurge } from '../../src/server/page-cache/tags.ts';
import type { EdaDetail } from '../../src/lib/contract/schemas/eda.ts';

/**
 * Design files from upload to board: publishing answers at once with the board queued, the job
 * queue renders it in the background, and `/eda/{id}` then has the board, BOM and placements.
 */
useTestDatabase();


const publishWith = (userId: number, files: { name: string; bytes: Uint8Array }[]) => publishWithFiles(userId, files);

async function waitForBoards(id: string, ownerId: number, timeoutMs = 60_000): Promise<EdaDetail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const detail = await getEdaDetail(id, ownerId);
    if (detail.boards.length > 0 && detail.boards.every((board) => board.status === 'ready' || board.status === 'failed')) return detail;
    if (Date.now() > until) throw new Error(`boards not finished: ${JSON.stringify(detail.boards.map((b) => b.status))}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  await createTag('power');
});
afterAll(() => stopJobWorkers());

describe('a Gerber zip, a BOM and a pick-and-place file', () => {
  it('publish at once with the board queued, then render in the queue into a board, BOM and placements', async () => {
    const { user } = await createUser();
    const started = Date.now();
    const id = await publishWith(user.id, [
      { name: 'sangaboard.zip', bytes: await zipBoard('kicad-sanga04') },
      { name: 'bom_jlc.csv', bytes: readFileSync(path.join(BOARD_FIXTURES, 'bom/sanga-bom_jlc.csv')) },
      { name: 'pos_jlc.csv', bytes: readFileSync(path.join(BOARD_FIXTURES, 'placements/sangaboard-pos_jlc.csv')) },
    ]);
    // Nothing was rendered in the request: the owner sees the board queued, guests see nothing yet.
    const queued = await getEdaDetail(id, user.id);
    expect(queued.boards).toMatchObject([{ status: 'queued', top: null, widthMm: null }]);
    expect((await getEdaDetail(id, null)).boards).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);

    const purged: string[] = [];
    const stopWatching = onPagePurge((tags) => purged.push(...tags));
    await startJobWorkers();
    const detail = await waitForBoards(id, user.id);
    const [board] = detail.boards;
    // Guests' cached copies of the project's pages and of the lists with its card are dropped.
    await expect.poll(() => purged).toEqual(expect.arrayContaining([`project:${id}`, 'lists']));
    stopWatching();
    expect(board).toMatchObject({ status: 'ready', layerCount: 2, tool: 'kicad', name: 'sangaboard' });
    expect(board!.widthMm).toBeCloseTo(65, 0);
    expect(Math.abs(board!.widthMm! - 65)).toBeLessThan(0.2);
    expect(Math.abs(board!.heightMm! - 56.5)).toBeLessThan(0.2);
    expect(board!.layers.map((layer) => `${layer.side} ${layer.type}`)).toEqual(
      expect.arrayContaining(['top copper', 'bottom copper', 'top soldermask', 'top silkscreen', 'all outline']),
    );
    // the renders are files in storage
    for (const url of [board!.top, board!.bottom, board!.preview, ...board!.layers.map((layer) => layer.url)]) {
      expect(url).toMatch(/^\/files\/boards\//);
      expect(await getStorage().size(url!.slice('/files/'.length))).toBeGreaterThan(100);
    }

    // BOM: JLC columns, U3 and U4 on one line
    await waitForDocuments(id, user.id);
    const ready = await getEdaDetail(id, null);
    expect(ready.bom.source).toBe('bom_jlc.csv');
    expect(ready.bom.columns).toEqual(expect.arrayContaining(['designators', 'quantity', 'lcsc']));
    expect(ready.bom.lines.find((line) => line.designators.includes('U3'))).toMatchObject({ designators: ['U3', 'U4'], quantity: 2, lcsc: 'C7512' });
    // placements land on the board, measured from its top-left corner
    expect(ready.placements.length).toBeGreaterThan(60);
    const u1 = ready.placements.find((part) => part.designator === 'U1')!;
    expect(u1).toMatchObject({ boardId: board!.id, side: 'top' });
    for (const part of ready.placements.filter((p) => !['D2', 'R14'].includes(p.designator))) {
      expect(part.xMm).toBeGreaterThanOrEqual(-1);
      expect(part.xMm).toBeLessThanOrEqual(board!.widthMm! + 1);
      expect(part.yMm).toBeGreaterThanOrEqual(-1);
      expect(part.yMm).toBeLessThanOrEqual(board!.heightMm! + 1);
    }

    // the project shows its board; with no cover its card uses the board preview
    const project = await getProjectDetail(id, null, 'en-US');
    expect(project.boards[0]).toMatchObject({ id: board!.id, status: 'ready', preview: board!.preview });
    const card = (await listProjects({ page: 1, pageSize: 20 }, 'en-US')).list.find((item) => item.id === id);
    expect(card?.cover).toBe(board!.preview);

    // ordering export for three boards
    const jlc = await exportProjectBom(id, 'jlc', 3);
    expect(jlc.filename).toMatch(/\.csv$/);
    expect(jlc.csv).toContain('C7512');
    // fabrication zip: every fabrication file, named as uploaded
    const zip = await streamFabricationZip(id);
    const chunks: Buffer[] = [];
    for await (const chunk of zip.stream) chunks.push(chunk as Buffer);
    expect((await zipEntryNames(Buffer.concat(chunks))).sort()).toEqual(['bom_jlc.csv', 'pos_jlc.csv', 'sangaboard.zip']);
  }, 120_000);

  it('an edit that removes the Gerbers removes the board and its files', async () => {
    const { user } = await createUser();
    const id = await publishWith(user.id, [{ name: 'adapter.zip', bytes: await zipBoard('altium-bga24') }]);
    await startJobWorkers();
    const detail = await waitForBoards(id, user.id);
    const board = detail.boards[0]!;
    expect(board).toMatchObject({ status: 'ready', tool: 'altium' });
    const topKey = board.top!.slice('/files/'.length);

    await editProject(
      user.id,
      parseInput(editProjectSchema, { id, title: 'Stepper controller', summary: 'Drives three steppers', description: 'A board.', tags: ['power'], licence: 'CERN-OHL-S-2.0', attachments: [], publish: true }),
    );
    expect(await getDb().select().from(boards).where(eq(boards.id, board.id))).toEqual([]);
    expect(await getStorage().size(topKey)).toBeNull();
    expect((await getEdaDetail(id, user.id)).boards).toEqual([]);
  }, 120_000);

  it('a Gerber set without an outline fails with a reason the author can act on', async () => {
    const { user } = await createUser();
    const copper = readFileSync(path.join(BOARD_FIXTURES, 'kicad-sanga04/sangaboard_v0.4-F_Cu.gtl'));
    const id = await publishWith(user.id, [{ name: 'sangaboard_v0.4-F_Cu.gtl', bytes: copper }]);
    await startJobWorkers();
    const detail = await waitForBoards(id, user.id);
    expect(detail.boards).toMatchObject([{ status: 'failed', errorKey: 'no_outline', top: null }]);
    // others never see a failed board
    expect((await getEdaDetail(id, null)).boards).toEqual([]);
  }, 120_000);

  it('a BOM over 5 MB is not read, and the page says why', async () => {
    const { user } = await createUser();
    const row = 'R1,10k,0603,C25804\n';
    const big = Buffer.from(`Designator,Value,Footprint,LCSC\n${row.repeat(Math.ceil((5.5 * 1024 * 1024) / row.length))}`);
    const id = await publishWith(user.id, [{ name: 'huge-bom.csv', bytes: big }]);
    await startJobWorkers();
    await expect.poll(async () => (await getEdaDetail(id, null)).bom.errorKey, { timeout: 30_000, interval: 250 }).toBe('too_large');
    expect((await getEdaDetail(id, null)).bom.lines).toEqual([]);
  }, 60_000);

  it('a loose KiCad 6 four-layer set whose inner layers have unusual extensions renders with all four copper layers', async () => {
    const { user } = await createUser();
    const files = loadBoard('kicad-rrf');
    const top = Buffer.from(files.find((file) => file.name.endsWith('F_Cu.gbr'))!.bytes).toString('latin1');
    const inner = [2, 3].map((n) => ({
      name: `rrf_rpi_skr_adapter-In${n - 1}_Cu.g${n + 1}`,
      bytes: new TextEncoder().encode(top.replace('%TF.FileFunction,Copper,L1,Top*%', `%TF.FileFunction,Copper,L${n},Inr*%`)),
    }));
    const id = await publishWith(user.id, [...files, ...inner]);
    // every file is a Gerber of the one loose board: none dropped out as "other"
    const project = await getProjectDetail(id, user.id, 'en-US');
    expect(project.attachments.filter((file) => file.kind !== 'gerber').map((file) => file.name)).toEqual([]);
    await startJobWorkers();
    const detail = await waitForBoards(id, user.id);
    expect(detail.boards).toHaveLength(1);
    expect(detail.boards[0]).toMatchObject({ status: 'ready', layerCount: 4, tool: 'kicad' });
    const copper = detail.boards[0]!.layers.filter((layer) => layer.type === 'copper');
    expect(copper.map((layer) => layer.side).sort()).toEqual(['bottom', 'inner', 'inner', 'top']);
  }, 120_000);

  it("EAGLE's .mnt and .mnb together put both sides' parts on the board; a placement file that places nothing says so", async () => {
    const { user } = await createUser();
    const fixture = (name: string) => new Uint8Array(readFileSync(path.join(import.meta.dirname, '../fixtures/eda', name)));
    const id = await publishWith(user.id, [
      { name: 'snapper.zip', bytes: await zipBoard('eagle-snapper') },
      { name: 'snapper.mnt', bytes: fixture('eagle-board.mnt') },
      { name: 'snapper.mnb', bytes: fixture('eagle-board.mnb') },
      { name: 'spare-pos.csv', bytes: new TextEncoder().encode('Designator,Mid X,Mid Y,Rotation,Layer\n') },
    ]);
    await startJobWorkers();
    const [board] = (await waitForBoards(id, user.id)).boards;
    expect(board).toMatchObject({ status: 'ready', tool: 'eagle' });
    const until = Date.now() + 30_000;
    let detail = await getEdaDetail(id, null);
    while (detail.placements.length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      detail = await getEdaDetail(id, null);
    }
    // the top side from .mnt, the bottom side from .mnb, on the one board
    expect(detail.placements.map((part) => `${part.designator} ${part.side}`).sort()).toEqual(['C1 top', 'C9 bottom', 'R1 top', 'U1 top']);
    expect(new Set(detail.placements.map((part) => part.boardId))).toEqual(new Set([board!.id]));
    // the file that placed nothing is named with its reason, for the page to tell
    expect(detail.placementErrors).toEqual([{ file: 'spare-pos.csv', errorKey: 'empty' }]);
  }, 120_000);

  it('a zip cut short fails as unreadable, naming the zip the author uploaded', async () => {
    const { user } = await createUser();
    const zip = await zipBoard('kicad-rrf');
    const id = await publishWith(user.id, [{ name: 'rrf-gerbers.zip', bytes: zip.subarray(0, Math.floor(zip.byteLength * 0.6)) }]);
    await startJobWorkers();
    const detail = await waitForBoards(id, user.id);
    expect(detail.boards).toMatchObject([{ status: 'failed', errorKey: 'unreadable', errorFile: 'rrf-gerbers.zip' }]);
  }, 120_000);
});

describe("KiCad 9's own fabrication outputs", () => {
  // What `kicad-cli` 9 writes from a real board with its default options (tests/fixtures/eda/SOURCES.md):
  // one merged drill file (`MixedPlating`, `FMAT,2`, metric, decimal coordinates) and a job file
  // that calls the paste layers `SolderPaste`.
  const folder = path.resolve(import.meta.dirname, '../fixtures/eda/kicad9-rrf');
  const kicad9Files = () =>
    readdirSync(folder)
      .filter((name) => name !== 'LICENSE')
      .sort()
      .map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(folder, name))) }));
  // The set a maker attaches loose: copper, mask, silkscreen, paste, outline, the drill file and the job file.
  const fabricationSet = (name: string) => /-(F|B)_(Cu|Mask|Silkscreen|Paste)\.|-Edge_Cuts\.|\.drl$|\.gbrjob$/.test(name);

  it('render zipped and loose into the board, its holes from the merged drill file and its paste layers named as paste', async () => {
    const { user } = await createUser();
    const all = kicad9Files();
    const zipped = await publishWith(user.id, [{ name: 'rrf-kicad9.zip', bytes: await makeZip(all.map((file) => ({ name: `fab/${file.name}`, bytes: file.bytes }))) }]);
    const loose = await publishWith(user.id, all.filter((file) => fabricationSet(file.name)));
    await startJobWorkers();
    for (const id of [zipped, loose]) {
      const [board] = (await waitForBoards(id, user.id)).boards;
      expect(board).toMatchObject({ status: 'ready', layerCount: 2, tool: 'kicad' });
      // The same board as its KiCad 6 export (`kicad-rrf`): 17.53 × 13.72 mm.
      expect(Math.abs(board!.widthMm! - 17.53)).toBeLessThan(0.1);
      expect(Math.abs(board!.heightMm! - 13.72)).toBeLessThan(0.1);
      expect(board!.layers.map((layer) => `${layer.side} ${layer.type}`)).toEqual(
        expect.arrayContaining(['top copper', 'bottom copper', 'top soldermask', 'bottom soldermask', 'top solderpaste', 'bottom solderpaste', 'all outline', 'all drill']),
      );
    }
  }, 120_000);
});

async function waitForDocuments(id: string, ownerId: number): Promise<void> {
  const until = Date.now() + 30_000;
  while ((await getEdaDetail(id, ownerId)).bom.lines.length === 0) {
    if (Date.now() > until) throw new Error('BOM not read');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
