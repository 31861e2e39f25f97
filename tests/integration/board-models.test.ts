import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KICAD_SOURCES, outlineOf, zipProject } from '../helpers/kicad-sources.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { publishWithFiles } from '../helpers/publish.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { measureBoardModel } from '../../src/server/electronics/board-model.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { getEdaDetail } from '../../src/server/services/eda/index.ts';
import { readStoredBytes } from '../../src/server/storage/index.ts';
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
