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
    // The in-process site logs a JSON line per request: only warnings and errors in the test
    // output (tests that read a server's log lines start it with LOG_LEVEL=info).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
