import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json' with { type: 'json' };
import { getDb } from '../../src/server/db/client.ts';
import { collectionProjects, collections, userUrlAliases, videos } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { GOOGLEBOT_UA, PHONE_UA, TABLET_UA, useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

const app = useApp();

// What tells the two layouts apart for a visitor: the desktop header's main navigation, or the
// mobile tab bar at the bottom of the screen.
const DESKTOP_NAV = `aria-label="${en.nav.primary}"`;
const MOBILE_TABS = `aria-label="${en.nav.mobileTabs}"`;

function expectLayout(response: AppResponse, variant: 'desktop' | 'mobile') {
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.body.includes(DESKTOP_NAV), `desktop navigation on a ${variant} page`).toBe(variant === 'desktop');
  expect(response.body.includes(MOBILE_TABS), `mobile tab bar on a ${variant} page`).toBe(variant === 'mobile');
}

/** The `/m` address of a desktop address, as the site links it. */
const mobile = (desktopPath: string) => (desktopPath === '/' ? '/m' : desktopPath.startsWith('/?') ? `/m${desktopPath.slice(1)}` : `/m${desktopPath}`);

let owner: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;
let projectId = '';
let videoId = '';

beforeAll(async () => {
  owner = await createUser({ nickname: 'Board Owner' });
  stranger = await createUser({ nickname: 'Someone Else' });
  admin = await createUser({ nickname: 'Site Admin', role: 'admin' });
  const project = await createProject(owner.user.id, { title: 'Ring oscillator kit' });
  projectId = project.publicId;
  const [collection] = await getDb().insert(collections).values({ name: 'starter-kits', titleEn: 'Starter kits', titleZh: '入门套件' }).returning();
  await getDb().insert(collectionProjects).values({ collectionId: collection!.id, projectId: project.id });
  videoId = newPublicId();
  await getDb()
    .insert(videos)
    .values({ id: videoId, ownerId: owner.user.id, projectId: project.id, title: 'Soldering the kit', storageKey: `videos/${videoId}.mp4`, mime: 'video/mp4', size: 1000, status: 'ready' });
});

type Viewer = 'guest' | 'owner' | 'stranger' | 'admin';

/** Every page route with the status it answers today, for one kind of visitor. */
function pageCases(): Array<{ path: string; viewer: Viewer; status: number; shows?: string }> {
  const user = owner.user.customUrl;
  return [
    { path: '/', viewer: 'guest', status: 200 },
    { path: '/', viewer: 'owner', status: 200 },
    { path: '/newest', viewer: 'guest', status: 200 },
    { path: '/search?q=oscillator', viewer: 'guest', status: 200, shows: 'A small test board' },
    { path: '/recommend', viewer: 'guest', status: 200 },
    { path: '/donation-list', viewer: 'guest', status: 200 },
    { path: `/d-${projectId}`, viewer: 'guest', status: 200, shows: 'Ring oscillator kit' },
    { path: `/d-${projectId}`, viewer: 'owner', status: 200, shows: 'Ring oscillator kit' },
    { path: `/eda/${projectId}`, viewer: 'guest', status: 200, shows: 'Ring oscillator kit' },
    { path: `/video/player?id=${videoId}`, viewer: 'guest', status: 200, shows: 'Soldering the kit' },
    { path: '/collection/starter-kits', viewer: 'guest', status: 200, shows: 'Starter kits' },
    { path: `/user/${user}`, viewer: 'guest', status: 200, shows: 'Board Owner' },
    { path: `/user/${user}/stars`, viewer: 'guest', status: 200, shows: 'Board Owner' },
    { path: `/user/${user}/video`, viewer: 'guest', status: 200, shows: 'Soldering the kit' },
    { path: `/user/${user}/profile`, viewer: 'guest', status: 200, shows: 'Board Owner' },
    // Owner-only tabs: a sign-in prompt for guests, the tab for its owner, not found for others.
    { path: `/user/${user}/message`, viewer: 'guest', status: 200, shows: en.nav.signIn },
    { path: `/user/${user}/message`, viewer: 'owner', status: 200 },
    { path: `/user/${user}/message`, viewer: 'stranger', status: 404 },
    { path: `/user/${user}/draftbox`, viewer: 'guest', status: 200, shows: en.nav.signIn },
    { path: `/user/${user}/draftbox`, viewer: 'owner', status: 200 },
    { path: `/user/${user}/draftbox`, viewer: 'stranger', status: 404 },
    { path: '/preview?id=some-preview', viewer: 'guest', status: 200, shows: en.nav.signIn },
    { path: '/preview?id=some-preview', viewer: 'owner', status: 404 },
    { path: '/create/project', viewer: 'owner', status: 200 },
    { path: `/create/success?id=${projectId}`, viewer: 'owner', status: 200, shows: 'Ring oscillator kit' },
    { path: `/create/success?id=${projectId}`, viewer: 'stranger', status: 404 },
    // The staff area: a sign-in prompt for guests, not found for members, the section for admins.
    ...['/admin', '/admin/banners', '/admin/collections', '/admin/recommendations', '/admin/tags'].flatMap((path) => [
      { path, viewer: 'guest' as const, status: 200, shows: en.nav.signIn },
      { path, viewer: 'stranger' as const, status: 404 },
      { path, viewer: 'admin' as const, status: 200, shows: en.admin.sectionsLabel },
    ]),
    { path: '/admin/collections', viewer: 'admin', status: 200, shows: 'Starter kits' },
    // Not found, in the layout of the address asked for.
    { path: '/d-doesnotexist', viewer: 'guest', status: 404, shows: en.errors.project_not_found },
    { path: '/eda/doesnotexist', viewer: 'guest', status: 404 },
    { path: '/video/player?id=doesnotexist', viewer: 'guest', status: 404 },
    { path: '/video/player', viewer: 'guest', status: 404 },
    { path: '/collection/doesnotexist', viewer: 'guest', status: 404 },
    { path: '/user/doesnotexist', viewer: 'guest', status: 404 },
    { path: `/user/${user}/doesnotexist`, viewer: 'guest', status: 404 },
    { path: '/preview', viewer: 'guest', status: 404 },
    { path: '/no/such/page', viewer: 'guest', status: 404 },
  ];
}

const tokenOf = (viewer: Viewer) => (viewer === 'owner' ? owner.token : viewer === 'stranger' ? stranger.token : viewer === 'admin' ? admin.token : undefined);

describe('pages and their /m mirror', () => {
  it('answer the same status on desktop and under /m, each in its own layout', async () => {
    for (const { path, viewer, status, shows } of pageCases()) {
      const token = tokenOf(viewer);
      const desktop = await app.request(path, { token });
      const phone = await app.request(mobile(path), { token });
      expect(desktop.status, `${path} as ${viewer}`).toBe(status);
      expect(phone.status, `${mobile(path)} as ${viewer}`).toBe(status);
      expectLayout(desktop, 'desktop');
      expectLayout(phone, 'mobile');
      if (shows) {
        expect(desktop.body, `${path} as ${viewer}`).toContain(shows);
        expect(phone.body, `${mobile(path)} as ${viewer}`).toContain(shows);
      }
    }
  });

  it('shows staff the way to their area, on desktop in the header and on a phone on their own page', async () => {
    const staffLink = /<a class="btn" href="(\/m)?\/admin">Staff<\/a>/;
    expect((await app.request('/newest', { token: admin.token })).body).toMatch(staffLink);
    expect((await app.request(`/m/user/${admin.user.customUrl}`, { token: admin.token })).body).toMatch(staffLink);
    expect((await app.request('/newest', { token: owner.token })).body).not.toMatch(staffLink);
    expect((await app.request(`/m/user/${owner.user.customUrl}`, { token: owner.token })).body).not.toMatch(staffLink);
  });

  it('marks signed-in pages private and leaves guest pages cacheable and cookie-free', async () => {
    const guest = await app.request('/newest');
    expect(guest.headers['cache-control'] ?? '').not.toContain('private');
    expect(guest.headers['set-cookie']).toBeUndefined();
    for (const path of ['/', '/m', `/d-${projectId}`, '/m/newest', '/d-doesnotexist']) {
      const signedIn = await app.request(path, { token: owner.token });
      expect(signedIn.headers['cache-control'], path).toBe('private, no-store');
      expect(signedIn.body, path).toContain('Board Owner');
    }
  });

  it('answers crawlers with the status and a short plain body', async () => {
    const response = await app.request('/d-doesnotexist', { headers: { 'user-agent': GOOGLEBOT_UA } });
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('404 Page Not Found: /d-doesnotexist\n');
    const page = await app.request(`/d-${projectId}`, { headers: { 'user-agent': GOOGLEBOT_UA } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Ring oscillator kit');
  });

  it('speaks the language of the cookie, else of Accept-Language', async () => {
    const zh = await app.request('/newest', { headers: { 'accept-language': 'zh-TW,zh;q=0.9,en;q=0.5' } });
    expect(zh.body).toContain('<html lang="zh-CN"');
    const cookie = await app.request('/newest', { headers: { 'accept-language': 'zh-CN', cookie: 'i18n_redirected=en-US' } });
    expect(cookie.body).toContain('<html lang="en-US"');
    const other = await app.request('/m/newest', { headers: { 'accept-language': 'fr-FR,de;q=0.8' } });
    expect(other.body).toContain('<html lang="en-US"');
  });
});

describe('addresses without a mobile page', () => {
  it('answer the mobile 404 page under /m instead of reaching a desktop route', async () => {
    for (const path of ['/m/api/project/list', '/m/sso/login', '/m/m/newest']) {
      const response = await app.request(path, { token: owner.token });
      expect(response.status, path).toBe(404);
      expectLayout(response, 'mobile');
    }
  });
});

describe('redirects', () => {
  it('takes a former profile address to the current one, in the same variant, tab and query', async () => {
    await getDb().insert(userUrlAliases).values({ url: 'old-board-owner', userId: owner.user.id });
    for (const [from, to] of [
      ['/user/old-board-owner/stars?page=2', `/user/${owner.user.customUrl}/stars?page=2`],
      ['/m/user/old-board-owner', `/m/user/${owner.user.customUrl}`],
    ]) {
      const response = await app.request(from!);
      expect(response.status, from).toBe(301);
      expect(response.headers.location, from).toBe(to);
    }
  });

  it('sends phones from a desktop page to its /m mirror, keeping the query', async () => {
    const home = await app.request('/', { headers: { 'user-agent': PHONE_UA } });
    expect(home.status).toBe(302);
    expect(home.headers.location).toBe('/m');
    const project = await app.request(`/d-${projectId}?sort=hot`, { headers: { 'user-agent': PHONE_UA } });
    expect(project.status).toBe(302);
    expect(project.headers.location).toBe(`/m/d-${projectId}?sort=hot`);
    const stars = await app.request(`/user/${owner.user.customUrl}/stars`, { headers: { 'user-agent': PHONE_UA } });
    expect(stars.headers.location).toBe(`/m/user/${owner.user.customUrl}/stars`);
  });

  it('leaves phones on /m pages, tablets and desktops on desktop pages, and the API alone', async () => {
    const onMobile = await app.request('/m', { headers: { 'user-agent': PHONE_UA } });
    expect(onMobile.status).toBe(200);
    expectLayout(onMobile, 'mobile');
    const tablet = await app.request('/', { headers: { 'user-agent': TABLET_UA } });
    expect(tablet.status).toBe(200);
    expectLayout(tablet, 'desktop');
    const api = await app.request('/api/tag/list', { headers: { 'user-agent': PHONE_UA } });
    expect(api.status).toBe(200);
    expect(api.json()).toMatchObject({ retCode: 0 });
    const signInPage = await app.request('/sso/login', { headers: { 'user-agent': PHONE_UA } });
    expect(signInPage.status).toBe(200);
  });

  it('lets a phone opt out with ?desktop=1, remembered by a cookie until ?desktop=0', async () => {
    const optOut = await app.request('/?desktop=1', { headers: { 'user-agent': PHONE_UA } });
    expect(optOut.status).toBe(200);
    expectLayout(optOut, 'desktop');
    const cookie = (optOut.headers['set-cookie'] ?? []).find((line) => line.startsWith('prefer_desktop=1'));
    expect(cookie).toContain('Path=/');
    const later = await app.request('/newest', { headers: { 'user-agent': PHONE_UA, cookie: 'prefer_desktop=1' } });
    expect(later.status).toBe(200);
    expectLayout(later, 'desktop');
    const optIn = await app.request('/newest?desktop=0', { headers: { 'user-agent': PHONE_UA, cookie: 'prefer_desktop=1' } });
    expect(optIn.status).toBe(302);
    expect(optIn.headers.location).toBe('/m/newest?desktop=0');
  });

  it('sends guests on sign-in-only pages to the sign-in page with a way back', async () => {
    for (const path of ['/create/project', '/m/create/project', `/create/success?id=${projectId}`]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(302);
      const location = new URL(response.headers.location!, app.origin());
      expect(location.pathname).toBe('/sso/login');
      expect(location.searchParams.get('redirect')).toBe(`${app.origin()}${path}`);
      expect(location.searchParams.get('siteId')).toBe('copperhub');
      expect(location.searchParams.get('platform')).toBe('6');
    }
    const phone = await app.request('/create/project', { headers: { 'user-agent': PHONE_UA } });
    expect(phone.headers.location).toBe('/m/create/project');
  });
});
