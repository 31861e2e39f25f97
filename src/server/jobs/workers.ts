/**
 * The job workers of this process: every job kind of `kinds/index.ts` worked as its file says,
 * and the sweep that sends jobs for work left without one. Started by the server entry (or
 * alone, for a worker-only process).
 */
import { resumePendingEda } from '../services/eda/index.ts';
import { resumePendingVideos } from '../services/media/index.ts';
import { announceActivities } from '../services/notifications/index.ts';
import { hasPendingActivities } from '../services/community/index.ts';
import { JOB_KINDS } from './kinds/index.ts';
import { scheduleJob, stopQueue, workJobs } from './queue.ts';
import { log } from '../log.ts';

/** How often pending work without a job is looked for. */
const SWEEP_MS = 60_000;

let sweep: NodeJS.Timeout | undefined;
let started = false;

/**
 * Starts the workers of every job kind, each with its kind's concurrency and batch size (boards
 * `boardConcurrency` at a time, each in its own worker thread), and writes the kinds' schedules
 * (the daily digest). Pending work from before a restart is sent again at once.
 */
export async function startJobWorkers(options: { boardConcurrency?: number } = {}): Promise<void> {
  if (started) return;
  started = true;
  for (const definition of Object.values(JOB_KINDS)) {
    await workJobs(definition, { concurrency: definition.kind === 'board' ? options.boardConcurrency : undefined });
    if (definition.schedule) await scheduleJob(definition.kind, definition.schedule);
  }
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
