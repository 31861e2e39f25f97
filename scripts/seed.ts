/**
 * Bulk synthetic data for benchmarks: `npm run seed -- --users 1000 --projects 10000`.
 * Uses DATABASE_URL, or starts the embedded PostgreSQL under DATA_DIR (default ./data), migrates,
 * inserts the rows (see src/server/seed/synthetic.ts), prints a summary and stops the database.
 * `--demo` first adds the demo content when the database has no users yet.
 */
import { parseArgs } from 'node:util';
import { getConfig } from '../src/server/config.ts';
import { startDatabase } from '../src/server/db/client.ts';
import { seedDemoIfEmpty } from '../src/server/seed/demo.ts';
import { seedSynthetic } from '../src/server/seed/synthetic.ts';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000' },
    projects: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    demo: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log('usage: npm run seed -- [--users N] [--projects N] [--seed N] [--demo]');
  process.exit(0);
}

const count = (name: string, raw: string, min: number): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be an integer >= ${min} (got "${raw}")`);
    process.exit(2);
  }
  return n;
};
const users = count('users', values.users, 2);
const projects = count('projects', values.projects, 0);
const seed = values.seed === undefined ? undefined : count('seed', values.seed, 0);

const started = Date.now();
const dataDir = getConfig().dataDir;
const database = await startDatabase({ dataDir, log: process.env.PG_LOG === '1' });
console.log(`database ready in ${Date.now() - started} ms (${database.embedded ? `embedded, ${dataDir}/pg` : 'DATABASE_URL'})`);
let failed = false;
try {
  if (values.demo) console.log(`demo content: ${(await seedDemoIfEmpty()) ? 'created' : 'skipped (database not empty)'}`);
  console.log(`seeding ${users} users and ${projects} projects ...`);
  const summary = await seedSynthetic({ users, projects, seed, log: (line) => console.log(`  ${line}`) });
  console.log(
    `inserted ${summary.users} users, ${summary.projects} projects, ${summary.projectTags} project tags, ` +
      `${summary.stars} stars, ${summary.likes} likes, ${summary.comments} comments (${summary.covers} shared covers)`,
  );
  console.log(`seed: ${summary.timings.total} ms; with database start: ${Date.now() - started} ms`);
} catch (error) {
  failed = true;
  console.error('seed failed:', error);
} finally {
  await database.stop();
}
process.exit(failed ? 1 : 0);
