/**
 * `npm start`: builds the site only when its sources changed since the last build (see
 * `build-stamp.ts`), then starts the server. A restart with an unchanged tree goes straight to
 * the server. The server runs as a process of its own with its heap bound (`serverNodeFlags`), a
 * flag V8 reads only when a process starts; SIGINT and SIGTERM are passed on and its exit is this
 * one's. (Under systemd, `KillMode=mixed` signals this process alone, as a terminal does.)
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsFingerprint, isBuildCurrent, writeBuildStamp } from './build-stamp.ts';
import { serverNodeFlags } from '../src/server/config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
const fingerprint = buildInputsFingerprint(root);

if (isBuildCurrent(root, distDir, fingerprint)) {
  console.log('[copperhub] the build is up to date');
} else {
  console.log('[copperhub] building the site (sources changed since the last build)');
  // Astro builds as it always does; NODE_ENV=production is for the server that starts after.
  const { NODE_ENV: _serverMode, ...env } = process.env;
  const build = spawnSync(path.join(root, 'node_modules', '.bin', 'astro'), ['build'], { cwd: root, stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeBuildStamp(distDir, fingerprint);
}

const flags = serverNodeFlags();
if (flags.length === 0) {
  await import('../src/server/main.ts');
} else {
  // In a process group of its own, so that a terminal's Ctrl+C reaches it (and its PostgreSQL)
  // once, passed on from here, not twice: a second signal means "stop without waiting".
  const server = spawn(process.execPath, [...process.execArgv, ...flags, path.join(root, 'src', 'server', 'main.ts')], { cwd: process.cwd(), stdio: 'inherit', detached: true });
  // The server stops itself on these (finishing its requests, then PostgreSQL).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
}
