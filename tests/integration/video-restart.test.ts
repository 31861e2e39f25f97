import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { until, useWorkerProcesses } from '../helpers/worker-process.ts';
import { createUser } from '../helpers/factories.ts';
import { write1080pMp4 } from '../helpers/videos.ts';
import { getDb } from '../../src/server/db/client.ts';
import { videos } from '../../src/server/db/schema/index.ts';
import { stopQueue } from '../../src/server/jobs/queue.ts';
import { Upload } from '@tus/server';
import { tusStore } from '../../src/server/storage/tus-store.ts';
import { claimUploadToken, issueVideoUploadToken, markUploadFinished, saveVideo } from '../../src/server/services/media/index.ts';

/**
 * A transcode interrupted by `kill -9` of its worker process is done again, from the start, by
 * the next worker that starts: the video ends `ready`, not stuck in `processing`.
 */
const database = useTestDatabase();
const startWorker = useWorkerProcesses(database.dataDir);

async function videoRow() {
  const [row] = await getDb().select().from(videos);
  return row;
}

describe('a transcode interrupted by kill -9', () => {
  it('is done again by the next worker that starts', async () => {
    const { user } = await createUser();
    // a 1080p clip is transcoded (not remuxed) to 720p: seconds of work for the kill to land in
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'copperhub-video-restart-'));
    const clip = await write1080pMp4(scratch, { seconds: 12 });
    const size = (await stat(clip)).size;
    // the bytes as the tus endpoint would have received them
    const ticket = await issueVideoUploadToken(user.id, { name: 'build.mp4', size, mime: 'video/mp4' }, 'http://localhost');
    const tusId = 'a1b2c3d4e5f6a7b8c9d0';
    await claimUploadToken(ticket.uploadToken, tusId, size);
    await tusStore().create(new Upload({ id: tusId, size, offset: 0 }));
    expect(await tusStore().write(createReadStream(clip), tusId, 0)).toBe(size);
    await markUploadFinished(tusId);
    const video = await saveVideo(user.id, { uploadToken: ticket.uploadToken, title: 'Soldering the QFN' });
    await stopQueue();
    await rm(scratch, { recursive: true, force: true });

    const first = startWorker();
    await until(videoRow, (row) => (row?.attempts ?? 0) >= 1, 60_000);
    // let ffmpeg get going, then pull the plug
    await new Promise((resolve) => setTimeout(resolve, 800));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect((await videoRow())?.status).toBe('processing');
    // its ffmpeg died with it (a parent-death signal), rather than running on unwatched
    await new Promise((resolve) => setTimeout(resolve, 300));
    // (its work folder, in ffmpeg's arguments, is named after the video)
    expect(spawnSync('pgrep', ['-f', video.id]).stdout.toString().trim()).toBe('');

    startWorker();
    const done = await until(videoRow, (row) => row?.status === 'ready' || row?.status === 'failed', 120_000);
    expect(done).toMatchObject({ status: 'ready', attempts: 2, width: 1280, height: 720 });
    expect(done!.duration).toBeCloseTo(12, 0);
  }, 240_000);
});
