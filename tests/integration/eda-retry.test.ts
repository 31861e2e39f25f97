import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_FIXTURES, zipBoard } from '../helpers/board-fixtures.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { until } from '../helpers/worker-process.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { attachments, boards } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { saveProject, saveProjectSchema } from '../../src/server/services/projects/index.ts';
import { storeUpload } from '../../src/server/services/media/index.ts';
import { getStorage } from '../../src/server/storage/index.ts';

/**
 * A board job that crashes — the renderer or the storage breaking in a way the files do not
 * explain — is run once more by the queue before the board fails; a verdict on the files fails it
 * at once. The crash here is real: the stored Gerber zip is replaced by a folder, so reading it
 * throws (EISDIR), as a failing disk would.
 */
useTestDatabase();

beforeAll(() => createTag('power'));
afterAll(() => stopJobWorkers());

async function publish(name: string, bytes: Uint8Array): Promise<{ boardId: number; storedAt: string }> {
  const { user } = await createUser();
  const upload = await storeUpload(user.id, 'attachment', { name, bytes });
  await saveProject(
    user.id,
    parseInput(saveProjectSchema, { title: 'Retry board', summary: 's', description: 'd', tags: ['power'], licence: 'MIT', attachments: [upload.id], publish: true }),
  );
  const board = (await latestBoard())!;
  const [file] = await getDb().select({ storageKey: attachments.storageKey }).from(attachments).where(eq(attachments.id, board.sources[0]!));
  const storage = getStorage();
  // The failure is made on the disk: the filesystem driver's file turned into a folder.
  if (storage.driver !== 'filesystem') throw new Error('eda-retry breaks a file of the filesystem driver');
  return { boardId: board.id, storedAt: storage.localFile(file!.storageKey) };
}

async function latestBoard() {
  const rows = await getDb().select().from(boards).orderBy(boards.id);
  return rows.at(-1);
}

/** The stored file becomes an unreadable folder (the bytes are kept to put back). */
function breakStoredFile(file: string): Buffer {
  const bytes = readFileSync(file);
  rmSync(file);
  mkdirSync(file);
  return bytes;
}

describe('a board job that crashes', () => {
  it('is retried once by the queue, and the retry renders the board', async () => {
    const { boardId, storedAt } = await publish('sangaboard.zip', await zipBoard('kicad-sanga04'));
    const bytes = breakStoredFile(storedAt);
    await startJobWorkers();
    // the first start crashed: the board waits in the queue again rather than failing
    const waiting = await until(latestBoard, (row) => row?.attempts === 1 && row.status === 'queued', 30_000);
    expect(waiting).toMatchObject({ id: boardId, status: 'queued', errorKey: null });
    rmSync(storedAt, { recursive: true });
    writeFileSync(storedAt, bytes);
    const done = await until(latestBoard, (row) => row?.status === 'ready' || row?.status === 'failed', 60_000);
    expect(done).toMatchObject({ id: boardId, status: 'ready', attempts: 2, layerCount: 2 });
  }, 120_000);

  it('fails the board as render_failed when the crash happens again', async () => {
    const { boardId, storedAt } = await publish('adapter.zip', await zipBoard('altium-bga24'));
    breakStoredFile(storedAt);
    await startJobWorkers();
    const done = await until(latestBoard, (row) => row?.id === boardId && row.status === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'failed', errorKey: 'render_failed', errorFile: null, attempts: 2 });
  }, 120_000);

  it('is not confused with a verdict on the files: a set without an outline fails on its first start', async () => {
    const copper = readFileSync(path.join(BOARD_FIXTURES, 'kicad-sanga04/sangaboard_v0.4-F_Cu.gtl'));
    const { boardId } = await publish('sangaboard_v0.4-F_Cu.gtl', new Uint8Array(copper));
    await startJobWorkers();
    const done = await until(latestBoard, (row) => row?.id === boardId && row.status === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'failed', errorKey: 'no_outline', attempts: 1 });
  }, 120_000);
});
