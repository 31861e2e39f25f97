import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * Gives every build an id: pages carry it (`import.meta.env.PUBLIC_BUILD_ID`) and the build writes
 * `/_build/latest.json`, so a tab left open across a deployment notices and reloads.
 * @param {string} buildId
 * @returns {import('astro').AstroIntegration}
 */
export function buildId(buildId) {
  return {
    name: 'copperhub:build-id',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const folder = new URL('_build/', dir);
        await mkdir(fileURLToPath(folder), { recursive: true });
        await writeFile(fileURLToPath(new URL('latest.json', folder)), JSON.stringify({ id: buildId, builtAt: new Date().toISOString() }));
      },
    },
  };
}
