import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrateDatabase } from '../../src/server/db/client.ts';

/**
 * Several instances of the site started at once each migrate their database on start (a deploy of
 * two web instances and two workers): they must all come up on an empty database.
 */
describe('migrations applied by instances starting together', () => {
  const name = `m_${randomBytes(6).toString('hex')}`;
  const admin = inject('pgAdminUrl');
  const previous = process.env.DATABASE_URL;

  afterAll(async () => {
    process.env.DATABASE_URL = previous;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it('leave one complete schema, each migration applied once', async () => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    process.env.DATABASE_URL = url.toString();

    await Promise.all([migrateDatabase(), migrateDatabase(), migrateDatabase(), migrateDatabase()]);

    const check = new pg.Client({ connectionString: url.toString() });
    await check.connect();
    try {
      const applied = await check.query<{ n: number; distinct: number }>('SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct FROM drizzle.__drizzle_migrations');
      expect(applied.rows[0]!.n).toBeGreaterThan(20);
      expect(applied.rows[0]!.distinct).toBe(applied.rows[0]!.n);
      const tables = await check.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('projects', 'users', 'comments')");
      expect(tables.rows.map((row) => row.name).sort()).toEqual(['comments', 'projects', 'users']);
    } finally {
      await check.end();
    }
  });
});
