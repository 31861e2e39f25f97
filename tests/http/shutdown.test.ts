import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../helpers/worker-process.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * The real server process with its own embedded PostgreSQL (a DATA_DIR of its own, no
 * `DATABASE_URL`), stopped with SIGTERM while a slow client is still downloading a large file.
 */
interface LogLine {
  msg: string;
  [field: string]: unknown;
}

describe('shutting down on SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-shutdown-'));
  const bigFile = randomBytes(48 * 1024 * 1024);
  let child: ChildProcess;
  let port = 0;
  let server: ServerProcess | undefined;
  const lines = (): LogLine[] =>
    (server?.output() ?? '')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  /** Starts the server on `dataDir` and waits until its workers run. */
  async function startServer(): Promise<void> {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '0', SITE_URL: `http://127.0.0.1:${port}`, NODE_ENV: 'production', SHUTDOWN_TIMEOUT_MS: '20000', LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    server = await spawnServer(['src/server/main.ts'], env, 'job workers started');
    child = server.child;
  }

  /** A download of the large file whose client reads nothing yet. */
  async function pausedDownload(): Promise<http.IncomingMessage> {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/files/test/big.bin' }, resolve).on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    response.pause();
    return response;
  }

  beforeAll(async () => {
    mkdirSync(path.join(dataDir, 'files', 'test'), { recursive: true });
    writeFileSync(path.join(dataDir, 'files', 'test', 'big.bin'), bigFile);
    port = await freePort();
    await startServer();
  }, 120_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready with its database, migrations and queue, and logs each request by route without secrets', async () => {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', database: 'ok', migrations: 'ok', queue: 'ok' });
    const answer = await fetch(`http://127.0.0.1:${port}/d-nosuchproject`, { headers: { cookie: 'token=cookie-secret-of-the-test', authorization: 'Bearer bearer-secret-of-the-test' } });
    const id = answer.headers.get('x-request-id');
    await expect.poll(() => lines().find((line) => line.requestId === id && line.msg === 'request')).toBeTruthy();
    expect(lines().find((line) => line.requestId === id && line.msg === 'request')).toMatchObject({ method: 'GET', route: '/d-[id]', status: answer.status });
    expect(typeof lines().find((line) => line.requestId === id)!.durationMs).toBe('number');
    expect(server!.output()).not.toContain('secret-of-the-test');
  });

  it('finishes the download in flight, refuses new connections, stops the workers and PostgreSQL, and exits 0', async () => {
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    expect(existsSync(pidFile)).toBe(true);
    // A client that reads nothing yet: the server has most of the file still to send.
    const response = await pausedDownload();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await expect.poll(() => server!.output()).toContain('SIGTERM: shutting down');

    // New connections are refused while the download goes on.
    await expect.poll(
      () =>
        new Promise((resolve) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.once('connect', () => (socket.destroy(), resolve('connected')));
          socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
        }),
    ).toBe('ECONNREFUSED');
    // However long the download waits, the process and its PostgreSQL wait for it.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(child.exitCode).toBeNull();
    expect(existsSync(pidFile)).toBe(true);

    // Now the client reads, slowly (a pause after every 2 MB, the last bytes included): every
    // byte arrives, though the server has long handed the end of the file to the socket.
    let received = 0;
    let sincePause = 0;
    const hash = createHash('sha256');
    response.on('data', (chunk: Buffer) => {
      received += chunk.length;
      sincePause += chunk.length;
      hash.update(chunk);
      if (sincePause < 2 * 1024 * 1024) return;
      sincePause = 0;
      response.pause();
      setTimeout(() => response.resume(), 40);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    response.resume();
    await new Promise((resolve, reject) => response.on('end', resolve).on('error', reject));
    expect(received).toBe(bigFile.length);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(bigFile).digest('hex'));

    expect(await exited).toBe(0);
    const order = lines().map((line) => line.msg);
    expect(order).toContain('every request answered');
    expect(order).toContain('job workers stopped');
    expect(order.indexOf('PostgreSQL stopped')).toBeGreaterThan(order.indexOf('every request answered'));
    expect(existsSync(pidFile)).toBe(false);
  }, 60_000);
  it('exits at once (1) on a second signal, and the next start recovers the PostgreSQL it left', async () => {
    await startServer();
    const response = await pausedDownload();
    response.on('error', () => undefined);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await expect.poll(() => server!.output()).toContain('SIGTERM: shutting down');
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(lines().map((line) => line.msg)).toContain('SIGTERM again: exiting without waiting');
    response.destroy();
    // Its PostgreSQL was not waited for: a start clears it up, as after a crash, and stops cleanly.
    await startServer();
    const stopped = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
