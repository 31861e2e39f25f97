/**
 * The durable job queue: pg-boss in the site's own PostgreSQL (schema `pgboss`). Heavy work —
 * rendering boards, reading BOMs, processing videos, resizing images — is sent here by the
 * request that stores the files and done by the workers the server entry starts, so a request
 * answers at once and a restart loses nothing: a job whose worker died stops sending heartbeats
 * and pg-boss hands it out again.
 */
import { PgBoss, type Job, type JobResult } from 'pg-boss';
import type { z } from 'zod';
import { IMAGE_VARIANTS_TIME_LIMIT_MS, VIDEO_JOB_MAX_MS } from '../media/limits.ts';
import { log } from '../log.ts';

/** Image jobs a worker takes at once: it fetches again at once while batches come back full. */
export const IMAGE_BATCH = 4;

/** The longest a board or BOM job may run before pg-boss gives it to another worker. */
const EDA_EXPIRE_SECONDS = 30 * 60;
/** A design source runs up to eight `kicad-cli` stages of at most two minutes each (`KICAD_LIMITS`), and stores what they made. */
const KICAD_SOURCE_EXPIRE_SECONDS = 30 * 60;
/**
 * A video job may run as long as ffprobe's and ffmpeg's limits for the longest allowed video add
 * up to (`media/limits.ts`), and a minute more: expiring sooner would start a second transcode of
 * the same video beside one still running.
 */
export const VIDEO_EXPIRE_SECONDS = Math.ceil(VIDEO_JOB_MAX_MS / 1000) + 60;

/**
 * Every job kind's queue, with how it is retried and how long a job may run. What a job carries,
 * how many run at once and what runs them is in the kind's own file (`kinds/<kind>.ts`).
 *
 * These limits stay here, apart from the kind files, because `getQueue()` declares every queue
 * with them in any process that starts the queue — one that only sends jobs (the site without
 * workers, a restore, the seed) as much as one that works them — and this module cannot import
 * the kind files: their handlers import the services, which import this module to send.
 */
export const JOBS = {
  /** Renders one board. A crash is retried once; the handler fails a board on its third start. */
  board: { name: 'eda.board', retryLimit: 2, expireInSeconds: EDA_EXPIRE_SECONDS },
  /**
   * Reads a project's KiCad design source with `kicad-cli`: Gerbers, sheets, BOM, placements,
   * checks and renders, each stage within `KICAD_LIMITS`. Like boards, failed on its third start.
   */
  kicadSource: { name: 'eda.kicad-source', retryLimit: 2, expireInSeconds: KICAD_SOURCE_EXPIRE_SECONDS },
  /** Reads a project's BOM and pick-and-place files. */
  documents: { name: 'eda.documents', retryLimit: 2, expireInSeconds: EDA_EXPIRE_SECONDS },
  /** Probes a video and prepares it for the web; like boards, failed on its third start. */
  video: { name: 'video.process', retryLimit: 2, expireInSeconds: VIDEO_EXPIRE_SECONDS },
  /**
   * Makes the AVIF and WebP variants of a stored image. Taken `IMAGE_BATCH` at a time (the seed
   * and a page of old pictures send dozens at once), so each may run the whole batch's time
   * limits before it expires.
   */
  imageVariants: { name: 'image.variants', retryLimit: 2, expireInSeconds: Math.ceil((IMAGE_BATCH * IMAGE_VARIANTS_TIME_LIMIT_MS) / 1000) + 60 },
  /** One account email: retried while the SMTP server refuses. */
  mail: { name: 'mail.send', retryLimit: 5, expireInSeconds: 120 },
  /** The daily notification digest of every member; at most one mail per member and day. */
  digest: { name: 'mail.digest', retryLimit: 3, expireInSeconds: 30 * 60 },
  /** Delivers recorded activities to followers' feeds and messages. */
  feed: { name: 'feed.fanout', retryLimit: 5, expireInSeconds: 10 * 60 },
  /** Writes again the search text of every project of a tag staff renamed, translated or merged into. */
  searchText: { name: 'search.tag-text', retryLimit: 3, expireInSeconds: 30 * 60 },
} as const;
export type JobKind = keyof typeof JOBS;

/**
 * What a job of each kind carries, one entry per kind, each added by the kind's own file from
 * its zod schema:
 *
 *     declare module '../queue.ts' { interface JobPayloads { board: z.infer<typeof boardPayload> } }
 *
 * This is TypeScript's module augmentation, chosen so that `sendJob` is typed by the kind files'
 * schemas while this module imports none of them (not even for types): a kind file imports the
 * services its handler calls, and those services import this module to send, so an import from
 * here to a kind file would close a circle. The augmentation is an edge from the kind file to
 * here only. A kind in `JOBS` whose file adds no entry can be neither sent nor worked
 * (its payload is `never`), and `kinds/index.ts` does not compile without every kind.
 */
export interface JobPayloads {}

/** The payload of a job of `K`, as its kind's schema reads it. */
export type JobPayload<K extends JobKind> = K extends keyof JobPayloads ? JobPayloads[K] : never;

/**
 * One job kind, as its file under `kinds/` defines it: what its jobs carry, how they are worked,
 * and what runs them. Its queue and retry limits are `JOBS[kind]`.
 */
export interface JobDefinition<K extends JobKind> {
  kind: K;
  /** Each job's data is parsed with this before the handler sees it; a job that does not parse fails at once. */
  payload: z.ZodType<JobPayload<K>>;
  /** Jobs of this kind run at once in one process. */
  concurrency: number;
  /** Jobs taken from the queue at once (run one after the other); 1 unless the kind says otherwise. */
  batchSize?: number;
  /** A cron expression (UTC) on which a job of this kind is sent, from whichever process runs the workers. */
  schedule?: string;
  /** Does one job's work; what it throws fails the job, and pg-boss retries it up to `JOBS[kind].retryLimit` times. */
  handle(payload: JobPayload<K>): Promise<void>;
}

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
 * Sends a job of `kind` with `payload`, typed by the kind's schema (`JobPayloads`). `key` makes a
 * second send of the same work while one is still waiting a no-op (editing a project twice in a
 * row renders its board once). Jobs of higher `priority` are taken first (default 0).
 */
export async function sendJob<K extends JobKind>(kind: K, payload: JobPayload<K>, key: string, options: { priority?: number } = {}): Promise<void> {
  const queue = await getQueue();
  await queue.send(JOBS[kind].name, payload as object, { singletonKey: key, priority: options.priority ?? 0 });
}

/**
 * Sends a job of `kind` carrying `{}` on the cron expression `cron` (UTC), from whichever process
 * runs the workers; pg-boss keeps one schedule per queue, so every restart simply writes it again.
 */
export async function scheduleJob(kind: JobKind, cron: string): Promise<void> {
  const queue = await getQueue();
  await queue.schedule(JOBS[kind].name, cron, {}, { tz: 'UTC' });
}

/** A job's data that its kind's schema refuses: logged, and stored on the failed job as its output. */
function refusePayload(kind: JobKind, job: Job<unknown>, issues: z.core.$ZodIssue[]): JobResult {
  log.error({ component: 'jobs', kind, queue: JOBS[kind].name, jobId: job.id, issues }, 'job payload refused');
  return { id: job.id, status: 'deadletter', output: { message: `payload does not match the ${kind} job's schema`, issues } };
}

/**
 * Runs the jobs of `definition.kind`, `concurrency` at a time in this process (the kind's own
 * unless given). A worker asks for a job every 2 seconds at most (a job done sooner waits out the
 * rest); with a `batchSize` above 1 it takes that many at once, runs them one after the other
 * (each failing or succeeding on its own) and asks again at once while the queue hands out full
 * batches, so a backlog of quick jobs does not wait 2 seconds each.
 *
 * Each job's data is parsed with the kind's schema first. Data that does not parse is a mistake
 * of whoever sent it, which no second try can mend: the job is failed at once, without its
 * retries (pg-boss's `deadletter` outcome; the queues have no dead letter queue, so it simply
 * ends `failed`), with the schema's issues logged and kept as the job's output.
 */
export async function workJobs<K extends JobKind>(definition: JobDefinition<K>, options: { concurrency?: number } = {}): Promise<void> {
  const queue = await getQueue();
  const { kind, payload: schema } = definition;
  const batchSize = definition.batchSize ?? 1;
  await queue.work<unknown>(
    JOBS[kind].name,
    {
      localConcurrency: options.concurrency ?? definition.concurrency,
      batchSize,
      pollingIntervalSeconds: 2,
      burstWhenBatchFull: batchSize > 1,
      perJobResults: true,
    },
    async (jobs: Job<unknown>[]) => {
      const results: JobResult[] = [];
      for (const job of jobs) {
        const parsed = schema.safeParse(job.data ?? {});
        if (!parsed.success) {
          results.push(refusePayload(kind, job, parsed.error.issues));
          continue;
        }
        // Which process took which job, and how long it ran: what an operator of several workers reads.
        const started = performance.now();
        log.info({ component: 'jobs', queue: JOBS[kind].name, jobId: job.id }, 'job started');
        try {
          await definition.handle(parsed.data);
          results.push({ id: job.id, status: 'completed' });
          log.info({ component: 'jobs', queue: JOBS[kind].name, jobId: job.id, durationMs: Math.round(performance.now() - started) }, 'job done');
        } catch (error) {
          // A job taken alone is failed by pg-boss with the error itself (and retried); in a batch
          // the others must still run and settle, so the failure is this job's result.
          if (batchSize === 1) throw error;
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
