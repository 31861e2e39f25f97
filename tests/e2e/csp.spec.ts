import { devices, expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { call, ownProject } from './conversation-helpers.ts';
import { signUp } from './project-helpers.ts';
import { registerAsVisitor } from './visitor.ts';

/**
 * The pages under their Content-Security-Policy in Chromium: every script the site needs runs
 * (islands hydrate, web components start, the page scripts enhance their forms) and the browser
 * reports no violation, neither as a `securitypolicyviolation` event nor on the console.
 */

const baseURL = () => test.info().project.use.baseURL!;

/** Everything the browser says about the page's policies, and any script error, from now on. */
async function watchPolicies(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.exposeBinding('__reportViolation', (_source, text: string) => problems.push(text));
  await page.addInitScript(() => {
    // Violations inside the web components' shadow roots are composed events: they reach the document.
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as { __reportViolation: (text: string) => void }).__reportViolation;
        report(`${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI || 'an inline resource'} (${event.sourceFile}:${event.lineNumber})`);
      },
      true,
    );
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Permissions[- ]Policy/i.test(message.text())) problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  return problems;
}

/** A plain picture for the croppers. */
const picture = () => sharp({ create: { width: 1200, height: 900, channels: 3, background: '#b0521d' } }).png().toBuffer();

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('a guest reads the home and a project page with comments, signs in on the sign-in page and takes part', async ({ page }) => {
  const problems = await watchPolicies(page);
  const { project, owner } = await ownProject(baseURL(), 'Policy Owner');
  await call(owner.api, 'comment/submit', { id: project.id, content: 'Ask me anything about the power stage.' });

  // Home: the banner carousel's web component starts, the language switcher's script reloads the page.
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Featured' })).toBeVisible();
  await expect.poll(() => page.locator('.hero-swiper').evaluate((element) => Boolean((element as HTMLElement & { swiper?: unknown }).swiper))).toBe(true);
  await page.getByLabel('Language').first().selectOption('zh-CN');
  await expect(page.getByRole('heading', { name: '推荐项目' })).toBeVisible();
  await page.getByLabel('语言').first().selectOption('en-US');
  await expect(page.getByRole('heading', { name: 'Recommended projects' })).toBeVisible();

  // A project page with a comment: the islands hydrate when the pointer comes over them.
  await page.goto(`/d-${project.id}`);
  await expect(page.getByRole('heading', { level: 1, name: project.title })).toBeVisible();
  await expect(page.locator('#comments')).toContainText('Ask me anything about the power stage.');
  await page.locator('[data-reaction="star"]').hover();
  await expect(page.locator('astro-island:has([data-reaction="star"])')).not.toHaveAttribute('ssr');
  await page.locator('#comments').hover();
  await expect(page.locator('#comments astro-island')).not.toHaveAttribute('ssr');

  // The sign-in page: its script takes over the form (its own messages, sent with fetch).
  const email = `policy-${unique()}@example.com`;
  const registered = await registerAsVisitor({ email, password: 'solder-bridge-42', nickname: 'Policy Reader' });
  expect(registered.status).toBe(200);
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Copperhub' })).toBeVisible();
  await expect(page.locator('form[data-sso-form]')).toHaveJSProperty('noValidate', true);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('solder-bridge-42');
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back signed in: the islands call the API (a like, a comment).
  await expect(page.getByRole('heading', { level: 1, name: project.title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu of Policy Reader' })).toBeVisible();
  const like = page.locator('[data-reaction="like"]');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('textbox', { name: 'Write a comment' }).fill('Built one, works fine.');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.locator('#comments .comment', { hasText: 'Built one, works fine.' })).toBeVisible();

  expect(problems).toEqual([]);
});

test('a member creates a project with a cropped cover and edits the profile with a new avatar', async ({ page }) => {
  const problems = await watchPolicies(page);
  const me = await signUp(page.context().request, 'Policy Maker');

  await page.goto('/create/project');
  await expect(page.getByRole('heading', { level: 1, name: 'Share a project' })).toBeVisible();
  await page.getByRole('textbox', { name: /^Title/ }).fill(`Policy board ${unique()}`);
  await page.getByTestId('cover-input').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await picture() });
  const cropper = page.getByRole('dialog', { name: 'Crop image' });
  await expect(cropper).toBeVisible();
  await expect(cropper.getByTestId('cropper-stage')).toHaveAttribute('data-status', 'ready');
  await cropper.getByRole('button', { name: 'Use this crop' }).click();
  await expect(cropper).toBeHidden();
  await expect(page.getByRole('img', { name: 'Cover image' })).toHaveAttribute('src', /^\/files\/images\//);
  await page.getByRole('textbox', { name: 'Markdown' }).fill('## Why\n\nA **safe** preview.');
  await expect(page.getByTestId('live-preview').locator('strong')).toHaveText('safe');

  await page.goto(`/user/${me.url}/profile`);
  await expect(page.getByRole('heading', { name: 'Edit profile' })).toBeVisible();
  await expect(page.getByTestId('header-avatar')).toHaveAttribute('src', /^data:image\/svg\+xml/);
  await expect(page.getByRole('button', { name: 'Change avatar' })).toBeEnabled();
  await page.getByTestId('avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await picture() });
  const dialog = page.getByRole('dialog', { name: 'Crop image' });
  await expect(dialog.getByTestId('cropper-stage')).toHaveAttribute('data-status', 'ready');
  await dialog.getByRole('button', { name: 'Use this crop' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('header-avatar')).toHaveAttribute('src', /^\/files\/images\//);

  expect(problems).toEqual([]);
});

test('the mobile pages run under the same policy', async ({ browser }) => {
  const { project } = await ownProject(baseURL(), 'Policy Phone');
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: baseURL() });
  const page = await context.newPage();
  const problems = await watchPolicies(page);
  await page.goto('/m');
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
  await expect.poll(() => page.locator('.hero-swiper').evaluate((element) => Boolean((element as HTMLElement & { swiper?: unknown }).swiper))).toBe(true);
  await page.goto(`/m/d-${project.id}`);
  await expect(page.getByRole('heading', { level: 1, name: project.title })).toBeVisible();
  await page.locator('[data-reaction="star"]').dispatchEvent('touchstart');
  await expect(page.locator('astro-island:has([data-reaction="star"])')).not.toHaveAttribute('ssr');
  expect(problems).toEqual([]);
  await context.close();
});

test('the API reference renders under the policy from this origin alone', async ({ page }) => {
  const problems = await watchPolicies(page);
  // Scalar's own servers (fonts, telemetry, its API client) are off: every request stays here.
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^https?:$/.test(url.protocol) && url.origin !== baseURL()) elsewhere.push(request.url());
  });
  await page.goto('/api/docs');
  // The reference has read /api/openapi.json and rendered its operations (Scalar reads and checks
  // the whole document in the browser: seconds, on a slow machine). Its bundle's copy of zod no
  // longer probes `new Function` (src/integrations/scalar-standalone.mjs), so no `'eval'` report.
  await expect(page.getByRole('heading', { name: 'Search projects' }).first()).toBeVisible({ timeout: 30_000 });
  expect(problems).toEqual([]);
  expect(elsewhere).toEqual([]);
});

test('a script that found its way into a page does not run, and the browser reports it', async ({ page }) => {
  const problems = await watchPolicies(page);
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Featured' })).toBeVisible();
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
    const image = document.createElement('img');
    image.setAttribute('onerror', 'window.__injected = true;');
    image.src = 'data:,broken';
    document.body.append(image);
    return new Promise((resolve) => setTimeout(() => resolve((window as unknown as { __injected?: boolean }).__injected ?? false), 300));
  });
  expect(ran).toBe(false);
  await expect.poll(() => problems.filter((problem) => problem.includes('script-src')).length).toBeGreaterThanOrEqual(2);
});
