import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { spawnServer, type ServerProcess } from '../helpers/worker-process.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * The real server process (`node src/server/main.ts`), on this file's database, a DATA_DIR and a
 * copy of the built assets of its own, so files can vanish under it as in a redeploy or a disk
 * failure. What is proven here needs the process itself: that it stays up.
 */
const database = useTestDatabase();

describe('the server process', () => {
  const distDir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-dist-'));
  let child: ChildProcess;
  let origin = '';
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    // The assets copied, so that deleting one leaves the build alone; the server code linked
    // (Node follows the link, so its packages resolve from the project as usual).
    cpSync(path.resolve('dist/client'), path.join(distDir, 'client'), { recursive: true });
    symlinkSync(path.resolve('dist/server'), path.join(distDir, 'server'), 'dir');
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DIST_DIR: distDir, DATA_DIR: database.dataDir(), SEED_DEMO: '0', SITE_URL: origin, NODE_ENV: 'production', LOG_LEVEL: 'info' };
    server = await spawnServer(['--import', path.resolve('tests/helpers/stray-errors.ts'), 'src/server/main.ts'], env, 'listening on');
    child = server.child;
  });

  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(distDir, { recursive: true, force: true });
  });

  const healthy = async () => (await fetch(`${origin}/healthz`)).status;

  it('answers 404 for a built asset and a stored file deleted under it, and stays up', async () => {
    const name = readdirSync(path.join(distDir, 'client/_astro')).find((file) => file.endsWith('.js'))!;
    expect((await fetch(`${origin}/_astro/${name}`)).status).toBe(200);
    const stored = path.join(database.dataDir(), 'files', 'test', 'vanishing.webp');
    await mkdir(path.dirname(stored), { recursive: true });
    await writeFile(stored, 'RIFF....WEBP');
    expect((await fetch(`${origin}/files/test/vanishing.webp`)).status).toBe(200);

    // The asset and the compressed copies the build wrote beside it.
    for (const file of [name, `${name}.br`, `${name}.gz`]) await rm(path.join(distDir, 'client/_astro', file), { force: true });
    await rm(stored);
    expect((await fetch(`${origin}/_astro/${name}`)).status).toBe(404);
    expect((await fetch(`${origin}/files/test/vanishing.webp`)).status).toBe(404);
    // The same requests again, and a page, once the first answers are written.
    expect((await fetch(`${origin}/_astro/${name}`, { method: 'HEAD' })).status).toBe(404);
    expect(await healthy()).toBe(200);
    expect(child.exitCode).toBeNull();
  });

  it('logs an error that escaped every handler and goes on serving', async () => {
    child.kill('SIGUSR2');
    await expect.poll(() => server!.output(), { timeout: 5000 }).toContain('stray rejection from the test');
    await expect.poll(() => server!.output(), { timeout: 5000 }).toContain('stray exception from the test');
    // One JSON line each, with the error's stack for the operator.
    const lines = server!.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; err?: { stack?: string } });
    expect(lines.find((line) => line.msg === 'uncaught exception, still serving')?.err?.stack).toContain('stray exception from the test');
    expect(lines.find((line) => line.msg === 'unhandled rejection, still serving')?.err?.stack).toContain('stray rejection from the test');
    expect(await healthy()).toBe(200);
    expect(child.exitCode).toBeNull();
  });
});
