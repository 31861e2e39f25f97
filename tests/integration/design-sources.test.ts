import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBoard, makeZip, renameInZip, zipEntryNames } from '../helpers/board-fixtures.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { KICAD_SOURCES, outlineOf, projectFiles, zipProject } from '../helpers/kicad-sources.ts';
import { publishWithFiles } from '../helpers/publish.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { designSources } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { getEdaDetail, queueWaitingSources, streamFabricationZip } from '../../src/server/services/eda/index.ts';
import { diffVersions, editProject, editProjectSchema, getProjectDetail, loadFormSource } from '../../src/server/services/projects/index.ts';
import { storeUpload } from '../../src/server/services/media/index.ts';
import type { EdaDetail } from '../../src/lib/contract/schemas/eda.ts';

/**
 * KiCad design sources from upload to everything a builder needs: a member attaches a KiCad
 * project (zipped or loose), the job queue reads it with `kicad-cli`, and `eda/detail` then has
 * its sheets, symbols, BOM, placements, checks and renders — and its board when no Gerber set is
 * attached. Facts compared against are those of `tests/fixtures/eda/SOURCES.md`, measured with
 * kicad-cli by hand.
 */
useTestDatabase();

/**
 * Each test waits for kicad-cli's stages in the real job queue: seconds alone, a minute or more
 * on a busy two-core machine.
 */
const SLOW = 240_000;

const SOURCES = KICAD_SOURCES;

const publishWith = (userId: number, files: { name: string; bytes: Uint8Array }[]) => publishWithFiles(userId, files, 'A KiCad project');

/** The detail once the source and every board are done with. */
async function waitForSource(id: string, ownerId: number, timeoutMs = 200_000): Promise<EdaDetail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const detail = await getEdaDetail(id, ownerId);
    const sourceDone = detail.source && ['ready', 'failed'].includes(detail.source.status);
    const boardsDone = detail.boards.every((board) => board.status === 'ready' || board.status === 'failed');
    if (sourceDone && boardsDone) return detail;
    if (Date.now() > until) throw new Error(`source not finished: ${JSON.stringify({ source: detail.source?.status, boards: detail.boards.map((b) => b.status) })}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

beforeAll(async () => {
  await createTag('power');
  await startJobWorkers();
});
afterAll(() => stopJobWorkers());

describe('a zipped KiCad project and nothing else', () => {
  // The four-layer Bitaxe takes its time: every stage, its 3D model (export and compression) included, then its board.
  it('becomes sheets, symbols, a BOM, placements, checks, renders and the board itself', async () => {
    const { user } = await createUser();
    const id = await publishWith(user.id, [{ name: 'bitaxe-ultra.zip', bytes: await zipProject('bitaxe-ultra-kicad7', 'bitaxe') }]);
    // Nothing is read in the request: the owner sees the source queued.
    expect((await getEdaDetail(id, user.id)).source).toMatchObject({ status: 'queued', sheets: [] });

    await waitForSource(id, user.id);
    await expect.poll(async () => (await getEdaDetail(id, user.id)).bom.source, { timeout: 120_000 }).toBe('bitaxeUltra.kicad_sch');
    const detail = await getEdaDetail(id, user.id);
    const source = detail.source!;
    expect(source).toMatchObject({ status: 'ready', kicadVersion: '7', problems: [] });
    // Five sheets, root first, each an SVG in storage with its page.
    expect(source.sheets.map((sheet) => sheet.page)).toEqual([1, 2, 3, 4, 5]);
    expect(source.sheets[0]).toMatchObject({ path: '/', name: 'bitaxeUltra' });
    expect(source.sheets.map((sheet) => sheet.path).sort()).toEqual(['/', '/BM1366/', '/ESP32/', '/Fan/', '/Power/']);
    for (const sheet of source.sheets) {
      expect(sheet.svg).toMatch(/^\/files\/sources\//);
      expect(sheet.widthMm).toBeGreaterThan(100);
    }
    // The BOM is the schematic's own: every BOM line's parts are symbols of the schematic.
    const refs = new Set(source.symbols.map((symbol) => symbol.ref));
    expect(detail.bom.source).toBe('bitaxeUltra.kicad_sch');
    // Grouped as KiCad groups identical parts: 46 lines for the 87 placed parts.
    expect(detail.bom.lines.length).toBe(46);
    expect(detail.bom.lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(87);
    for (const line of detail.bom.lines) for (const designator of line.designators) expect(refs.has(designator)).toBe(true);
    // Symbols sit on their sheets.
    for (const symbol of source.symbols) {
      const sheet = source.sheets.find((candidate) => candidate.page === symbol.sheet)!;
      expect(symbol.xMm).toBeGreaterThanOrEqual(0);
      expect(symbol.xMm).toBeLessThanOrEqual(sheet.widthMm);
      expect(symbol.yMm).toBeLessThanOrEqual(sheet.heightMm);
    }
    // Design checks as kicad-cli reports them (SOURCES.md): DRC with parity 3 errors and 2 warnings, ERC 37 and 770.
    expect(source.checks.drc).toMatchObject({ errors: 3, warnings: 2 });
    expect(source.checks.erc).toMatchObject({ errors: 37, warnings: 770 });
    expect(source.checks.drc!.byType).toMatchObject({ footprint_type_mismatch: 3 });
    expect(source.renders.top).toMatch(/^\/files\/images\//);
    expect(source.renders.bottom).toMatch(/^\/files\/images\//);

    // The board comes from the source's own Gerbers (rendered once the source is read): four copper layers, the outline's size.
    await expect.poll(async () => (await getEdaDetail(id, user.id)).boards.map((board) => board.status), { timeout: 120_000 }).toEqual(['ready']);
    Object.assign(detail, await getEdaDetail(id, user.id));
    expect(detail.boards).toHaveLength(1);
    const [board] = detail.boards;
    expect(board).toMatchObject({ status: 'ready', layerCount: 4 });
    const outline = outlineOf(readFileSync(path.join(SOURCES, 'bitaxe-ultra-kicad7/bitaxeUltra.kicad_pcb'), 'utf8'));
    // The render's frame is the outline's, widened by its line (0.1–0.15 mm) at most.
    expect(Math.abs(board!.widthMm! - outline.widthMm)).toBeLessThan(0.3);
    expect(Math.abs(board!.heightMm! - outline.heightMm)).toBeLessThan(0.3);
    // Placements from the board put the BOM's parts on it.
    expect(detail.placements.length).toBeGreaterThan(50);
    for (const part of detail.placements) {
      expect(part.xMm).toBeGreaterThan(-2);
      expect(part.xMm).toBeLessThan(board!.widthMm! + 2);
    }
    // DRC items are placed on the board.
    const located = source.checks.drc!.items.filter((item) => item.xMm !== null);
    expect(located.length).toBeGreaterThan(0);
    for (const item of located) expect(item.xMm!).toBeLessThan(board!.widthMm! + 5);

    // A builder orders from the Gerbers kicad-cli wrote: listed with the fabrication files and in their zip.
    expect(detail.fabrication).toMatchObject([{ name: 'bitaxeUltra-gerbers.zip', kind: 'gerber' }]);
    const fabrication = await streamFabricationZip(id);
    const chunks: Buffer[] = [];
    for await (const chunk of fabrication.stream) chunks.push(chunk as Buffer);
    expect(await zipEntryNames(new Uint8Array(Buffer.concat(chunks)))).toEqual(['bitaxeUltra-gerbers.zip']);

    // With no cover, the render is the project's picture.
    const project = await getProjectDetail(id, null, 'en-US');
    expect(project.cover).toBe(source.renders.top);
  }, SLOW);
});

describe('loose KiCad files beside an attached Gerber set and no BOM file', () => {
  it('keep the attached board and give the schematic, the BOM and the checks', async () => {
    const { user } = await createUser();
    const gerbers = loadBoard('kicad-rrf');
    const id = await publishWith(user.id, [...gerbers, ...projectFiles('rrf-kicad6').filter((file) => file.name !== 'LICENSE')]);
    await waitForSource(id, user.id);
    // The BOM is read from the source once it is ready (the documents job runs after the source's).
    await expect.poll(async () => (await getEdaDetail(id, user.id)).bom.source, { timeout: 120_000 }).toBe('rrf_rpi_skr_adapter.kicad_sch');
    const detail = await getEdaDetail(id, user.id);
    expect(detail.source).toMatchObject({ status: 'ready', kicadVersion: '6', name: 'rrf_rpi_skr_adapter' });
    expect(detail.source!.sheets).toHaveLength(1);
    // The member's own Gerbers stay the board (one board, from the attached files).
    expect(detail.boards).toHaveLength(1);
    expect(detail.fabrication.filter((file) => file.kind === 'gerber').length).toBe(gerbers.length);
    expect(detail.bom.source).toBe('rrf_rpi_skr_adapter.kicad_sch');
    expect(detail.bom.lines.length).toBe(3);
    expect(detail.bom.lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(7);
    expect(detail.source!.checks.drc).toMatchObject({ errors: 0, warnings: 24 });
    expect(detail.source!.checks.erc).toMatchObject({ errors: 1, warnings: 25 });
  }, SLOW);
});

describe('sources that cannot be read', () => {
  it('a board saved by a newer KiCad says which', async () => {
    const { user } = await createUser();
    const pcb = readFileSync(path.join(SOURCES, 'primecam-bias-kicad9/primecamLNABiasPotVreg_2ch.kicad_pcb'), 'utf8')
      .replace(/\(version \d+\)/, '(version 20260301)')
      .replace(/\(generator_version "[^"]*"\)/, '(generator_version "10.0")');
    const id = await publishWith(user.id, [{ name: 'future.kicad_pcb', bytes: new TextEncoder().encode(pcb) }]);
    const detail = await waitForSource(id, user.id);
    expect(detail.source).toMatchObject({ status: 'failed', errorKey: 'too_new', kicadVersion: '10' });
    // Guests see a failed source too: it explains why there is no schematic.
    expect((await getEdaDetail(id, null)).source).toMatchObject({ status: 'failed', errorKey: 'too_new' });
  }, SLOW);

  it('a zip whose entries leave the folder fails as unsafe, writing nothing outside the scratch folder', async () => {
    const { user } = await createUser();
    const zip = await makeZip([
      { name: 'proj/a.kicad_pro', bytes: readFileSync(path.join(SOURCES, 'rrf-kicad6/rrf_rpi_skr_adapter.kicad_pro')) },
      { name: 'xx/evil.kicad_sch', bytes: new TextEncoder().encode('(kicad_sch (version 20211123))') },
    ]);
    const id = await publishWith(user.id, [{ name: 'evil.zip', bytes: renameInZip(zip, 'xx/evil.kicad_sch', '../evil.kicad_sch') }]);
    const detail = await waitForSource(id, user.id);
    expect(detail.source).toMatchObject({ status: 'failed', errorKey: 'unsafe_archive' });
  }, SLOW);

  it('a sheet naming a file outside the project fails, and the site goes on serving', async () => {
    const { user } = await createUser();
    const root = `(kicad_sch (version 20231120) (generator "eeschema") (generator_version "8.0")
  (uuid "0c9e4a4e-5d3a-4a8e-9d8c-1f1e1f1e1f1e") (paper "A4")
  (sheet (at 50 50) (size 30 20) (uuid "1d9e4a4e-5d3a-4a8e-9d8c-1f1e1f1e1f1e")
    (property "Sheetname" "Secrets" (at 50 49 0))
    (property "Sheetfile" "../../../../etc/passwd" (at 50 71 0))))`;
    const id = await publishWith(user.id, [{ name: 'sneaky.zip', bytes: await makeZip([{ name: 'sneaky/sneaky.kicad_sch', bytes: new TextEncoder().encode(root) }]) }]);
    const detail = await waitForSource(id, user.id);
    expect(detail.source).toMatchObject({ status: 'failed', errorKey: 'path_outside' });
    expect((await getEdaDetail(id, null)).source).toMatchObject({ status: 'failed', errorKey: 'path_outside', sheets: [] });
  }, SLOW);
});

describe('a KiCad 9 project whose DRC with schematic parity crashes kicad-cli', () => {
  it('still gets its DRC (without parity) and everything else', async () => {
    const { user } = await createUser();
    const id = await publishWith(user.id, [{ name: 'primecam.zip', bytes: await zipProject('primecam-bias-kicad9', 'board') }]);
    const detail = await waitForSource(id, user.id);
    expect(detail.source).toMatchObject({ status: 'ready', kicadVersion: '9', problems: [] });
    expect(detail.source!.sheets).toHaveLength(3);
    expect(detail.source!.checks.drc).not.toBeNull();
    expect(detail.source!.checks.erc).toMatchObject({ errors: 14, warnings: 104 });
    await expect.poll(async () => (await getEdaDetail(id, user.id)).boards.map((board) => board.status), { timeout: 120_000 }).toEqual(['ready']);
    expect((await getEdaDetail(id, user.id)).boards).toMatchObject([{ status: 'ready', layerCount: 4 }]);
  }, SLOW);
});

describe('two versions of a design source', () => {
  it('compare sheet by sheet, the changed one marked, with both versions\' check counts', async () => {
    const { user } = await createUser();
    const files = projectFiles('rrf-kicad6').filter((file) => file.name !== 'LICENSE');
    const id = await publishWith(user.id, files);
    await waitForSource(id, user.id);
    // Version 2: one resistor's value changed on the (only) sheet.
    const sheetName = 'rrf_rpi_skr_adapter.kicad_sch';
    const changed = new TextDecoder().decode(files.find((file) => file.name === sheetName)!.bytes).replace('(property "Value" "100" (id 1)', '(property "Value" "220" (id 1)');
    const form = await loadFormSource(user.id, { projectId: id });
    const kept = form.files.filter((file) => file.name !== sheetName).map((file) => file.id);
    const added = await storeUpload(user.id, 'attachment', { name: sheetName, bytes: new TextEncoder().encode(changed) });
    await editProject(
      user.id,
      parseInput(editProjectSchema, {
        id,
        title: 'A KiCad project',
        summary: 'Shared as its design source',
        description: 'A board.',
        tags: ['power'],
        licence: 'CERN-OHL-S-2.0',
        attachments: [...kept, added.id],
        publish: true,
        version: { name: 'v2', notes: 'R1 is 220 Ω' },
      }),
    );
    expect((await diffVersions(id, null, 'v1', 'v2')).source).toMatchObject({ status: 'pending' });
    await waitForSource(id, user.id);
    const diff = await diffVersions(id, null, 'v1', 'v2');
    expect(diff.source).toMatchObject({
      status: 'ready',
      sheets: [{ path: '/', name: 'rrf_rpi_skr_adapter', status: 'changed' }],
      checks: { before: { erc: { errors: 1, warnings: 25 } }, after: { erc: { errors: 1, warnings: 25 } } },
    });
    const [sheet] = diff.source!.sheets;
    expect(sheet!.before).not.toBe(sheet!.after);
    // Version 1 keeps its own source: the project's is the new one.
    expect((await getEdaDetail(id, null)).source!.sheets[0]!.svg).toBe(sheet!.after);
  }, SLOW);
});

describe('a site without kicad-cli', () => {
  it('keeps the source waiting, and reads it once an operator queues the waiting sources', async () => {
    const { user } = await createUser();
    const saved = process.env.KICAD_CLI_PATH;
    process.env.KICAD_CLI_PATH = '/nonexistent/kicad-cli';
    let id: string;
    try {
      id = await publishWith(user.id, [{ name: 'rrf.zip', bytes: await zipProject('rrf-kicad6') }]);
      expect((await getEdaDetail(id, user.id)).source).toMatchObject({ status: 'waiting' });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await getEdaDetail(id, user.id)).source).toMatchObject({ status: 'waiting' });
    } finally {
      if (saved === undefined) delete process.env.KICAD_CLI_PATH;
      else process.env.KICAD_CLI_PATH = saved;
    }
    expect(await queueWaitingSources()).toBeGreaterThanOrEqual(1);
    const detail = await waitForSource(id, user.id);
    expect(detail.source).toMatchObject({ status: 'ready', kicadVersion: '6' });
    const rows = await getDb().select().from(designSources).where(eq(designSources.status, 'waiting'));
    expect(rows).toEqual([]);
  }, SLOW);
});
