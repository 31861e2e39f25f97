import { defineConfig } from 'vitest/config';

// tests/http serve the built site (`dist/`, made by `npm run build`) in process: `npm test` builds
// before it runs vitest; `npm run test:unit` runs only the tests that need no build.
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/http/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
    // The built server is plain JavaScript for Node: loaded natively, not transformed again.
    server: { deps: { external: [/\/dist\/server\//] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
