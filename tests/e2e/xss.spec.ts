import { expect, test, type Page } from '@playwright/test';
import { api, signUp } from './project-helpers.ts';

/**
 * Script-shaped text in every field a member writes, rendered where others read it. Each payload
 * would set `window.__pwned` or open a dialog if anything ran; the pages must show it as text.
 */
const PAYLOADS = [
  '<script>window.__pwned="script"</script>',
  '"><img src=x onerror="window.__pwned=\'img\'">',
  "'><svg onload=window.__pwned='svg'>",
  '<a href="javascript:window.__pwned=\'link\'">x</a>',
  '{{constructor.constructor("window.__pwned=1")()}}',
  '</title><script>window.__pwned="title"</script>',
  '<mark onmouseover="window.__pwned=\'mark\'">hl</mark>',
];

async function expectInert(page: Page, path: string, dialogs: string[]) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await page.mouse.move(200, 300);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), path).toBeUndefined();
  const active = await page.evaluate(() =>
    [...document.querySelectorAll('main *')].flatMap((element) =>
      [...element.attributes]
        .filter((attribute) => /^on/i.test(attribute.name) || /^\s*javascript:/i.test(attribute.value))
        .map((attribute) => `${element.tagName} ${attribute.name}=${attribute.value}`),
    ),
  );
  expect(active, path).toEqual([]);
  expect(dialogs, path).toEqual([]);
}

test('script-shaped text in names, profiles, projects, comments and search stays text everywhere it is shown', async ({ page, baseURL }) => {
  const tag = Date.now().toString(36);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const author = await signUp(page.context().request, 'Mallory');
  const request = page.context().request;
  const payload = PAYLOADS.join(' ');

  const edited = await api(request, 'user/edit', { nickname: `Mal <b>${tag}</b>`.slice(0, 30), bio: payload.slice(0, 300), location: PAYLOADS[1]!.slice(0, 60), website: 'https://example.com/?q="><script>window.__pwned=1</script>' });
  expect(edited.retCode, JSON.stringify(edited)).toBe(0);
  const project = await api(request, 'release/saveProject', {
    title: `${tag} ${PAYLOADS[0]}`.slice(0, 100),
    summary: payload.slice(0, 200),
    description: PAYLOADS.map((text) => `- ${text}`).join('\n'),
    licence: 'MIT',
    publish: true,
  });
  expect(project.retCode, JSON.stringify(project)).toBe(0);
  const comment = await api(request, 'comment/submit', { id: project.result.id, content: payload });
  expect(comment.retCode, JSON.stringify(comment)).toBe(0);
  const reply = await api(request, 'comment/reply', { commentId: comment.result.id, content: PAYLOADS.slice().reverse().join(' ') });
  expect(reply.retCode, JSON.stringify(reply)).toBe(0);

  for (const path of [
    `/d-${project.result.id}`,
    `/m/d-${project.result.id}`,
    `/d-${project.result.id}?comment=${comment.result.id}`,
    `/user/${author.url}`,
    `/user/${author.url}/profile`,
    `/m/user/${author.url}`,
    '/newest',
    `/search?q=${encodeURIComponent(tag)}`,
    `/search?q=${encodeURIComponent(`${tag} <script>window.__pwned=1</script>`)}`,
    `/m/search?q=${encodeURIComponent('"><svg onload=window.__pwned=1>')}`,
  ]) {
    await expectInert(page, path, dialogs);
  }
  // The text is there to read, as text.
  await page.goto(`/d-${project.result.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('<script>window.__pwned="script"</script>');
  await expect(page.locator('#comments')).toContainText('onerror=');
  await expect(page).toHaveTitle(new RegExp(tag));
  expect(baseURL).toBeTruthy();
});
