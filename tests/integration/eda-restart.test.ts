import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { zipBoard } from '../helpers/board-fixtures.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { until, useWorkerProcesses } from '../helpers/worker-process.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { boards } from '../../src/server/db/schema/index.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { processBoardJob } from '../../src/server/services/eda/index.ts';
import { saveProject, saveProjectSchema } from '../../src/server/services/projects/index.ts';
import { storeUpload } from '../../src/server/services/media/index.ts';

/**
 * The queue is durable: a worker process killed with SIGKILL in the middle of a render leaves
 * its board `processing`, and the next worker to start renders it again from the beginning.
 */
const database = useTestDatabase();
const startWorker = useWorkerProcesses(database.dataDir);

async function boardRow() {
  const [row] = await getDb().select().from(boards);
  return row;
}

describe('a render interrupted by kill -9', () => {
  it('is done again by the next worker that starts', async () => {
    const { user } = await createUser();
    await createTag('gps');
    // the EAGLE board with heavy copper pours: the slowest fixture, so the kill lands mid-render
    const upload = await storeUpload(user.id, 'attachment', { name: 'snapper.zip', bytes: await zipBoard('eagle-snapper') });
    await saveProject(
      user.id,
      parseInput(saveProjectSchema, { title: 'SnapperGPS', summary: 'GNSS snapshots', description: 'Board.', tags: ['gps'], licence: 'Solderpad-2.1', attachments: [upload.id], publish: true }),
    );

    const first = startWorker();
    await until(boardRow, (row) => row?.status === 'processing', 60_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect((await boardRow())?.status).toBe('processing');

    startWorker();
    const done = await until(boardRow, (row) => row?.status === 'ready' || row?.status === 'failed', 90_000);
    expect(done).toMatchObject({ status: 'ready', attempts: 2, layerCount: 2 });
    expect(Math.abs(done!.widthMm! - 27.3)).toBeLessThan(0.2);
  }, 180_000);

  it('a board whose render killed its worker twice is failed, not retried for ever', async () => {
    const { user } = await createUser();
    const [project] = await getDb()
      .execute<{ id: number }>(
        sql`INSERT INTO projects (public_id, owner_id, title, summary, description_md, description_html, licence)
        VALUES ('crashy', ${user.id}, 't', 's', 'd', '<p>d</p>', 'MIT') RETURNING id`,
      )
      .then((result) => result.rows);
    const [board] = await getDb().insert(boards).values({ projectId: project!.id, sources: [], name: 'crashy', status: 'processing', attempts: 2 }).returning();
    await processBoardJob(board!.id);
    const [row] = await getDb().select().from(boards).where(eq(boards.id, board!.id));
    expect(row).toMatchObject({ status: 'failed', errorKey: 'render_failed', attempts: 3 });
  });
});
