import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedDatabase } from '../../src/server/db/embedded.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-kill9-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('starts again on the same data folder after its owner was killed with kill -9, with the data present', async () => {
  // A separate process owns the database, writes a row, and is then killed without any cleanup.
  const script = `
    import { startEmbeddedDatabase } from ${JSON.stringify(path.resolve('src/server/db/embedded.ts'))};
    import pg from 'pg';
    const db = await startEmbeddedDatabase(${JSON.stringify(dir)});
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE survivors (name text)');
    await client.query("INSERT INTO survivors VALUES ('still here')");
    await client.end();
    console.log('READY');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && resolve());
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));

  const db = await startEmbeddedDatabase(dir);
  try {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query('SELECT name FROM survivors');
    await client.end();
    expect(rows).toEqual([{ name: 'still here' }]);
  } finally {
    await db.stop();
  }
}, 60_000);
