import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startSmtpServer } from '../helpers/smtp.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * "Forgot password" in Chromium, on a site that sends email: the shared e2e server has no
 * `SMTP_URL`, so this spec starts its own server (its own DATA_DIR and port) pointed at an SMTP
 * server started here, and follows the link the mail carries.
 */
test.describe.configure({ mode: 'serial' });

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: ChildProcess | undefined;
let dataDir = '';
let origin = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startSmtpServer();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-e2e-mail-'));
  chmodSync(dataDir, 0o755);
  server = spawn(process.execPath, ['src/server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SITE_URL: origin, SEED_DEMO: '0', SMTP_URL: smtp.url, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 150_000;
  for (;;) {
    const healthy = await fetch(`${origin}/healthz`).then((answer) => answer.ok, () => false);
    if (healthy && output.includes('job workers started')) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the mail server's site did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await smtp?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('forgot password: the mailed link sets a new password once and signs in', async ({ page }) => {
  const email = `forgetful-${Date.now().toString(36)}@example.com`;
  const registered = await fetch(`${origin}/sso/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: 'first passphrase', nickname: 'Forgetful Maker' }),
  });
  expect(registered.status).toBe(200);

  await page.goto(`${origin}/sso/login`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toContainText(`If ${email} has an account, a link to set a new password is on its way.`);

  const mail = await smtp.waitForMail(email, /new .*password/i);
  const link = mail.links.find((href) => href.includes('/sso/reset?token='));
  expect(link).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('a second passphrase');
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await expect(page.getByRole('button', { name: 'Account menu of Forgetful Maker' })).toBeVisible();

  // The link worked once.
  await page.goto(link!);
  await page.getByLabel('New password', { exact: true }).fill('a third passphrase');
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('This link is not valid any more');

  // The old password no longer signs in; the new one does.
  const signIn = (password: string) => fetch(`${origin}/sso/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ email, password }) });
  expect((await signIn('first passphrase')).status).toBe(401);
  expect((await signIn('a second passphrase')).status).toBe(200);
});
