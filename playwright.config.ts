import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4391);
// A fresh DATA_DIR per run: the embedded PostgreSQL starts empty and seeds the demo content.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'copperhub-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// mkdtemp makes the folder private; run as root, PostgreSQL runs as its own user and must reach DATA_DIR/pg.
chmodSync(dataDir, 0o755);

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // Specs named `mobile*.spec.ts` walk the site as a phone; every other spec as a desktop browser.
  projects: [
    { name: 'desktop', testIgnore: /mobile[^/]*\.spec\.ts$/, use: { ...devices['Desktop Chrome'], launchOptions: chromium } },
    { name: 'mobile', testMatch: /mobile[^/]*\.spec\.ts$/, use: { ...devices['Pixel 7'], launchOptions: chromium } },
  ],
  webServer: {
    command: 'node src/server/main.ts',
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ASTRO_TELEMETRY_DISABLED: '1',
      // One JSON line per request would bury the test report: warnings and errors only.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // Donations through Stripe, so the Support form and the donate buttons are on the pages
      // under test; its API address is a closed port, so nothing can ever reach Stripe.
      STRIPE_SECRET_KEY: 'sk_test_e2e',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
      STRIPE_API_BASE: 'http://127.0.0.1:9',
    },
  },
});
