/**
 * `npm start`: builds the site only when its sources changed since the last build (see
 * `build-stamp.ts`), then starts the server. A restart with an unchanged tree goes straight to
 * the server.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsFingerprint, isBuildCurrent, writeBuildStamp } from './build-stamp.ts';

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

await import('../src/server/main.ts');
