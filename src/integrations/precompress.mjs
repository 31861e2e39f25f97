import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What compresses: text. Images, fonts in woff2 and media are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|xml|txt|map)$/;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`) copy beside every text asset of the
 * build, once, so the server sends scripts and styles compressed without compressing per request.
 * A copy that would not be smaller is not written.
 * @returns {import('astro').AstroIntegration}
 */
export function precompress() {
  return {
    name: 'copperhub:precompress',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        let count = 0;
        for await (const file of files(root)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const raw = await readFile(file);
          if (raw.length < 1024) continue;
          const [br, gz] = await Promise.all([
            brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gzip(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${file}.br`, br);
          if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
          count += 1;
        }
        console.log(`[precompress] ${count} assets compressed (brotli, gzip)`);
      },
    },
  };
}
