import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { hydrated } from './conversation-helpers.ts';
import { firstProjects } from './helpers.ts';
import { registerAsVisitor } from './visitor.ts';

/** The accounts flow in Chromium: sign-up, the header menu, the avatar cropper, the profile. */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A colourful test picture: quadrants make a crop visible in the result. */
async function testPicture(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="#14532d"/>
    <rect width="${width / 2}" height="${height / 2}" fill="#b0521d"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#f1c7ad"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function signUpFrom(page: Page, nickname: string) {
  const email = `browser-${unique()}@example.com`;
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/sso\/login\?redirect=.+&siteId=copperhub&platform=6$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Copperhub' })).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/sso\/register\?redirect=/);
  await page.getByLabel('Nickname').fill(nickname);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('solder-bridge-42');
  await page.getByRole('button', { name: 'Create account' }).click();
  return email;
}

test('sign up from a project page, come back signed in, change avatar and custom URL, sign out', async ({ page, request }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  const [project] = await firstProjects(request, 1);
  expect(project, 'the demo content has projects').toBeTruthy();
  const start = `/d-${project!.id}`;
  await page.goto(start);
  await expect(page.getByRole('heading', { level: 1, name: project!.title })).toBeVisible();

  const nickname = `Maker ${unique()}`;
  await signUpFrom(page, nickname);

  // Back on the same project page, signed in: the header shows the menu instead of "Sign in".
  await expect(page).toHaveURL(new RegExp(`${start}$`));
  await expect(page.getByRole('heading', { level: 1, name: project!.title })).toBeVisible();
  const menuButton = page.getByRole('button', { name: `Account menu of ${nickname}` });
  await expect(menuButton).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name === 'token');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  // No script of the page can read the session: not from the cookie, not from the page or its islands' state.
  const seenByScripts = await page.evaluate(() => document.cookie + document.documentElement.outerHTML);
  expect(seenByScripts).not.toContain(session!.value);

  // The menu: keyboard accessible, above everything, Escape closes it (once its code has come).
  await hydrated(page, '.site-header');
  await menuButton.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'My projects' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Stars' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeFocused();
  expect(Number(await page.locator('.user-menu-list').evaluate((element) => getComputedStyle(element).zIndex))).toBeGreaterThanOrEqual(2000);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  for (const name of ['My projects', 'Stars', 'Drafts', 'Messages', 'Profile', 'Create a project', 'Sign out']) {
    await expect(page.getByRole('menuitem', { name, includeHidden: true })).toHaveCount(1);
  }

  // To the profile through the menu.
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/user\/maker-[a-z0-9-]+\/profile$/);
  const oldUrl = new URL(page.url()).pathname.split('/')[2]!;
  await expect(page.getByRole('heading', { name: 'Edit profile' })).toBeVisible();
  const headerAvatar = page.getByTestId('header-avatar');
  const initialAvatar = await headerAvatar.getAttribute('src');
  expect(initialAvatar).toMatch(/^data:image\/svg\+xml/);

  // A file that is not an image: the cropper says so and nothing changes.
  await expect(page.getByRole('button', { name: 'Change avatar' })).toBeEnabled();
  await page.getByTestId('avatar-file').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  const dialog = page.getByRole('dialog', { name: 'Crop image' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveText('This image could not be opened. Choose a JPEG, PNG, WebP or GIF file.');
  await expect(dialog.getByRole('button', { name: 'Use this crop' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(headerAvatar).toHaveAttribute('src', initialAvatar!);
  // An empty file is an image-load error too.
  await page.getByTestId('avatar-file').setInputFiles({ name: 'empty.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(0) });
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Change avatar' })).toBeFocused();

  // A real picture, larger than 2000 px: crop it with the buttons and the keyboard.
  await page.getByTestId('avatar-file').setInputFiles({ name: 'board.png', mimeType: 'image/png', buffer: await testPicture(2600, 1400) });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('cropper-stage')).toHaveAttribute('data-status', 'ready');
  const selection = dialog.locator('cropper-selection');
  const first = await selection.boundingBox();
  expect(first!.width).toBeGreaterThan(50);
  expect(Math.abs(first!.width - first!.height)).toBeLessThanOrEqual(2); // 1:1
  await dialog.getByRole('button', { name: 'Rotate right' }).click();
  await dialog.getByRole('button', { name: 'Zoom in' }).click();
  const before = await selection.boundingBox();
  await dialog.getByRole('button', { name: 'Move selection left' }).click();
  await dialog.getByTestId('cropper-stage').focus();
  await page.keyboard.press('ArrowUp');
  const moved = await selection.boundingBox();
  expect(moved!.x).toBeLessThan(before!.x);
  expect(moved!.y).toBeLessThan(before!.y);
  expect(Math.abs(moved!.width - moved!.height)).toBeLessThanOrEqual(2);
  await dialog.getByRole('button', { name: 'Use this crop' }).click();
  await expect(dialog).toBeHidden();

  // The new avatar shows in the header at once, and in the profile banner.
  await expect(headerAvatar).toHaveAttribute('src', /^\/files\/images\/[a-z0-9]{2}\/[a-z0-9]+\.webp$/);
  const newAvatar = await headerAvatar.getAttribute('src');
  await expect(page.getByRole('status').filter({ hasText: 'Your new avatar is saved.' })).toBeVisible();
  await expect(page.locator('[data-profile-avatar]')).toHaveAttribute('src', newAvatar!);
  expect(await headerAvatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(512);
  await page.reload();
  await expect(page.getByTestId('header-avatar')).toHaveAttribute('src', newAvatar!);

  // A non-image sent straight to the upload endpoint from this browser is refused; the avatar stays.
  const refused = await page.evaluate(async () => {
    const body = new FormData();
    body.append('purpose', 'avatar');
    body.append('file', new Blob(['GIF89a? no, just text'], { type: 'image/gif' }), 'avatar.gif');
    const response = await fetch('/api/upload', { method: 'POST', body });
    return { status: response.status, body: await response.json() };
  });
  expect(refused).toMatchObject({ status: 415, body: { retCode: 415, errorKey: 'unsupported_type' } });
  await page.reload();
  await expect(page.getByTestId('header-avatar')).toHaveAttribute('src', newAvatar!);

  // Change the custom URL: a reserved one is refused inline, a free one is saved.
  const urlField = page.getByLabel('Custom URL');
  await urlField.fill('admin');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('This address is reserved. Choose another one.')).toBeVisible();
  await expect(urlField).toHaveAttribute('aria-invalid', 'true');
  const newUrl = `renamed-${unique()}`;
  await urlField.fill(newUrl);
  await page.getByLabel('About you').fill('I design small boards.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/user/${newUrl}/profile\\?saved=1$`));
  await expect(page.getByTestId('profile-saved')).toHaveText('Your profile is saved.');
  await expect(page.getByRole('banner').getByRole('button', { name: `Account menu of ${nickname}` })).toBeVisible();
  await expect(page.locator('.profile-banner')).toContainText('I design small boards.');
  await page.goto(`/user/${oldUrl}`);
  await expect(page).toHaveURL(new RegExp(`/user/${newUrl}$`));

  // Sign out through the menu: back home as a guest.
  await page.getByRole('button', { name: `Account menu of ${nickname}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect((await page.context().cookies()).find((cookie) => cookie.name === 'token')).toBeUndefined();
  await page.goto(`/user/${newUrl}/message`);
  await expect(page.getByText('Sign in to see this page.')).toBeVisible();
  expect(errors).toEqual([]);
});

test('the SSO forms check fields inline, in the visitor language, and show server errors', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
  await page.goto('/sso/register');
  await expect(page.getByRole('heading', { name: '注册铜汇 Copperhub 账号' })).toBeVisible();
  await page.getByRole('button', { name: '注册账号' }).click();
  await expect(page.locator('[data-error-for="nickname"]')).toHaveText('此项为必填项。');
  await expect(page.getByLabel('昵称')).toBeFocused();
  await expect(page.getByLabel('昵称')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('昵称').fill('测试用户');
  await page.getByLabel('邮箱').fill('not-an-email');
  await page.getByLabel('密码', { exact: true }).fill('short');
  await page.getByRole('button', { name: '注册账号' }).click();
  await expect(page.locator('[data-error-for="email"]')).toHaveText('请输入有效的邮箱地址。');
  await expect(page.locator('[data-error-for="password"]')).toHaveText('密码至少需要 8 个字符。');
  await expect(page.locator('[data-error-for="nickname"]')).toBeHidden();

  // The password can be shown.
  await page.getByRole('button', { name: '显示密码' }).click();
  await expect(page.getByLabel('密码', { exact: true })).toHaveAttribute('type', 'text');

  // A taken email comes back from the server as a field error.
  const email = `zh-${unique()}@example.com`;
  const first = await registerAsVisitor({ email, password: 'solder-bridge-42', nickname: '先来的' });
  expect(first.body.retCode).toBe(0);
  await page.getByLabel('邮箱').fill(email);
  await page.getByLabel('密码', { exact: true }).fill('solder-bridge-42');
  await page.getByRole('button', { name: '注册账号' }).click();
  await expect(page.locator('[data-error-for="email"]')).toHaveText('该邮箱已注册，请直接登录。');

  // Sign-in with a wrong password: one message, whatever was wrong.
  await page.getByRole('link', { name: '去登录' }).click();
  await page.getByLabel('邮箱').fill(email);
  await page.getByLabel('密码', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '邮箱或密码不正确。' })).toBeVisible();
});

test('the SSO pages work without JavaScript', async ({ browser, baseURL }) => {
  const taken = `taken-${unique()}@example.com`;
  expect((await registerAsVisitor({ email: taken, password: 'solder-bridge-42', nickname: 'First' })).body.retCode).toBe(0);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/sso/register?redirect=${encodeURIComponent(`${baseURL}/newest`)}&siteId=copperhub&platform=6`);
  await page.getByLabel('Nickname').fill('No Script');
  await page.getByLabel('Email').fill(taken);
  await page.getByLabel('Password', { exact: true }).fill('solder-bridge-42');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The server answers the form itself, with the field error and the values kept.
  await expect(page.locator('[data-error-for="email"]')).toHaveText('An account with this email already exists. Sign in instead.');
  await expect(page.getByLabel('Email')).toHaveValue(taken);
  await expect(page.getByLabel('Nickname')).toHaveValue('No Script');
  await page.getByLabel('Email').fill(`nojs-${unique()}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('solder-bridge-42');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(`${baseURL}/newest`);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  await context.close();
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the profile editor works on /m/user/{url}/profile', async ({ page, baseURL }) => {
    const email = `mobile-${unique()}@example.com`;
    const registered = await registerAsVisitor({ email, password: 'solder-bridge-42', nickname: 'Mobile Maker', redirect: `${baseURL}/m` });
    await page.goto(registered.body.result.location);
    await expect(page).toHaveURL(`${baseURL}/m`);
    const info = await (await page.request.post('/api/user/getUserInfo', { data: {} })).json();
    expect(info.retCode).toBe(0);
    await page.goto(`/m/user/${info.result.url}/profile`);
    await expect(page.getByRole('heading', { name: 'Edit profile' })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.getByLabel('Location').fill('Hangzhou');
    await page.getByLabel('Website').fill('ftp://example.com');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Enter an address starting with http:// or https://.')).toBeVisible();
    await page.getByLabel('Website').fill('https://mobile.example');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/m/user/${info.result.url}/profile\\?saved=1$`));
    await expect(page.getByTestId('profile-saved')).toBeVisible();
    await expect(page.locator('.profile-banner')).toContainText('Hangzhou');
    // Another visitor sees the public profile, not the editor.
    const guest = await page.context().browser()!.newContext({ viewport: { width: 390, height: 844 } });
    const other = await guest.newPage();
    await other.goto(`${baseURL}/m/user/${info.result.url}/profile`);
    await expect(other.getByRole('link', { name: 'https://mobile.example' })).toBeVisible();
    await expect(other.getByRole('heading', { name: 'Edit profile' })).toHaveCount(0);
    await expect(other.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    await guest.close();

    // The owner signs out from their page (the mobile layout has no header menu).
    await page.goto(`/m/user/${info.result.url}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/(m)?$/);
    expect((await (await page.request.post('/api/user/getUserInfo', { data: {} })).json()).retCode).toBe(401);
  });
});
