import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { runningEmbeddedUrl, startEmbeddedDatabase } from './embedded.ts';
import { log } from '../log.ts';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** The transaction `getDb().transaction(...)` hands its callback: the one name for it everywhere. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The database or a transaction in it: what a function takes when it may run inside its caller's
 * transaction (a notification written with the comment that caused it) or on its own.
 */
export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

let pool: pg.Pool | undefined;
let db: Database | undefined;
let genericPool: pg.Pool | undefined;
let genericDb: Database | undefined;
// Counted per process, not per module copy: the built site (bundled by Astro) has its own copy
// of this module beside the server entry's.
const counter: { queries: number } = ((globalThis as { [key: symbol]: { queries: number } })[Symbol.for('copperhub.queryCount')] ??= { queries: 0 });

/**
 * How many SQL statements this process has sent through Drizzle so far: a test reads it before
 * and after one page to hold each page to its number of queries.
 */
export function queryCount(): number {
  return counter.queries;
}

/** A Drizzle database on a pool of its own, its statements counted with the rest. */
function connect(max: number, options?: string): { pool: pg.Pool; db: Database } {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start the database with startDatabase() first');
  const created = new pg.Pool({ connectionString: url, max, ...(options ? { options } : {}) });
  created.on('error', (error: Error & { code?: string }) => {
    // 57P01: the server is shutting down (our own stop on SIGTERM); nothing to report.
    if (error.code !== '57P01') log.error({ component: 'db', err: error }, 'idle client error');
  });
  const database = drizzle(created, {
    schema,
    logger: {
      logQuery() {
        counter.queries += 1;
      },
    },
  }) as Database;
  return { pool: created, db: database };
}

/**
 * The process-wide Drizzle database on `DATABASE_URL`. The server entry sets that variable to
 * the embedded PostgreSQL it started when the operator configured none.
 */
export function getDb(): Database {
  if (!db) ({ pool, db } = connect(Number(process.env.DB_POOL_SIZE ?? 10)));
  return db;
}

/**
 * The database for prepared statements planned once (`prepared(…, { plan: 'generic' })`): a small
 * pool whose sessions use PostgreSQL's generic plan of a prepared statement from its first run.
 * PostgreSQL otherwise plans each run again with its values ("custom") for as long as it guesses
 * a generic plan dearer, which for a project's related projects it always did (0.7 ms of planning
 * on every project page for a plan no better). A session setting, so a pool apart: a generic plan
 * is right only for statements whose best plan does not depend on their values (looked up by ids;
 * a one-word search's title matches, read whole through their index), and ruinous for others (a
 * list's page by its limit: 0.5 → 12.7 ms).
 */
export function getGenericDb(): Database {
  if (!genericDb) ({ pool: genericPool, db: genericDb } = connect(Math.max(1, Math.ceil(Number(process.env.DB_POOL_SIZE ?? 10) / 4)), '-c plan_cache_mode=force_generic_plan'));
  return genericDb;
}

/** Closes the pools (tests, shutdown). */
export async function closeDb(): Promise<void> {
  const current = [pool, genericPool];
  pool = undefined;
  db = undefined;
  genericPool = undefined;
  genericDb = undefined;
  await Promise.all(current.map((each) => each?.end()));
}

/** Where the committed drizzle-kit migrations live, from the source tree or the built server. */
export function migrationsFolder(): string {
  if (process.env.MIGRATIONS_DIR) return process.env.MIGRATIONS_DIR;
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '../../../drizzle');
}

/** The advisory lock migrations are applied under (any number, the same in every process). */
const MIGRATION_LOCK = 4_711_001;

/**
 * Applies pending migrations to `DATABASE_URL`. Instances started together (a deploy of several,
 * each migrating on start) take turns under an advisory lock on one connection: the first applies
 * them, the others then find nothing pending. Without it two would both apply the same migration
 * and one would fail on the objects the other created.
 */
export async function migrateDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: 'copperhub-migrate' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
  } finally {
    // Ending the session releases the lock too, also when a migration failed.
    await client.end();
  }
}

export interface StartedDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * Connects to `DATABASE_URL`, or starts the embedded PostgreSQL under `DATA_DIR/pg` when it is
 * unset, then migrates. The only place that knows which of the two is in use. `ownSignals`: the
 * caller stops the database itself on SIGINT/SIGTERM (the server, after draining requests).
 */
export async function startDatabase(options: { dataDir: string; log?: boolean; ownSignals?: boolean }): Promise<StartedDatabase> {
  let embedded: Awaited<ReturnType<typeof startEmbeddedDatabase>> | undefined;
  if (!process.env.DATABASE_URL) {
    embedded = await startEmbeddedDatabase(path.join(options.dataDir, 'pg'), { log: options.log, ownSignals: options.ownSignals });
    process.env.DATABASE_URL = embedded.url;
  }
  await migrateDatabase();
  return {
    url: process.env.DATABASE_URL!,
    embedded: Boolean(embedded),
    async stop() {
      await closeDb();
      await embedded?.stop();
    },
  };
}

/**
 * The database for an operator's tool (`npm run ops`): `DATABASE_URL`; else the embedded
 * PostgreSQL of `dataDir` — the running site's when it runs (the tool connects to it), otherwise
 * started for the tool and stopped by `stop()`. Pending migrations are applied either way.
 */
export async function openOperatorDatabase(options: { dataDir: string }): Promise<StartedDatabase> {
  if (!process.env.DATABASE_URL) {
    const running = runningEmbeddedUrl(path.join(options.dataDir, 'pg'));
    if (running) process.env.DATABASE_URL = running;
  }
  return startDatabase(options);
}

/**
 * The server's connections (open, idle, requests waiting for one), its two pools together (the
 * generic-plan one, `getDb` and `getGenericDb`, is a quarter of the other), or null before the
 * first query.
 */
export function getPoolStats(): { total: number; idle: number; waiting: number } | null {
  const pools = [pool, genericPool].filter((each) => each !== undefined);
  if (pools.length === 0) return null;
  const sum = (count: (each: (typeof pools)[number]) => number) => pools.reduce((total, each) => total + count(each), 0);
  return { total: sum((each) => each.totalCount), idle: sum((each) => each.idleCount), waiting: sum((each) => each.waitingCount) };
}

/**
 * How many of the committed migrations (drizzle's journal) are not applied to the database yet:
 * 0 when the schema is the code's. `/readyz` is not ready otherwise.
 */
export async function countPendingMigrations(): Promise<number> {
  const journal = JSON.parse(await readFile(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
  const { rows } = await getDb().$client.query<{ latest: string | null }>('SELECT max(created_at)::text AS latest FROM drizzle.__drizzle_migrations');
  const latest = Number(rows[0]?.latest ?? 0);
  // Drizzle applies in journal order and records each migration's `when` as `created_at`.
  return journal.entries.filter((entry) => entry.when > latest).length;
}

/** `SELECT 1` against the pool: the database state reported by `/healthz`. */
export async function checkDatabase(): Promise<boolean> {
  try {
    await getDb().$client.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
