import { expect, test } from '@playwright/test';
import { firstProjects, GOOGLEBOT_UA, IPHONE_UA } from './helpers.ts';

test('home shows banners, donations, recommended and newest projects, tags and collections', async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(page.getByRole('heading', { name: 'Recommended projects' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Newest projects' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Popular tags' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Collections' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Featured' })).toBeVisible();
  await expect(page.getByRole('complementary').filter({ hasText: 'Recent donations' })).toBeVisible();
  expect(await page.locator('#home-newest ~ * article, section[aria-labelledby="home-newest"] article').count()).toBeGreaterThanOrEqual(4);
  // the carousel element is upgraded by swiper in the browser
  await expect(page.locator('.hero-swiper')).toHaveJSProperty('swiper.initialized', true);
  // and its arrows move to the next banner
  const shownTitle = () => page.locator('.hero-swiper .swiper-slide-active .hero-title').innerText();
  const first = await shownTitle();
  await page.getByRole('button', { name: 'Next slide' }).click();
  await expect.poll(shownTitle).not.toBe(first);
  expect(consoleErrors).toEqual([]);
});

test('a project page shows the project from the database', async ({ page, request }) => {
  const [project] = await firstProjects(request, 1);
  expect(project).toBeTruthy();
  const response = await page.goto(`/d-${project!.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: project!.title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Description' })).toBeVisible();
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(1);
  await expect(page.locator('link[rel="alternate"][media]')).toHaveAttribute('href', new RegExp(`/m/d-${project!.id}$`));
  // the author's page is one click away
  await page.getByRole('link', { name: new RegExp(project!.owner.nickname) }).first().click();
  await expect(page).toHaveURL(new RegExp(`/user/${project!.owner.url}$`));
  await expect(page.getByRole('heading', { level: 1, name: project!.owner.nickname })).toBeVisible();
});

test('the language switcher turns the site Chinese and remembers it', async ({ page, context }) => {
  await page.goto('/newest');
  await page.getByLabel('Language').selectOption('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible();
  const cookie = (await context.cookies()).find((entry) => entry.name === 'i18n_redirected');
  expect(cookie?.value).toBe('zh-CN');
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(360 * 24 * 3600 * 1000);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: '推荐项目' })).toBeVisible();
  await page.getByLabel('语言').selectOption('en-US');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
});

test('Accept-Language zh-CN gives Chinese pages', async ({ request }) => {
  const html = await (await request.get('/', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } })).text();
  expect(html).toContain('<html lang="zh-CN"');
  expect(html).toContain('最新项目');
});

test.describe('mobile', () => {
  test.use({ userAgent: IPHONE_UA, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a phone opening a desktop URL lands on the /m mirror; ?desktop=1 opts out', async ({ page, request }) => {
    const [project] = await firstProjects(request, 1);
    await page.goto(`/d-${project!.id}`);
    await expect(page).toHaveURL(new RegExp(`/m/d-${project!.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: project!.title })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/d-${project!.id}$`));
    const tabs = page.getByRole('navigation', { name: 'Sections' });
    await expect(tabs.getByRole('link', { name: 'Home' })).toBeVisible();
    await tabs.getByRole('link', { name: 'Newest' }).click();
    await expect(page).toHaveURL(/\/m\/newest$/);
    await page.goto('/?desktop=1');
    await expect(page).toHaveURL(/\/\?desktop=1$/);
    await page.goto('/newest');
    await expect(page).toHaveURL(/\/newest$/); // remembered
  });
});

test('unknown paths and missing projects get the 404 page with a way home', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('error-message')).toHaveText('Page Not Found: /no/such/page');
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.goto('/d-doesnotexist'))?.status()).toBe(404);
  expect((await page.goto('/m/d-doesnotexist'))?.status()).toBe(404);
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/m');
  expect((await page.goto('/user/nobody-here-at-all'))?.status()).toBe(404);
});

test('crawlers get the status and a short plain body on errors', async ({ request }) => {
  const response = await request.get('/no/such/page', { headers: { 'user-agent': GOOGLEBOT_UA } });
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('text/plain');
  expect(await response.text()).toBe('404 Page Not Found: /no/such/page\n');
});

test('every route of the specification answers, desktop and mobile', async ({ request }) => {
  const [project] = await firstProjects(request, 1);
  const user = project!.owner.url;
  const list = await (await request.get('/api/donate/list?pageSize=1')).json();
  expect(list.result.total).toBeGreaterThanOrEqual(20);
  const ok = ['/', `/d-${project!.id}`, `/eda/${project!.id}`, '/newest', '/newest?page=2', '/recommend', '/search', '/search?q=board', '/donation-list', `/user/${user}`, `/user/${user}/stars`, `/user/${user}/video`, `/user/${user}/profile`];
  for (const path of ok) {
    for (const variantPath of [path, path === '/' ? '/m' : `/m${path}`]) {
      const response = await request.get(variantPath, { maxRedirects: 0 });
      expect({ path: variantPath, status: response.status() }).toEqual({ path: variantPath, status: 200 });
    }
  }
  for (const path of ['/create/project', '/create/success?id=x', '/m/create/project']) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    const location = new URL(response.headers().location!, 'http://x');
    expect(location.pathname).toBe('/sso/login');
    expect(location.searchParams.get('platform')).toBe('6');
    expect(location.searchParams.get('siteId')).toBeTruthy();
    expect(new URL(location.searchParams.get('redirect')!).pathname).toBe(path.split('?')[0]);
  }
  // owner-only tabs ask guests to sign in
  for (const path of [`/user/${user}/message`, `/user/${user}/draftbox`, `/m/user/${user}/message`]) {
    const html = await (await request.get(path)).text();
    expect(html).toContain('Sign in to see this page.');
  }
  const collections = await request.get('/');
  const name = /href="\/collection\/([^"]+)"/.exec(await collections.text())?.[1];
  expect(name).toBeTruthy();
  expect((await request.get(`/collection/${name}`)).status()).toBe(200);
  expect((await request.get(`/m/collection/${name}`)).status()).toBe(200);
  expect((await request.get('/collection/no-such-collection')).status()).toBe(404);
  expect((await request.get('/video/player?id=none')).status()).toBe(404);
});

test('the API answers the envelope', async ({ request }) => {
  const list = await (await request.get('/api/project/list?sort=hot&pageSize=3')).json();
  expect(list.retCode).toBe(0);
  expect(list.result).toMatchObject({ page: 1, pageSize: 3 });
  expect(list.result.list).toHaveLength(3);
  const missing = await request.post('/api/project/detail', { data: { id: 'nope' } });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ retCode: 404, message: 'This project does not exist.', errorKey: 'project_not_found' });
  const zh = await request.post('/api/project/detail', { data: { id: 'nope' }, headers: { 'accept-language': 'zh-CN' } });
  expect((await zh.json()).message).toBe('该项目不存在。');
  const invalid = await request.post('/api/project/list', { data: { sort: 'sideways' } });
  expect(invalid.status()).toBe(400);
  expect(await invalid.json()).toMatchObject({ retCode: 400, errorKey: 'validation', fields: { sort: 'invalid_value' } });
  for (const endpoint of ['tag/list', 'banner/list', 'donate/getIndexDonateScroll']) {
    const body = await (await request.get(`/api/${endpoint}`)).json();
    expect(body.retCode).toBe(0);
    expect(Array.isArray(body.result)).toBe(true);
    expect(body.result.length).toBeGreaterThan(0);
  }
  const tag = (await (await request.get('/api/tag/list')).json()).result[0];
  expect((await (await request.get(`/api/tag/detail?slug=${tag.slug}`)).json()).result.children.length).toBeGreaterThan(0);
  expect((await (await request.get(`/api/tag/getProjectList?slug=${tag.slug}`)).json()).retCode).toBe(0);
  const [project] = await firstProjects(request, 1);
  const user = await (await request.get(`/api/user/getCustomizeUrlUserInfo?url=${project!.owner.url}`)).json();
  expect(user.result).toMatchObject({ url: project!.owner.url, counts: { projects: expect.any(Number) } });
  expect((await (await request.get(`/api/user/getAppointUserProjectList?url=${project!.owner.url}`)).json()).result.total).toBeGreaterThan(0);
  expect((await (await request.get(`/api/user/getStarProjectList?url=${project!.owner.url}`)).json()).retCode).toBe(0);
  expect((await request.get('/api/nothing/here')).status()).toBe(404);
  const messages = await request.get('/_i18n/zh-CN/messages.json');
  expect(messages.headers()['cache-control']).toContain('max-age=86400');
  expect((await messages.json()).nav.home).toBe('首页');
  expect((await request.get('/_i18n/fr-FR/messages.json')).status()).toBe(404);
  const health = await (await request.get('/healthz')).json();
  expect(health).toMatchObject({ status: 'ok', database: 'up' });
});

test('a NUL character in an address or a body is refused cleanly, never a server error', async ({ request }) => {
  const page = await request.get('/d-%00');
  expect(page.status()).toBe(404);
  expect(await page.text()).toContain('Back to home');
  expect((await request.get('/m/user/%00x')).status()).toBe(404);
  const api = await request.get('/api/project/detail?id=%00');
  expect(api.status()).toBe(400);
  expect((await api.json()).errorKey).toBe('bad_request');
  const body = await request.post('/api/project/detail', { headers: { 'content-type': 'application/json' }, data: '{"id":"a\\u0000b"}' });
  expect(body.status()).toBe(400);
  expect(await body.json()).toMatchObject({ retCode: 400, errorKey: 'bad_request' });
});
