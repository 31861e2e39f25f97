import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseSetupError, startEmbeddedDatabase } from '../../src/server/db/embedded.ts';

// As root, PostgreSQL runs as the system user `postgres`; as anyone else these questions do not arise.
describe.runIf(process.getuid?.() === 0)('a DATA_DIR closed to everyone but root', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'copperhub-access-'));
  chmodSync(root, 0o755);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('of mode 700 works: PostgreSQL may pass through it to its own folder, nobody else gains anything', async () => {
    const dataDir = path.join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    chmodSync(dataDir, 0o700);
    const db = await startEmbeddedDatabase(path.join(dataDir, 'pg'));
    try {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.end();
    } finally {
      await db.stop();
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o710); // through for postgres's group only; nothing for others
  }, 60_000);

  it('behind another closed folder stops with one sentence naming it and the fix, before initdb', async () => {
    const closed = path.join(root, 'closed');
    mkdirSync(path.join(closed, 'data'), { recursive: true });
    chmodSync(closed, 0o700);
    const failure = await startEmbeddedDatabase(path.join(closed, 'data', 'pg')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseSetupError);
    const message = (failure as Error).message;
    expect(message).toContain(`cannot pass through ${closed} `);
    expect(message).toContain(`chmod o+x ${closed}`);
    expect(message.split('\n')).toHaveLength(1);
    expect(existsSync(path.join(closed, 'data', 'pg', 'PG_VERSION'))).toBe(false);
    expect(statSync(closed).mode & 0o777).toBe(0o700); // not ours to open
  });
});
