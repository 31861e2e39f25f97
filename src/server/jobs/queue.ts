/**
 * The durable job queue: pg-boss in the site's own PostgreSQL (schema `pgboss`). Heavy work —
 * rendering boards, reading BOMs, processing videos, resizing images — is sent here by the
 * request that stores the files and done by the workers the server entry starts, so a request
 * answers at once and a restart loses nothing: a job whose worker died stops sending heartbeats
 * and pg-boss hands it out again.
 */
import { PgBoss, type Job, type JobResult } from 'pg-boss';
import { IMAGE_VARIANTS_TIME_LIMIT_MS, VIDEO_JOB_MAX_MS } from '../media/limits.ts';
import { log } from '../log.ts';

/** Image jobs a worker takes at once: it fetches again at once while batches come back full. */
export const IMAGE_BATCH = 4;

/** The longest a board or BOM job may run before pg-boss gives it to another worker. */
const EDA_EXPIRE_SECONDS = 30 * 60;
/**
 * A video job may run as long as ffprobe's and ffmpeg's limits for the longest allowed video add
 * up to (`media/limits.ts`), and a minute more: expiring sooner would start a second transcode of
 * the same video beside one still running.
 */
export const VIDEO_EXPIRE_SECONDS = Math.ceil(VIDEO_JOB_MAX_MS / 1000) + 60;

/** Every job kind, with how it is retried. */
export const JOBS = {
  /** Renders one board (`{ boardId }`). A crash is retried once; the handler fails a board on its third start. */
  board: { name: 'eda.board', retryLimit: 2, expireInSeconds: EDA_EXPIRE_SECONDS },
  /** Reads a project's BOM and pick-and-place files (`{ projectId }`). */
  documents: { name: 'eda.documents', retryLimit: 2, expireInSeconds: EDA_EXPIRE_SECONDS },
  /** Probes a video and prepares it for the web (`{ videoId }`); like boards, failed on its third start. */
  video: { name: 'video.process', retryLimit: 2, expireInSeconds: VIDEO_EXPIRE_SECONDS },
  /**
   * Makes the AVIF and WebP variants of a stored image (`{ key }`). Taken `IMAGE_BATCH` at a time
   * (the seed and a page of old pictures send dozens at once), so each may run the whole batch's
   * time limits before it expires.
   */
  imageVariants: { name: 'image.variants', retryLimit: 2, expireInSeconds: Math.ceil((IMAGE_BATCH * IMAGE_VARIANTS_TIME_LIMIT_MS) / 1000) + 60 },
  /**
   * One account email (`{ purpose, userId, origin, newEmail? }`): the job mints the link's token
   * itself, so no usable token ever sits in the queue's tables. Retried while the SMTP server
   * refuses; one waiting per member and purpose (asking again while one waits sends one mail).
   */
  mail: { name: 'mail.send', retryLimit: 5, expireInSeconds: 120 },
  /** The daily notification digest of every member (`{}`), scheduled at 08:00 UTC; at most one mail per member and day. */
  digest: { name: 'mail.digest', retryLimit: 3, expireInSeconds: 30 * 60 },
  /** Delivers recorded activities (`activities` not yet fanned out) to followers' feeds and messages (`{}`). */
  feed: { name: 'feed.fanout', retryLimit: 5, expireInSeconds: 10 * 60 },
} as const;
export type JobKind = keyof typeof JOBS;

/** A job's handler gets its data; what it throws is logged and retried by pg-boss. */
export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

/** Seconds between a worker's heartbeats; a job silent for this long is retried elsewhere. */
const HEARTBEAT_SECONDS = 10;

/**
 * One queue per process: the server entry (run from source) and the built site (bundled by
 * Astro) each load this module, so its state lives on `globalThis`, not in a module variable.
 */
interface QueueState {
  boss?: PgBoss;
  starting?: Promise<PgBoss>;
}
const state: QueueState = ((globalThis as { [key: symbol]: QueueState })[Symbol.for('copperhub.jobQueue')] ??= {});

function createBoss(): PgBoss {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is not set: start the database first');
  const instance = new PgBoss({
    connectionString,
    schema: 'pgboss',
    max: 3,
    // A crashed worker's jobs are found within seconds, not the default minute.
    superviseIntervalSeconds: HEARTBEAT_SECONDS,
    monitorIntervalSeconds: HEARTBEAT_SECONDS,
    application_name: 'copperhub-jobs',
  });
  instance.on('error', (error: Error) => log.error({ component: 'jobs', err: error }, 'queue error'));
  return instance;
}

/** The started queue of this process (created, migrated and its queues declared on first use). */
export async function getQueue(): Promise<PgBoss> {
  if (state.boss) return state.boss;
  state.starting ??= (async () => {
    const instance = createBoss();
    await instance.start();
    for (const job of Object.values(JOBS)) {
      const settings = {
        retryLimit: job.retryLimit,
        retryDelay: 1,
        expireInSeconds: job.expireInSeconds,
        heartbeatSeconds: HEARTBEAT_SECONDS,
        deleteAfterSeconds: 7 * 24 * 3600,
      };
      // One waiting and one running job per key: a second send while one waits is dropped.
      await instance.createQueue(job.name, { policy: 'stately', ...settings });
      // createQueue leaves a queue that exists as it was: one made by an earlier version takes
      // today's limits (a video's expiry follows the longest video allowed).
      await instance.updateQueue(job.name, settings);
    }
    state.boss = instance;
    return instance;
  })().catch((error: unknown) => {
    state.starting = undefined;
    throw error;
  });
  return state.starting;
}

/**
 * Sends a job. `key` makes a second send of the same work while one is still waiting a no-op
 * (editing a project twice in a row renders its board once). Jobs of higher `priority` are taken
 * first (default 0).
 */
export async function sendJob(kind: JobKind, data: Record<string, unknown>, key: string, options: { priority?: number } = {}): Promise<void> {
  const queue = await getQueue();
  await queue.send(JOBS[kind].name, data, { singletonKey: key, priority: options.priority ?? 0 });
}

/**
 * Sends a job of `kind` on the cron expression `cron` (UTC), from whichever process runs the
 * workers; pg-boss keeps one schedule per queue, so every restart simply writes it again.
 */
export async function scheduleJob(kind: JobKind, cron: string): Promise<void> {
  const queue = await getQueue();
  await queue.schedule(JOBS[kind].name, cron, {}, { tz: 'UTC' });
}

/**
 * Runs `handler` for every job of `kind`, `concurrency` at a time in this process. A worker asks
 * for a job every 2 seconds at most (a job done sooner waits out the rest); with `batchSize` above
 * 1 it takes that many at once, runs them one after the other (each failing or succeeding on its
 * own) and asks again at once while the queue hands out full batches, so a backlog of quick jobs
 * does not wait 2 seconds each.
 */
export async function workJobs(kind: JobKind, concurrency: number, handler: JobHandler, options: { batchSize?: number } = {}): Promise<void> {
  const queue = await getQueue();
  const batchSize = options.batchSize ?? 1;
  if (batchSize === 1) {
    await queue.work<Record<string, unknown>>(
      JOBS[kind].name,
      { localConcurrency: concurrency, batchSize: 1, pollingIntervalSeconds: 2 },
      async (jobs: Job<Record<string, unknown>>[]) => {
        for (const job of jobs) await handler(job.data ?? {});
      },
    );
    return;
  }
  await queue.work<Record<string, unknown>>(
    JOBS[kind].name,
    { localConcurrency: concurrency, batchSize, pollingIntervalSeconds: 2, burstWhenBatchFull: true, perJobResults: true },
    async (jobs: Job<Record<string, unknown>>[]) => {
      const results: JobResult[] = [];
      for (const job of jobs) {
        try {
          await handler(job.data ?? {});
          results.push({ id: job.id, status: 'completed' });
        } catch (error) {
          log.error({ component: 'jobs', queue: JOBS[kind].name, err: error }, 'job failed');
          results.push({ id: job.id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } });
        }
      }
      return results;
    },
  );
}

/** Whether this process has the queue started (and not stopped). */
export function isQueueRunning(): boolean {
  return Boolean(state.boss);
}

/**
 * Each queue's counts as pg-boss last measured them (its monitor refreshes them every few
 * seconds), or null when this process has no queue started: a scrape never starts one.
 */
export async function getQueueStats(): Promise<Array<{ name: string; queuedCount: number; activeCount: number; failedCount: number }> | null> {
  if (!state.boss) return null;
  return state.boss.getQueues(Object.values(JOBS).map((job) => job.name));
}

/** Stops this process's workers (waiting for jobs in hand) and closes the queue's connections. */
export async function stopQueue(): Promise<void> {
  const instance = state.boss ?? (state.starting ? await state.starting.catch(() => undefined) : undefined);
  state.boss = undefined;
  state.starting = undefined;
  await instance?.stop({ graceful: true, timeout: 10_000 }).catch(() => undefined);
}
