/**
 * The job workers of this process: what each job kind runs, and the sweep that sends jobs for
 * work left without one. Started by the server entry (or alone, for a worker-only process).
 */
import { generateImageVariants } from '../media/image-variants.ts';
import { processBoardJob, processDocumentsJob, resumePendingEda } from '../services/eda/index.ts';
import { processVideoJob, resumePendingVideos } from '../services/media/index.ts';
import { processMailJob } from '../services/accounts/index.ts';
import { sendDailyDigests, announceActivities } from '../services/notifications/index.ts';
import { fanOutActivities, hasPendingActivities } from '../services/community/index.ts';
import { IMAGE_BATCH, scheduleJob, stopQueue, workJobs } from './queue.ts';
import { log } from '../log.ts';

/** How often pending work without a job is looked for. */
const SWEEP_MS = 60_000;

let sweep: NodeJS.Timeout | undefined;
let started = false;

/**
 * Starts the workers: `boardConcurrency` boards render at once (each in its own worker thread),
 * BOMs are read two at a time, videos and image variants one at a time, account email two at a
 * time, followers' feeds one fan-out at a time, and the daily digest is scheduled. Pending work from before a restart is sent again at once.
 */
export async function startJobWorkers(options: { boardConcurrency?: number } = {}): Promise<void> {
  if (started) return;
  started = true;
  await workJobs('board', options.boardConcurrency ?? 1, async (data) => {
    if (typeof data.boardId === 'number') await processBoardJob(data.boardId);
  });
  await workJobs('documents', 2, async (data) => {
    if (typeof data.projectId === 'number') await processDocumentsJob(data.projectId);
  });
  // One video at a time: ffmpeg already uses its own threads (at a lowered priority).
  await workJobs('video', 1, async (data) => {
    if (typeof data.videoId === 'string') await processVideoJob(data.videoId);
  });
  // One image at a time (sharp encodes on libuv's thread pool, which the site's requests share),
  // a few taken at once so a backlog runs without a pause between images.
  await workJobs(
    'imageVariants',
    1,
    async (data) => {
      if (typeof data.key === 'string') await generateImageVariants(data.key);
    },
    { batchSize: IMAGE_BATCH },
  );
  // Account email two at a time: an SMTP server answers in well under a second.
  await workJobs('mail', 2, async (data) => {
    await processMailJob(data);
  });
  await workJobs('digest', 1, async () => {
    await sendDailyDigests();
  });
  await scheduleJob('digest', '0 8 * * *');
  // One fan-out at a time: each takes every pending activity, batch after batch.
  await workJobs('feed', 1, async () => {
    await fanOutActivities();
  });
  const resumeFeed = async () => {
    if (await hasPendingActivities()) await announceActivities();
  };
  const resume = () => Promise.all([resumePendingEda(), resumePendingVideos(), resumeFeed()]).catch((error: unknown) => log.error({ component: 'jobs', err: error }, 'resume failed'));
  await resume();
  sweep = setInterval(() => void resume(), SWEEP_MS);
  sweep.unref();
}

/** Stops taking jobs, lets the ones in hand finish (up to pg-boss's timeout), and disconnects. */
export async function stopJobWorkers(): Promise<void> {
  clearInterval(sweep);
  sweep = undefined;
  started = false;
  await stopQueue();
}
