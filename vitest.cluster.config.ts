import { defineConfig } from 'vitest/config';

// `npm run test:cluster` (issue 27): the site as several processes behind nginx, on Debian's
// PostgreSQL and an S3-compatible bucket, started by the test itself (tests/cluster/harness.ts).
export default defineConfig({
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
