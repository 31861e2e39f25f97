/**
 * The server entry: it starts (or connects to) PostgreSQL, migrates, seeds demo content on first
 * start, starts the job workers (boards, BOMs), then listens with the site's server (`app.ts`: built assets, stored files, `/healthz`
 * and Astro's handler), runs the hourly housekeeping and shuts down cleanly on SIGINT/SIGTERM.
 * Run with Node 24 (`npm start`); Node strips the TypeScript types.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServer } from './app.ts';
import { configProblem, readConfig } from './config.ts';
import { startDatabase } from './db/client.ts';
import { DatabaseSetupError } from './db/embedded.ts';
import { assertRouteMiddlewares } from './routing/middlewares.ts';
import { routeTable } from './routing/routes.ts';
import { seedDemoIfEmpty } from './db/seed/demo.ts';
import { startJobWorkers, stopJobWorkers } from './jobs/workers.ts';
import { stopListeningForPagePurges } from './page-cache/tags.ts';
import { deleteStaleEmailTokens } from './services/account-email.ts';
import { deleteExpiredRateLimits } from './services/rate-limit.ts';
import { deleteExpiredSessions } from './services/sessions.ts';
import { deleteStaleSsoCodes } from './services/sso.ts';
import { deleteAbandonedVideoUploads } from './services/video-uploads.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const config = readConfig();
const log = (message: string) => console.log(`[copperhub] ${message}`);

// A configuration that cannot serve safely stops here, in one sentence, before anything starts.
const problem = configProblem(config);
if (problem) {
  console.error(`[copperhub] ${problem}`);
  process.exit(1);
}

assertRouteMiddlewares(routeTable);

// Without SMTP_URL, reset and confirmation links go to the log: fine for a demo, not for members.
if (config.production && !config.seedDemo && !config.smtpUrl) {
  console.warn('[copperhub] SMTP_URL is unset: account emails (password resets included) are written to this log instead of being sent.');
}

const startedAt = Date.now();
const database = await startDatabase({ dataDir: config.dataDir, log: process.env.PG_LOG === '1' }).catch((error: unknown) => {
  // What the operator must fix is said in one sentence; anything else keeps its stack trace.
  if (!(error instanceof DatabaseSetupError)) throw error;
  console.error(`[copperhub] ${error.message}`);
  process.exit(1);
});
log(`database ready (${database.embedded ? `embedded, data in ${path.join(config.dataDir, 'pg')}` : 'DATABASE_URL'})`);
if (config.seedDemo) {
  const seeded = await seedDemoIfEmpty();
  if (seeded) log('demo content created (set SEED_DEMO=0 for a real deployment)');
}

const distDir = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
const server = await createAppServer({ distDir });

const housekeeping = setInterval(() => {
  for (const task of [deleteExpiredSessions, deleteStaleSsoCodes, deleteExpiredRateLimits, deleteAbandonedVideoUploads, deleteStaleEmailTokens]) void task().catch(() => undefined);
}, 60 * 60 * 1000);
housekeeping.unref();

server.listen(config.port, config.host, () => {
  log(`listening on http://localhost:${config.port} (ready in ${Date.now() - startedAt} ms)`);
  keepServingThroughStrayErrors();
  // Boards and videos are processed by the job queue in this process unless the operator runs
  // workers apart; they start once the site serves, so a restart is not held up by them.
  if (process.env.JOB_WORKERS !== '0') {
    startJobWorkers({ boardConcurrency: Math.max(1, Number(process.env.BOARD_CONCURRENCY ?? 1) || 1) }).then(
      () => log('job workers started'),
      (error: unknown) => console.error('[copperhub] job workers could not start, pending work waits for the next start:', error),
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
    console.error('[copperhub] uncaught exception, still serving:', error);
  });
  process.on('unhandledRejection', (reason) => {
    console.error('[copperhub] unhandled rejection, still serving:', reason);
  });
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: shutting down`);
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  server.close();
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), 5_000).unref();
  await stopJobWorkers().catch((error: unknown) => console.error(error));
  await stopListeningForPagePurges();
  await database.stop().catch((error: unknown) => console.error(error));
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
