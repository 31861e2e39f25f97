import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeDb, getDb } from '../../src/server/db/client.ts';
import { stopQueue } from '../../src/server/jobs/queue.ts';

/**
 * Gives this test file its own fresh, migrated PostgreSQL database (cloned from the template the
 * global setup migrated) and its own DATA_DIR for stored files. Call at the top of a test file.
 */
export function useTestDatabase(): { dataDir: () => string } {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = inject('pgAdminUrl');
  let dataDir = '';
  beforeAll(async () => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name} TEMPLATE copperhub_template`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    process.env.DATABASE_URL = url.toString();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-test-data-'));
    process.env.DATA_DIR = dataDir;
    getDb();
  });
  afterAll(async () => {
    // The job queue of this file (started by the first publish with design files) goes first.
    await stopQueue();
    await closeDb();
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir: () => dataDir };
}
