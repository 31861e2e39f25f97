/**
 * A process that only runs the job workers (rendering boards, reading BOMs), for operators who
 * keep heavy work off the machines that serve pages: `npm run worker` with the same `DATABASE_URL`
 * and storage as the site, and `JOB_WORKERS=0` on the web instances. It needs `DATABASE_URL`:
 * the embedded PostgreSQL belongs to the site process, which runs its own workers.
 */
import path from 'node:path';
import { configProblem, readConfig } from './config.ts';
import { startDatabase } from './db/client.ts';
import { startJobWorkers, stopJobWorkers } from './jobs/workers.ts';
import { broadcastPagePurges } from './page-cache/tags.ts';
import { log } from './log.ts';

const config = readConfig();
const problem = configProblem(config);
if (problem) {
  log.fatal(problem);
  process.exit(1);
}
if (!process.env.DATABASE_URL) {
  log.fatal('set DATABASE_URL: a worker process shares the site\'s PostgreSQL (with the embedded database, the site runs its own workers)');
  process.exit(1);
}
const database = await startDatabase({ dataDir: config.dataDir });
// A board or video made ready here purges the site instances' cached pages.
broadcastPagePurges();
await startJobWorkers({ boardConcurrency: Math.max(1, Number(process.env.BOARD_CONCURRENCY ?? 1) || 1) });
log.info(`job workers started (files in ${config.s3 ? `the bucket ${config.s3.bucket}` : path.join(config.dataDir, 'files')})`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info(`${signal}: finishing jobs in hand`);
  await stopJobWorkers().catch((error: unknown) => log.error({ err: error }, 'job workers did not stop cleanly'));
  await database.stop().catch((error: unknown) => log.error({ err: error }, 'the database did not stop cleanly'));
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
