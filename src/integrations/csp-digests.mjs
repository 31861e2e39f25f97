/**
 * Astro hashes every inline style and script of a page's head for the Content-Security-Policy on
 * every request (WebCrypto's SHA-256, one asynchronous job each), although they are the build's and
 * never change: about 3 % of a member's page (docs/performance.md). This build step makes Astro's
 * `generateCspDigest` remember each digest, per algorithm and text, so each is computed once per
 * process. The header stays the same, byte for byte.
 *
 * It rewrites Astro's own module as the server is bundled; should a new Astro word it differently,
 * the build says so and Astro simply hashes as before.
 * @returns {import('astro').AstroIntegration}
 */
export function rememberedCspDigests() {
  const head = 'async function generateCspDigest(data, algorithm) {';
  return {
    name: 'copperhub:csp-digests',
    hooks: {
      'astro:config:setup': ({ updateConfig, logger }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'copperhub:csp-digests',
                transform(code, id) {
                  if (!id.replace(/\\/g, '/').endsWith('/astro/dist/core/encryption.js')) return null;
                  if (!code.includes(head)) {
                    logger.warn('Astro\'s generateCspDigest has changed: CSP digests are computed on every request again.');
                    return null;
                  }
                  // Texts in a map per algorithm: the same string each request, whose hash V8 keeps.
                  // Bounded, since a server island's digest covers text made per request.
                  const remembered = `const rememberedCspDigests = new Map();
function generateCspDigest(data, algorithm) {
  let digests = rememberedCspDigests.get(algorithm);
  if (!digests) rememberedCspDigests.set(algorithm, (digests = new Map()));
  let digest = digests.get(data);
  if (!digest) {
    if (digests.size >= 1000) digests.clear();
    digest = computeCspDigest(data, algorithm);
    digest.catch(() => digests.delete(data));
    digests.set(data, digest);
  }
  return digest;
}
async function computeCspDigest(data, algorithm) {`;
                  return { code: code.replace(head, remembered), map: null };
                },
              },
            ],
          },
        });
      },
    },
  };
}
