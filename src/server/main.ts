/**
 * The server entry: it starts (or connects to) PostgreSQL, migrates, seeds demo content on first
 * start, starts the job workers (boards, BOMs), then listens with the site's server (`app.ts`: built assets, stored files, `/healthz`,
 * `/readyz`, `/metrics` and Astro's handler), runs the hourly housekeeping and shuts down cleanly on SIGINT/SIGTERM
 * (see `shutdown`). Operational lines are pino's JSON on stdout (`log.ts`).
 * Run with Node 24 (`npm start`); Node strips the TypeScript types.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServer, drainServer } from './app.ts';
import { configProblem, readConfig } from './config.ts';
import { startDatabase } from './db/client.ts';
import { DatabaseSetupError } from './db/embedded.ts';
import { assertRouteMiddlewares } from './routing/middlewares.ts';
import { routeTable } from './routing/routes.ts';
import { queueDemoImageVariants, seedDemoIfEmpty } from './seed/demo.ts';
import { startJobWorkers, stopJobWorkers } from './jobs/workers.ts';
import { stopListeningForPagePurges } from './page-cache/tags.ts';
import { deleteStaleEmailTokens, deleteExpiredSessions, deleteStaleSsoCodes } from './services/accounts/index.ts';
import { deleteExpiredRateLimits } from './services/core/index.ts';
import { deleteAbandonedVideoUploads } from './services/media/index.ts';
import { log as logger } from './log.ts';
import { readMetricsAccess } from './metrics.ts';
import { beginShutdown, expectJobQueue } from './readiness.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const config = readConfig();
const log = (message: string) => logger.info(message);

/** A start-up failure the operator fixes: one sentence, then exit before anything else starts. */
function stopStarting(message: string): never {
  logger.fatal(message);
  logger.flush();
  process.exit(1);
}

// A configuration that cannot serve safely stops here, in one sentence, before anything starts.
const problem = configProblem(config);
if (problem) stopStarting(problem);
try {
  readMetricsAccess();
} catch (error) {
  stopStarting((error as Error).message);
}
const shutdownTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000);
if (!Number.isFinite(shutdownTimeoutMs) || shutdownTimeoutMs < 0) stopStarting(`SHUTDOWN_TIMEOUT_MS must be a number of milliseconds (got "${process.env.SHUTDOWN_TIMEOUT_MS}").`);
const runWorkers = process.env.JOB_WORKERS !== '0';
expectJobQueue(runWorkers);

assertRouteMiddlewares(routeTable);

// Without SMTP_URL, reset and confirmation links go to the log: fine for a demo, not for members.
if (config.production && !config.seedDemo && !config.smtpUrl) {
  console.warn('[copperhub] SMTP_URL is unset: account emails (password resets included) are written to this log instead of being sent.');
}

const startedAt = Date.now();
const database = await startDatabase({ dataDir: config.dataDir, log: process.env.PG_LOG === '1', ownSignals: true }).catch((error: unknown) => {
  // What the operator must fix is said in one sentence; anything else keeps its stack trace.
  if (!(error instanceof DatabaseSetupError)) throw error;
  stopStarting(error.message);
});
log(`database ready (${database.embedded ? `embedded, data in ${path.join(config.dataDir, 'pg')}` : 'DATABASE_URL'})`);
const seeded = config.seedDemo && (await seedDemoIfEmpty());
if (seeded) log('demo content created (set SEED_DEMO=0 for a real deployment)');

const distDir = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
const server = await createAppServer({ distDir });

const housekeeping = setInterval(() => {
  for (const task of [deleteExpiredSessions, deleteStaleSsoCodes, deleteExpiredRateLimits, deleteAbandonedVideoUploads, deleteStaleEmailTokens]) void task().catch(() => undefined);
}, 60 * 60 * 1000);
housekeeping.unref();

server.listen(config.port, config.host, () => {
  log(`listening on http://localhost:${config.port} (ready in ${Date.now() - startedAt} ms)`);
  keepServingThroughStrayErrors();
  // The demo pictures' smaller variants are made by the job queue, here or in a worker process.
  if (seeded) void queueDemoImageVariants().catch((error: unknown) => console.error('[copperhub] demo image variants not queued:', error));
  // Boards and videos are processed by the job queue in this process unless the operator runs
  // workers apart; they start once the site serves, so a restart is not held up by them.
  if (runWorkers) {
    startJobWorkers({ boardConcurrency: Math.max(1, Number(process.env.BOARD_CONCURRENCY ?? 1) || 1) }).then(
      () => log('job workers started'),
      (error: unknown) => logger.error({ err: error }, 'job workers could not start, pending work waits for the next start'),
    );
  }
});

/**
 * The last resort once the site serves: an error that escaped every request's own handling (a
 * stream without an error listener, a callback that throws, a promise nobody awaits) is logged
 * and the server goes on answering everyone else. Every request path handles its own failures,
 * so what lands here is one request's bug, and ending the process would take the whole site down
 * for it. Until the server listens there is no such guard: a failing start-up (no database, port
 * taken, a bad migration) stops with its own message, as it should.
 */
function keepServingThroughStrayErrors(): void {
  process.on('uncaughtException', (error) => {
    logger.error({ err: error }, 'uncaught exception, still serving');
  });
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled rejection, still serving');
  });
}

/**
 * SIGTERM/SIGINT: `/readyz` turns 503 at once so a load balancer stops sending; the server stops
 * accepting connections, lets the requests in flight finish for up to `SHUTDOWN_TIMEOUT_MS`
 * (idle keep-alive connections are closed as soon as they are idle, then whatever is left is
 * cut), meanwhile the job workers finish the jobs in hand (pg-boss's graceful stop); then the
 * pool is closed, the embedded PostgreSQL stopped, and the process exits 0. A second signal
 * exits at once (1).
 */
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    logger.warn(`${signal} again: exiting without waiting`);
    logger.flush();
    process.exit(1);
  }
  stopping = true;
  beginShutdown();
  log(`${signal}: shutting down (requests in flight get up to ${shutdownTimeoutMs} ms)`);
  // Past this the process is stuck somewhere (a database that does not stop): out, and say so.
  const force = setTimeout(() => {
    logger.error('shutdown did not finish in time, exiting');
    logger.flush();
    process.exit(1);
  }, shutdownTimeoutMs + 30_000);
  force.unref();
  await Promise.all([
    drainServer(server, shutdownTimeoutMs).then((outcome) => log(outcome === 'drained' ? 'every request answered' : 'requests still in flight at the shutdown limit were cut')),
    stopJobWorkers().then(
      () => log('job workers stopped'),
      (error: unknown) => logger.error({ err: error }, 'job workers did not stop cleanly'),
    ),
  ]);
  await stopListeningForPagePurges();
  await database.stop().then(
    () => log(database.embedded ? 'PostgreSQL stopped' : 'database pool closed'),
    (error: unknown) => logger.error({ err: error }, 'the database did not stop cleanly'),
  );
  clearTimeout(force);
  logger.flush();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
