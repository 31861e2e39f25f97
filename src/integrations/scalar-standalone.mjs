import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The import `/api/docs` makes: Scalar's standalone bundle, as the address of a built asset. */
const SCALAR_URL_IMPORT = '@scalar/api-reference/browser/standalone.js?url';

/**
 * The copy of zod inside Scalar's bundle asks once whether `new Function` works, to compile its
 * validators. The page policy has no `'unsafe-eval'`, so the question itself is a `script-src`
 * violation the browser reports on every visit; answered "no", zod validates without compiling,
 * as it already did after the refusal.
 */
const PROBE = 'try{return new Function(""),!0}catch(e){return!1}';
const ANSWER = 'return!1';

/**
 * Serves `/api/docs` a copy of Scalar's standalone bundle whose `new Function` probe answers false
 * without calling it. The copy is written under `.astro/`, and the page's `?url` import resolves to
 * it, so Vite treats it as it treated the original: a file served from the project in `astro dev`,
 * a content-hashed `_astro/standalone.<hash>.js` in the build (then precompressed). The build fails
 * when the probe is not found exactly once: a Scalar upgrade that changes it must be looked at, not
 * bring the violation back unnoticed.
 * @returns {import('astro').AstroIntegration}
 */
export function scalarStandalone() {
  return {
    name: 'copperhub:scalar-standalone',
    hooks: {
      'astro:config:setup': async ({ config, createCodegenDir, updateConfig }) => {
        const require = createRequire(config.root);
        const original = require.resolve('@scalar/api-reference/browser/standalone.js');
        const code = await readFile(original, 'utf8');
        const found = code.split(PROBE).length - 1;
        if (found !== 1) {
          throw new Error(
            `[scalar-standalone] expected the \`new Function\` probe exactly once in ${original}, found it ${found} times: ` +
              'Scalar changed its bundle; update PROBE in src/integrations/scalar-standalone.mjs so /api/docs stays free of CSP violations.',
          );
        }
        const dir = createCodegenDir();
        const patched = fileURLToPath(new URL('standalone.js', dir));
        await writeFile(patched, code.replace(PROBE, ANSWER));
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'copperhub:scalar-standalone',
                enforce: 'pre',
                resolveId: (source) => (source === SCALAR_URL_IMPORT ? `${patched}?url` : undefined),
              },
            ],
          },
        });
      },
    },
  };
}
