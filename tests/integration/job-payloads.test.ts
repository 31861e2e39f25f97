import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipBoard } from '../helpers/board-fixtures.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { until } from '../helpers/worker-process.ts';
import { getDb } from '../../src/server/db/client.ts';
import { boards } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { getQueue, JOBS } from '../../src/server/jobs/queue.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { variantKey } from '../../src/server/media/image-variants.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { queueImageVariants, storeUpload } from '../../src/server/services/media/index.ts';
import { saveProject, saveProjectSchema } from '../../src/server/services/projects/index.ts';
import { getStorage } from '../../src/server/storage/index.ts';

/**
 * A job whose data its kind's schema refuses — sent by an older version, by hand, or by a bug —
 * ends `failed` at once with the schema's issues as its output, without the retries a crash
 * gets, and the kind's next good job runs as ever. `sendJob`'s types forbid such data, so it is
 * sent through pg-boss directly.
 */
useTestDatabase();

beforeAll(() => createTag('power'));
afterAll(() => stopJobWorkers());

/** Sends `data` as a job of `kind` straight through pg-boss, as anything but `sendJob` could. */
async function sendRaw(kind: keyof typeof JOBS, data: object): Promise<string> {
  const id = await (await getQueue()).send(JOBS[kind].name, data);
  if (!id) throw new Error('pg-boss took no job');
  return id;
}

async function jobOf(kind: keyof typeof JOBS, id: string) {
  const [job] = await (await getQueue()).findJobs<unknown>(JOBS[kind].name, { id });
  return job ?? null;
}

describe('a job whose payload does not parse', () => {
  it('fails a board job at once with the reason, and the next board still renders', async () => {
    const bad = await sendRaw('board', { boardId: 'x' });
    const { user } = await createUser();
    const upload = await storeUpload(user.id, 'attachment', { name: 'sangaboard.zip', bytes: await zipBoard('kicad-sanga04') });
    await saveProject(
      user.id,
      parseInput(saveProjectSchema, { title: 'Good board', summary: 's', description: 'd', tags: ['power'], licence: 'MIT', attachments: [upload.id], publish: true }),
    );
    const [queued] = await getDb().select().from(boards);
    expect(queued).toMatchObject({ status: 'queued' });
    await startJobWorkers();

    const failed = await until(() => jobOf('board', bad), (job) => job?.state === 'failed', 30_000);
    expect(failed).toMatchObject({ state: 'failed', retryCount: 0 });
    expect(failed!.output).toMatchObject({
      message: "payload does not match the board job's schema",
      issues: [{ path: ['boardId'], code: 'invalid_type', expected: 'number' }],
    });

    const rendered = await until(
      async () => (await getDb().select().from(boards).where(eq(boards.id, queued!.id)))[0],
      (row) => row?.status === 'ready' || row?.status === 'failed',
      60_000,
    );
    expect(rendered).toMatchObject({ status: 'ready', layerCount: 2, attempts: 1 });
    // The render took seconds, many times the queue's retry delay: the refused job was not tried again.
    expect(await jobOf('board', bad)).toMatchObject({ state: 'failed', retryCount: 0 });
  }, 120_000);

  it('fails an image variants job alone in its batch, and the batch’s good job makes its variants', async () => {
    const id = newPublicId(16);
    const key = `images/${id.slice(0, 2)}/${id}.webp`;
    await getStorage().put(key, await sharp({ create: { width: 640, height: 480, channels: 3, background: '#0f5a2a' } }).webp().toBuffer());
    // Both wait before the worker's first fetch, so they are taken in one batch.
    await stopJobWorkers();
    const bad = await sendRaw('imageVariants', { key: 42 });
    await queueImageVariants(key);
    await startJobWorkers();

    const failed = await until(() => jobOf('imageVariants', bad), (job) => job?.state === 'failed', 30_000);
    expect(failed).toMatchObject({ state: 'failed', retryCount: 0 });
    expect(failed!.output).toMatchObject({ issues: [{ path: ['key'], code: 'invalid_type', expected: 'string' }] });
    const variant = await until(() => getStorage().size(variantKey(key, 320, 'avif')), (size) => size !== null, 60_000);
    expect(variant).toBeGreaterThan(0);
    expect(await jobOf('imageVariants', bad)).toMatchObject({ state: 'failed', retryCount: 0 });
  }, 120_000);
});
