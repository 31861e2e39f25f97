import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.ts';

/**
 * The whole server (its own embedded PostgreSQL in its own DATA_DIR) is killed with SIGKILL in the
 * middle of a stream of writes; after a restart on the same folder every write it acknowledged
 * is there. An answer is sent only after its transaction committed.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-kill-load-'));
// Run as root, PostgreSQL runs as its own user and must reach DATA_DIR/pg.
chmodSync(dataDir, 0o755);
let server: ChildProcess | undefined;
afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', SITE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, SEED_DEMO: '0', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 240; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not start');
}

it('keeps every acknowledged write after a kill -9 under write load', async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const headers = { 'content-type': 'application/json', origin, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/139.0 Safari/537.36' };
  server = await start(port);

  // A member, signed in the way a browser is: the SSO answers a location with a one-time code.
  const registered = await (
    await fetch(`${origin}/sso/api/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'load@example.com', password: 'solder-fumes-42', nickname: 'Load Tester', redirect: `${origin}/`, siteId: 'copperhub', platform: 6 }),
    })
  ).json();
  expect(registered.retCode).toBe(0);
  const back = await fetch(registered.result.location, { redirect: 'manual', headers });
  const token = /token=([^;]+)/.exec(back.headers.get('set-cookie') ?? '')?.[1];
  expect(token).toBeTruthy();
  const write = { ...headers, authorization: `Bearer ${token}` };

  // Four writers save drafts as fast as they are answered; the server dies under them.
  const acknowledged: string[] = [];
  let killed = false;
  const writer = async (n: number) => {
    for (let i = 0; !killed; i += 1) {
      try {
        const answer = await (await fetch(`${origin}/api/release/saveProject`, { method: 'POST', headers: write, body: JSON.stringify({ title: `Draft ${n}-${i}` }) })).json();
        if (answer.retCode === 0) acknowledged.push(answer.result.id);
      } catch {
        return; // the connection died with the server: that write was never acknowledged
      }
    }
  };
  const writers = [1, 2, 3, 4].map(writer);
  while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
  server.kill('SIGKILL');
  killed = true;
  await new Promise((resolve) => server!.once('exit', resolve));
  await Promise.all(writers);

  server = await start(port);
  const missing: string[] = [];
  for (const id of acknowledged) {
    const answer = await (await fetch(`${origin}/api/temporary/status`, { method: 'POST', headers: write, body: JSON.stringify({ id }) })).json();
    if (answer.retCode !== 0) missing.push(id);
  }
  expect(acknowledged.length).toBeGreaterThanOrEqual(40);
  expect(missing).toEqual([]);
}, 180_000);
