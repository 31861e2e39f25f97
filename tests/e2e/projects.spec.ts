import { deflateSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { api, signUp } from './project-helpers.ts';
import { GOOGLEBOT_UA } from './helpers.ts';

const GERBER = 'G04 Copperhub e2e*\n%FSLAX46Y46*%\n%MOMM*%\nD10*\nX0Y0D02*\nX1000000Y0D01*\nM02*\n';

/** A 1200×900 PNG (solid copper colour) built in memory, for cover uploads. */
function pngImage(width = 1200, height = 900): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [0xb0, 0x52, 0x1d]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

test.describe('projects over HTTP', () => {
  test('a draft stays private until published; then it is in newest, on its page and in search', async ({ playwright, baseURL }) => {
    const alice = await playwright.request.newContext({ baseURL });
    const me = await signUp(alice, 'Alice Draft');
    const stamp = Date.now().toString(36);
    const title = `示波器探头 ${stamp} probe`;
    // a browser sends its Origin with a multipart form; Astro's origin check requires it
    const upload = await alice.post('/api/upload', { headers: { origin: baseURL! }, multipart: { purpose: 'attachment', file: { name: 'probe-gerbers.gbr', mimeType: 'application/octet-stream', buffer: Buffer.from(GERBER) } } });
    const file = (await upload.json()).result;
    expect(file).toMatchObject({ name: 'probe-gerbers.gbr', mime: 'application/vnd.gerber' });

    const draft = await api(alice, 'release/saveProject', {
      title,
      summary: 'An active probe for cheap oscilloscopes',
      description: `Calibrating the attenuators takes a trimmer screwdriver. Marker ${stamp}.`,
      tags: [],
      licence: 'CERN-OHL-W-2.0',
      attachments: [file.id],
      publish: false,
    });
    expect(draft).toMatchObject({ retCode: 0, result: { status: 'draft' } });
    const draftId = draft.result.id as string;

    const detail = await api(alice, 'temporary/detail', { id: draftId });
    expect(detail.result).toMatchObject({ id: draftId, title, attachments: [file.id] });
    expect((await api(alice, 'temporary/status', { id: draftId })).result).toMatchObject({ id: draftId, status: 'draft' });
    expect((await api(alice, 'user/getUserProjectStatusCount')).result).toEqual({ published: 0, draft: 1 });
    expect((await api(alice, 'user/getUserProjectList', { status: 'draft' })).result.list.map((d: { id: string }) => d.id)).toEqual([draftId]);
    expect(await (await alice.get(`/user/${me.url}/draftbox`)).text()).toContain(title);
    const listed = await api(alice, 'project/list', { sort: 'newest', pageSize: 50 });
    expect(listed.result.list.map((card: { title: string }) => card.title)).not.toContain(title);
    expect((await api(alice, 'project/search', { q: stamp })).result.total).toBe(0);

    const published = await api(alice, 'release/saveProject', { ...detail.result, draftId, publish: true });
    expect(published).toMatchObject({ retCode: 0, result: { status: 'published' } });
    const id = published.result.id as string;
    expect((await api(alice, 'temporary/detail', { id: draftId })).status).toBe(404);

    expect(await (await alice.get('/newest')).text()).toContain(title);
    const page = await alice.get(`/d-${id}`);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain(title);
    // an English word of the description (stemmed: "calibrate" finds "Calibrating") and a Chinese substring of the title
    for (const q of ['calibrate', 'attenuator', '波器探']) {
      const found = await api(alice, 'project/search', { q });
      expect({ q, ids: found.result.list.map((card: { id: string }) => card.id) }).toEqual({ q, ids: expect.arrayContaining([id]) });
    }
    const highlighted = (await api(alice, 'project/search', { q: '示波器' })).result.list.find((card: { id: string }) => card.id === id);
    expect(highlighted.highlight.title).toContain('<mark>示波器</mark>');
    expect(await (await alice.get(`/search?q=${encodeURIComponent(stamp)}`)).text()).toContain(`/d-${id}`);

    // downloads are counted, views once per visitor per day and never for crawlers
    const [attachment] = (await api(alice, 'project/detail', { id })).result.attachments;
    const download = await alice.get(attachment.url);
    expect(download.headers()['content-disposition']).toContain('attachment; filename="probe-gerbers.gbr"');
    expect(await download.text()).toBe(GERBER);
    const guest = await playwright.request.newContext({ baseURL });
    await guest.get(`/d-${id}`);
    await guest.get(`/d-${id}`);
    await guest.get(`/d-${id}`, { headers: { 'user-agent': GOOGLEBOT_UA } });
    await expect
      .poll(async () => (await api(guest, 'project/detail', { id })).result.counts.views)
      .toBe(2); // alice once, the guest once
    expect((await api(guest, 'project/detail', { id })).result.attachments[0].downloadCount).toBe(1);
    await alice.dispose();
    await guest.dispose();
  });

  test("another user's edit, delete and draft reads fail and change nothing", async ({ playwright, baseURL }) => {
    const owner = await playwright.request.newContext({ baseURL });
    const intruder = await playwright.request.newContext({ baseURL });
    await signUp(owner, 'Owner Olga');
    await signUp(intruder, 'Intruder Ivan');
    const created = await api(owner, 'release/saveProject', { title: 'Olga’s LED matrix', licence: 'MIT', publish: true });
    const id = created.result.id as string;
    const draft = await api(owner, 'release/saveProject', { title: 'Olga’s secret plan', publish: false });
    const before = (await api(owner, 'project/detail', { id })).result;

    const edit = await api(intruder, 'release/editProject', { id, title: 'Pwned', licence: 'MIT', publish: true });
    expect([403, 404]).toContain(edit.retCode);
    expect(edit.status).toBe(edit.retCode);
    expect((await api(intruder, 'release/editProject', { id, title: 'Pwned', publish: false })).retCode).toBe(403);
    expect((await api(intruder, 'project/del', { id })).retCode).toBe(403);
    expect((await api(intruder, 'temporary/detail', { id: draft.result.id })).retCode).toBe(404);
    expect((await api(intruder, 'temporary/del', { id: draft.result.id })).retCode).toBe(404);
    // a guest is asked to sign in
    const guest = await playwright.request.newContext({ baseURL });
    expect((await api(guest, 'project/del', { id })).retCode).toBe(401);

    const after = (await api(owner, 'project/detail', { id })).result;
    expect(after).toEqual(before);
    expect((await api(owner, 'temporary/detail', { id: draft.result.id })).result.title).toBe('Olga’s secret plan');

    expect((await api(owner, 'project/del', { id })).result).toEqual({ id });
    expect((await owner.get(`/d-${id}`)).status()).toBe(404);
    await Promise.all([owner.dispose(), intruder.dispose(), guest.dispose()]);
  });

  test('a star counts once however often it is sent; value false and delStarProject remove it', async ({ playwright, baseURL }) => {
    const maker = await playwright.request.newContext({ baseURL });
    const fan = await playwright.request.newContext({ baseURL });
    await signUp(maker, 'Maker Mia');
    const fanUser = await signUp(fan, 'Fan Finn');
    const id = (await api(maker, 'release/saveProject', { title: 'Star magnet', licence: 'MIT', publish: true })).result.id;

    expect((await api(fan, 'project/star', { id, value: true })).result).toEqual({ starred: true, starCount: 1 });
    expect((await api(fan, 'project/star', { id, value: true })).result).toEqual({ starred: true, starCount: 1 });
    expect((await api(fan, 'project/detail', { id })).result).toMatchObject({ counts: { stars: 1 }, viewer: { starred: true } });
    expect((await api(fan, 'user/getStarProjectList', { url: fanUser.url })).result.list.map((card: { id: string }) => card.id)).toEqual([id]);
    expect((await api(fan, 'project/star', { id, value: false })).result).toEqual({ starred: false, starCount: 0 });
    expect((await api(fan, 'project/like', { id, value: true })).result).toEqual({ liked: true, likeCount: 1 });
    expect((await api(fan, 'project/like', { id, value: true })).result).toEqual({ liked: true, likeCount: 1 });
    await api(fan, 'project/star', { id, value: true });
    expect((await api(fan, 'user/delStarProject', { id })).result).toEqual({ starred: false, starCount: 0 });
    expect((await api(fan, 'user/getStarProjectList', { url: fanUser.url })).result.total).toBe(0);
    await Promise.all([maker.dispose(), fan.dispose()]);
  });
});

test.describe('projects in Chromium', () => {
  test('a hostile description renders with nothing active', async ({ page }) => {
    await signUp(page.context().request, 'Mallory Markdown');
    const description = [
      '# Totally normal board',
      '<script>window.__pwned = "script"</script>',
      '<img src=x onerror="window.__pwned = \'img\'">',
      '[click me](javascript:window.__pwned=\'link\')',
      '<a href="data:text/html,<script>alert(1)</script>">data link</a>',
      '<iframe src="javascript:window.top.__pwned=\'iframe\'"></iframe>',
      '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
      '<style>body { display: none }</style>',
      '<details open ontoggle="window.__pwned = \'details\'"><summary>More</summary>Text</details>',
    ].join('\n\n');
    const created = await api(page.context().request, 'release/saveProject', { title: 'Hostile markdown', description, licence: 'MIT', publish: true });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`/d-${created.result.id}`);
    const prose = page.locator('.prose');
    await expect(prose.getByRole('heading', { name: 'Totally normal board' })).toBeVisible();
    await expect(page.locator('body')).toBeVisible();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await prose.locator('script, iframe, svg, style, object, embed, form').count()).toBe(0);
    expect(await prose.locator('[onerror], [onload], [ontoggle], [onclick]').count()).toBe(0);
    expect(await prose.locator('a[href^="javascript:" i], a[href^="data:" i], img[src^="data:" i]').count()).toBe(0);
    // the refused Markdown link stays visible as plain text and clicking around does nothing
    await expect(prose).toContainText('[click me]');
    await prose.getByText('data link').click();
    await prose.getByText('More').click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  test('create a project with a cropped cover, description, tag, licence and attachment; draft, preview, publish, search', async ({ page }) => {
    await signUp(page.context().request, 'Creator Cleo');
    const stamp = Date.now().toString(36);
    const title = `Thermal camera 热成像 ${stamp}`;
    await page.goto('/create/project');
    await expect(page.getByRole('heading', { level: 1, name: 'Share a project' })).toBeVisible();

    await page.getByRole('textbox', { name: /^Title/ }).fill(title);
    await page.getByRole('textbox', { name: 'Summary' }).fill('A MLX90640 thermal camera with a colour display');
    await page.getByTestId('cover-input').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: pngImage() });
    const cropper = page.getByRole('dialog', { name: 'Crop image' });
    await expect(cropper).toBeVisible();
    await cropper.getByRole('button', { name: 'Use this crop' }).click();
    await expect(cropper).toBeHidden();
    const cover = page.getByRole('img', { name: 'Cover image' });
    await expect(cover).toHaveAttribute('src', /^\/files\/images\//);
    // the cropped cover is 4:3
    const size = await cover.evaluate((img: HTMLImageElement) => new Promise<[number, number]>((resolve) => (img.complete ? resolve([img.naturalWidth, img.naturalHeight]) : img.addEventListener('load', () => resolve([img.naturalWidth, img.naturalHeight])))));
    expect(Math.abs(size[0] / size[1] - 4 / 3)).toBeLessThan(0.02);

    await page.getByRole('textbox', { name: 'Markdown' }).fill(`## Why\n\nSeeing **heat** leaks in walls. Marker ${stamp}.`);
    await expect(page.getByTestId('live-preview').getByRole('heading', { name: 'Why' })).toBeVisible();
    await expect(page.getByTestId('live-preview').locator('strong')).toHaveText('heat');

    const tags = page.getByRole('combobox', { name: 'Tags' });
    await tags.fill('esp3');
    await page.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option', { name: /^ESP32/ }).click();
    await expect(page.getByRole('list', { name: 'Chosen tags' })).toContainText('ESP32');
    await page.getByRole('combobox', { name: /^Licence/ }).selectOption('CERN-OHL-S-2.0');

    // a slowed-down upload shows its progress bar before it completes
    await page.route('**/api/upload', async (route) => {
      if (route.request().postDataBuffer()?.includes('name="purpose"\r\n\r\nattachment')) await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByTestId('attachment-input').setInputFiles({ name: 'camera-gerbers.gbr', mimeType: 'application/octet-stream', buffer: Buffer.from(GERBER.repeat(2000)) });
    const progress = page.getByRole('progressbar', { name: 'Uploading camera-gerbers.gbr' });
    await expect(progress).toBeVisible();
    await expect(page.getByText('Uploaded', { exact: true })).toBeVisible();
    await expect(progress).toBeHidden();

    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByTestId('form-status')).toContainText('Draft saved');
    await expect(page).toHaveURL(/\/create\/project\?draft=[a-z0-9]+$/);

    const [preview] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Preview', exact: true }).click()]);
    await expect(preview).toHaveURL(/\/preview\?id=[a-z0-9]+&token=/);
    await expect(preview.getByTestId('preview-banner')).toBeVisible();
    await expect(preview.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(preview.locator('.prose').getByRole('heading', { name: 'Why' })).toBeVisible();
    await expect(preview.getByText('camera-gerbers.gbr')).toBeVisible();
    await preview.close();

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(/\/create\/success\?id=[a-z0-9]+$/);
    await expect(page.getByRole('heading', { name: 'Your project is published' })).toBeVisible();
    const id = new URL(page.url()).searchParams.get('id')!;
    await expect(page.getByRole('link', { name: 'Share on X' })).toHaveAttribute('href', /twitter\.com\/intent\/tweet/);
    await expect(page.getByRole('link', { name: 'Create another project' })).toHaveAttribute('href', '/create/project');

    await page.getByRole('searchbox', { name: 'Search projects' }).fill(stamp);
    await page.getByRole('searchbox', { name: 'Search projects' }).press('Enter');
    await expect(page).toHaveURL(/\/search\?q=/);
    const result = page.getByRole('link', { name: title });
    await expect(result).toBeVisible();
    await result.click();
    await expect(page).toHaveURL(new RegExp(`/d-${id}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('link', { name: 'camera-gerbers.gbr' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Tags' }).first()).toContainText('ESP32');
  });

  test('a guest pressing star signs in and comes back to a starred project', async ({ page, playwright, baseURL }) => {
    const other = await playwright.request.newContext({ baseURL });
    await signUp(other, 'Publisher Pat');
    const id = (await api(other, 'release/saveProject', { title: 'Guest-starred board', licence: 'MIT', publish: true })).result.id;
    const fan = await playwright.request.newContext({ baseURL });
    const account = await signUp(fan, 'Guest Gabi');

    await page.goto(`/d-${id}`);
    const star = page.getByRole('button', { name: /^(☆|★)?\s*Star/ });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    await expect(page).toHaveURL(/\/sso\/login\?/);
    expect(new URL(new URL(page.url()).searchParams.get('redirect')!).searchParams.get('intent')).toBe('star');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('solder-fumes-42');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`/d-${id}$`)); // intent handled and removed from the URL
    await expect(page.getByRole('button', { name: /Starred/ })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => (await api(other, 'project/detail', { id })).result.counts.stars).toBe(1);
    await page.reload();
    await expect(page.getByRole('button', { name: /Starred/ })).toHaveAttribute('aria-pressed', 'true');
    await Promise.all([other.dispose(), fan.dispose()]);
  });

  test('star and like roll back with a message when the server refuses', async ({ page }) => {
    await signUp(page.context().request, 'Rollback Rita');
    const id = (await api(page.context().request, 'release/saveProject', { title: 'Flaky network board', licence: 'MIT', publish: true })).result.id;
    await page.goto(`/d-${id}`);
    await page.route('**/api/project/like', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ retCode: 500, errorKey: 'internal', message: 'x' }) }));
    const like = page.getByRole('button', { name: /Like/ });
    await like.click();
    await expect(page.getByRole('alert')).toContainText('Could not change your like');
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await expect(like).toContainText('0');
    await page.unroute('**/api/project/like');
    await like.click();
    await expect(page.getByRole('button', { name: /Liked/ })).toHaveAttribute('aria-pressed', 'true');
  });

  test('owners delete drafts and projects after confirming, and unstar from their stars page', async ({ page }) => {
    const me = await signUp(page.context().request, 'Tidy Tara');
    const request = page.context().request;
    await api(request, 'release/saveProject', { title: 'Draft to throw away', publish: false });
    const starred = (await api(request, 'release/saveProject', { title: 'Tara’s tidy board', licence: 'MIT', publish: true })).result.id;
    await api(request, 'project/star', { id: starred, value: true });

    await page.goto(`/user/${me.url}/draftbox`);
    const row = page.getByRole('listitem').filter({ hasText: 'Draft to throw away' });
    await row.getByRole('button', { name: /Delete draft/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this draft?' });
    await confirm.getByRole('button', { name: 'Delete draft' }).click();
    await expect(row).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Deleted the draft' })).toBeVisible();
    expect((await api(request, 'user/getUserProjectStatusCount')).result.draft).toBe(0);

    await page.goto(`/user/${me.url}/stars`);
    await page.getByRole('button', { name: `Remove your star from Tara’s tidy board` }).click();
    await expect(page.getByRole('button', { name: `Star Tara’s tidy board again` })).toBeVisible();
    expect((await api(request, 'project/detail', { id: starred })).result.counts.stars).toBe(0);

    await page.goto(`/d-${starred}`);
    await page.getByRole('button', { name: 'Delete project' }).click();
    await page.getByRole('dialog', { name: 'Delete this project?' }).getByRole('button', { name: 'Delete project' }).click();
    await expect(page).toHaveURL(new RegExp(`/user/${me.url}$`));
    expect((await page.request.get(`/d-${starred}`)).status()).toBe(404);
  });

  test('editing keeps the published version until the update, and the form survives a reload', async ({ page }) => {
    await signUp(page.context().request, 'Editor Eli');
    const request = page.context().request;
    const id = (await api(request, 'release/saveProject', { title: 'Original title', summary: 'v1', licence: 'MIT', publish: true })).result.id;
    await page.goto(`/d-${id}`);
    await page.getByRole('link', { name: 'Edit project' }).click();
    await expect(page).toHaveURL(new RegExp(`/create/project\\?id=${id}$`));
    const titleField = page.getByRole('textbox', { name: /^Title/ });
    await expect(titleField).toHaveValue('Original title');
    await titleField.fill('Edited title');
    // the local copy survives a reload (beforeunload asks first; accept it)
    page.on('dialog', (dialog) => void dialog.accept());
    await page.waitForTimeout(600);
    await page.reload();
    await expect(page.getByRole('textbox', { name: /^Title/ })).toHaveValue('Edited title');
    await expect(page.getByRole('status').filter({ hasText: 'We restored changes' })).toBeVisible();

    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByTestId('form-status')).toContainText('Draft saved');
    expect((await api(request, 'project/detail', { id })).result.title).toBe('Original title');
    await page.getByRole('button', { name: 'Update project' }).click();
    await expect(page).toHaveURL(new RegExp(`/create/success\\?id=${id}&updated=1$`));
    await expect(page.getByRole('heading', { name: 'Your changes are live' })).toBeVisible();
    expect((await api(request, 'project/detail', { id })).result.title).toBe('Edited title');
    expect((await api(request, 'user/getUserProjectStatusCount')).result).toEqual({ published: 1, draft: 0 });
  });

  test('publishing with missing fields shows translated inline errors', async ({ page, baseURL }) => {
    await signUp(page.context().request, 'Hasty Hana');
    await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: baseURL! }]);
    await page.goto('/create/project');
    await page.getByRole('button', { name: '发布' }).click();
    await expect(page.getByText('请填写项目标题。')).toBeVisible();
    await expect(page.getByText('请选择发布所用的开源协议。')).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^标题/ })).toBeFocused();
    await expect(page.getByRole('textbox', { name: /^标题/ })).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('discovery', () => {
  test('newest filters by tag with the tag tree, recommend and collections answer, search has an empty state', async ({ page }) => {
    await page.goto('/newest');
    await expect(page.getByRole('heading', { level: 1, name: 'Newest projects' })).toBeVisible();
    const filter = page.getByRole('navigation', { name: 'Filter by tag' });
    await filter.getByRole('link', { name: 'Microcontrollers' }).click();
    await expect(page).toHaveURL(/\/newest\?tag=microcontrollers$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tag: Microcontrollers' })).toBeVisible();
    await page.getByRole('list', { name: 'Tags within Microcontrollers' }).getByRole('link', { name: 'ESP32' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Tag: ESP32' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Tag location' }).getByRole('link', { name: 'Microcontrollers' })).toBeVisible();
    const esp32 = (await (await page.request.get('/api/tag/detail?slug=esp32')).json()).result.projectCount;
    expect(esp32).toBeGreaterThan(0);
    await expect(page.getByTestId('list-total')).toHaveText(`${esp32} projects`);
    await expect(page.locator('main article')).toHaveCount(Math.min(esp32, 24));

    await page.goto('/recommend');
    await expect(page.getByRole('heading', { level: 1, name: 'Recommended projects' })).toBeVisible();
    expect(await page.locator('main article').count()).toBeGreaterThan(4);

    await page.goto('/search?q=zzzzqqqq');
    await expect(page.getByRole('heading', { name: 'No projects match “zzzzqqqq”' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Popular tags' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Newest projects' })).toBeVisible();

    await page.goto('/m/search?q=ESP32');
    await expect(page.getByTestId('search-total')).toContainText('match “ESP32”');
    await expect(page.locator('main mark').first()).toBeVisible();
  });
});
