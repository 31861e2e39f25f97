import { expect, type Page } from '@playwright/test';
import { countLoads } from './chunk-guard.ts';
import { signUp } from './project-helpers.ts';

const WORDS = {
  'en-US': { notice: 'A new version of Copperhub is out.', reload: 'Reload', title: /^Title/ },
  'zh-CN': { notice: 'Copperhub 有新版本了。', reload: '重新加载', title: /^标题/ },
} as const;

/** A new deployment as the tab learns of it: another build id, and the tab coming back into view. */
async function deployAndReturn(page: Page): Promise<void> {
  await page.route('**/_build/latest.json', (route) => route.fulfill({ json: { id: 'a-newer-build' } }));
  const comeBack = () =>
    page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
  await comeBack(); // asks for the build id, and learns it changed
  await page.waitForTimeout(500);
  await comeBack(); // back again: the new version is offered
}

/**
 * After a deployment a tab with something typed into its form is never reloaded (no "leave site?"
 * prompt, nothing lost): it offers the new version quietly; a tab with nothing typed reloads.
 */
export async function newVersionJourney(page: Page, prefix: '' | '/m', locale: keyof typeof WORDS): Promise<void> {
  await signUp(page.context().request, 'Deploy Watcher');
  await page.goto(`${prefix}/create/project`);
  await page.context().addCookies([{ name: 'i18n_redirected', value: locale, url: page.url() }]);
  await page.reload();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const loads = countLoads(page);
  const prompts: string[] = [];
  let leaving = false;
  page.on('dialog', (dialog) => {
    prompts.push(dialog.type());
    // Until the reader leaves on purpose, a "leave site?" prompt would be the tab reloading under them.
    void (leaving ? dialog.accept() : dialog.dismiss());
  });
  await page.getByRole('textbox', { name: WORDS[locale].title }).fill('Half-written synth');
  await deployAndReturn(page);
  const notice = page.getByRole('status').filter({ hasText: WORDS[locale].notice });
  await expect(notice).toBeVisible();
  await page.waitForTimeout(1000);
  expect(loads()).toBe(0);
  expect(prompts).toEqual([]);
  await expect(page.getByRole('textbox', { name: WORDS[locale].title })).toHaveValue('Half-written synth');

  // A page where nothing was typed takes the new version by itself.
  await page.unrouteAll({ behavior: 'wait' });
  leaving = true;
  await page.goto(`${prefix}/newest`);
  const before = loads();
  await deployAndReturn(page);
  await expect.poll(loads, { timeout: 10_000 }).toBe(before + 1);
}
