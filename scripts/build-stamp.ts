/**
 * Whether the built site (`dist/`) was made from the sources as they are now: a fingerprint of
 * every build input (sources, public files, messages, configuration, the lock file) is kept in
 * `dist/.build-inputs` after a build, so `npm start` rebuilds only when something changed and a
 * restart after a crash serves again in seconds instead of a minute.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads: folders walked whole, and single files. */
export const BUILD_INPUTS = ['src', 'public', 'locales', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];

const STAMP = '.build-inputs';

function files(root: string, entry: string, out: string[]): void {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) files(root, path.join(entry, name), out);
  } else {
    out.push(entry);
  }
}

/** A hash of the names and contents of every build input under `root`. */
export function buildInputsFingerprint(root: string, inputs: string[] = BUILD_INPUTS): string {
  const hash = createHash('sha256');
  const list: string[] = [];
  for (const input of inputs) files(root, input, list);
  for (const file of list) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether `distDir` holds a complete build of exactly these inputs. */
export function isBuildCurrent(root: string, distDir: string, fingerprint: string): boolean {
  const stamp = path.join(distDir, STAMP);
  return existsSync(path.join(distDir, 'server', 'entry.mjs')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === fingerprint;
}

/** Records that `distDir` was built from inputs with this fingerprint. */
export function writeBuildStamp(distDir: string, fingerprint: string): void {
  writeFileSync(path.join(distDir, STAMP), `${fingerprint}\n`);
}

// `npm run build` stamps what it built, so the `npm start` of every instance after a deploy starts
// at once rather than building again (and several instances of one folder never build at once).
if (import.meta.main) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  writeBuildStamp(path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist')), buildInputsFingerprint(root));
}
