import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema/index.ts';
import { editProfile, invalidateSession } from '../../src/server/services/accounts/index.ts';
import { tidyIslands } from '../../src/server/page-cache/places.ts';
import { keepFirstMessageBlocks } from '../../src/server/page-cache/messages.ts';
import { DESKTOP_UA, GOOGLEBOT_UA, PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

const app = useApp({ pageCache: {} });

let owner: Awaited<ReturnType<typeof createUser>>;
let reader: Awaited<ReturnType<typeof createUser>>;
let moderator: Awaited<ReturnType<typeof createUser>>;
const projectIds: string[] = [];

beforeAll(async () => {
  owner = await createUser({ nickname: 'Fill Owner' });
  reader = await createUser({ nickname: 'Fill Reader' });
  moderator = await createUser({ nickname: 'Fill Moderator', role: 'moderator' });
  for (const title of ['Filled clock kit', 'Filled motor driver', 'Filled weather station']) projectIds.push((await createProject(owner.user.id, { title })).publicId);
});

/**
 * A page as one render of it would be: Astro numbers islands (`prefix`, the `useId` values made
 * from it) in the order it renders them and hashes each one's HTML into `uid`; neither means
 * anything but "unique on this page", so both are put in page order before comparing. A page
 * rendered whole writes each island's blocks of messages before it, where the cache keeps the
 * first of each namespace on the pages it fills (`keepFirstMessageBlocks`): the same messages,
 * before the same islands.
 */
const asOneRender = (html: string) => keepFirstMessageBlocks(tidyIslands([html])).replace(/ uid="[^"]*"/g, '');

/**
 * A project page with its view count left out: no write announces a view, so a page from the cache
 * shows the count of up to 30 s ago, to guests and members alike (docs/pages-and-speed.md), while
 * a page rendered whole counts the views up to its own.
 */
const withoutViews = (html: string) => html.replace(/(data-project-count="views">)[^<]*/, '$1');

/** Where two pages part, with some of each around it; null when they are the same. */
function difference(a: string, b: string): string | null {
  if (a === b) return null;
  let at = 0;
  while (at < a.length && a[at] === b[at]) at += 1;
  return `at ${at}:\n  filled: …${a.slice(Math.max(0, at - 200), at + 200)}…\n  whole:  …${b.slice(Math.max(0, at - 200), at + 200)}…`;
}

const PAGES = ['/', '/newest', '/newest?page=1&sort=hot', '/search?q=filled', '/recommend', '/m', '/m/newest', '/m/search?q=filled'];

/** The member's page filled in, and the same page rendered for them whole (through a Bearer token, never filled). */
async function bothWays(page: string, member: typeof reader, locale: string) {
  const headers = { cookie: `i18n_redirected=${locale}`, ...(page.startsWith('/m') ? { 'user-agent': PHONE_UA } : {}) };
  const filled = await app.request(page, { token: member.token, headers });
  const whole = await app.request(page, { headers: { ...headers, authorization: `Bearer ${member.token}` } });
  expect(whole.headers['x-page-cache'], page).toBeUndefined();
  return { filled, whole };
}

describe("a member's page filled in from the guest page", () => {
  it('equals the page rendered for them in full, on every fillable list page, in both languages, for a member and for staff', async () => {
    for (const member of [reader, moderator]) {
      for (const locale of ['en-US', 'zh-CN']) {
        for (const page of PAGES) {
          const { filled, whole } = await bothWays(page, member, locale);
          expect(filled.status, page).toBe(200);
          expect(filled.headers['x-page-cache'], page).toBe('fill');
          expect(filled.headers['cache-control'], page).toBe('private, no-store');
          expect(filled.body, page).toContain(`/user/${member.user.customUrl}`);
          expect(filled.body, page).not.toContain('<!--place');
          expect(difference(asOneRender(filled.body), asOneRender(whole.body)), `${page} ${locale} ${member.user.nickname}`).toBeNull();
        }
      }
    }
  });

  it("equals it on a project page too, with the member's star, like, follow and comments, and is not used for its owner or staff", async () => {
    const [id] = projectIds;
    const writes = [
      app.request('/api/comment/submit', { method: 'POST', token: owner.token, body: { id, content: 'The owner speaks first' } }),
      app.request('/api/comment/submit', { method: 'POST', token: reader.token, body: { id, content: 'A reader answers' } }),
      app.request('/api/project/star', { method: 'POST', token: reader.token, body: { id, value: true } }),
      app.request('/api/project/like', { method: 'POST', token: reader.token, body: { id, value: true } }),
      app.request('/api/follow/set', { method: 'POST', token: reader.token, body: { kind: 'project', target: id, value: true } }),
    ];
    for (const answer of await Promise.all(writes)) expect(answer.json<{ retCode: number }>().retCode).toBe(0);
    for (const locale of ['en-US', 'zh-CN']) {
      for (const page of [`/d-${id}`, `/d-${id}?commentSort=oldest`, `/m/d-${id}`, `/d-${projectIds[1]}`]) {
        const { filled, whole } = await bothWays(page, reader, locale);
        expect(filled.status, page).toBe(200);
        expect(filled.headers['x-page-cache'], page).toBe('fill');
        expect(difference(withoutViews(asOneRender(filled.body)), withoutViews(asOneRender(whole.body))), `${page} ${locale}`).toBeNull();
      }
    }
    const mine = await app.request(`/d-${id}`, { token: reader.token });
    expect(mine.body).toContain('A reader answers');
    expect(mine.body).toMatch(/&quot;starred&quot;:\[0,true\]/);
    // Its owner (edit and delete, the design's processing) and staff (hidden content) get it whole.
    for (const member of [owner, moderator]) {
      const page = await app.request(`/d-${id}`, { token: member.token });
      expect(page.status).toBe(200);
      expect(page.headers['x-page-cache'], member.user.nickname).toBeUndefined();
    }
  });

  it("keeps every member's data out of the guest page", async () => {
    await app.request('/newest', { token: reader.token });
    const guest = await app.request('/newest');
    expect(guest.headers['x-page-cache']).toBe('hit');
    expect(guest.body).not.toContain('Fill Reader');
    expect(guest.body).not.toContain('<!--place');
    expect(guest.body).not.toContain('data-testid="save-to-collection"');
    expect(guest.body).toContain('Filled clock kit');
  });

  it('fills a member in with what is theirs now, and answers an expired session as a guest', async () => {
    await app.request('/newest', { token: reader.token });
    await editProfile(reader.user.id, { nickname: 'Fill Reader Renamed' });
    const renamed = await app.request('/newest', { token: reader.token });
    expect(renamed.headers['x-page-cache']).toBe('fill');
    expect(renamed.body).toContain('Fill Reader Renamed');

    const stale = await app.request('/newest', { token: 'no-such-session-token' });
    expect(stale.status).toBe(200);
    expect(stale.headers['x-page-cache']).toBeUndefined();
    expect(stale.body).toContain('/sso/login');
    expect(stale.body).not.toContain('Fill Reader');
  });

  it('is compressed as the browser accepts', async () => {
    const plain = await app.request('/newest', { token: reader.token });
    const { hostname, port } = new URL(app.origin());
    for (const [accept, decode] of [['br, gzip', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      const answer = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get({ host: hostname, port, path: '/newest', headers: { 'user-agent': DESKTOP_UA, 'accept-encoding': accept, cookie: `token=${reader.token}` } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
      expect(answer.headers['x-page-cache']).toMatch(/^(fill|member-hit)$/);
      expect(answer.headers['content-encoding']).toBe(accept.split(',')[0]);
      // Text compresses to well under half (a page holds each block of its islands' messages once).
      expect(answer.body.length).toBeLessThan(plain.body.length / 2.5);
      expect(asOneRender(decode(answer.body).toString())).toBe(asOneRender(plain.body));
    }
  });

  it('keeps a member\'s page for them alone, and shows at once what changed for them', async () => {
    const [id] = projectIds;
    const own = (await createProject(reader.user.id, { title: 'Reader’s own tracker' })).publicId;
    const first = await app.request(`/d-${id}`, { token: reader.token });
    expect(first.headers['x-page-cache']).toBe('fill');
    const again = await app.request(`/d-${id}`, { token: reader.token });
    expect(again.headers['x-page-cache']).toBe('member-hit');
    expect(again.headers['cache-control']).toBe('private, no-store');
    expect(again.body).toBe(first.body);
    // Another member's page is not theirs.
    const other = await app.request(`/d-${id}`, { token: moderator.token });
    expect(other.body).toContain('Signed in as Fill Moderator');
    expect(other.body).not.toContain('Signed in as Fill Reader');

    // Their own write: the next view shows it.
    const starred = await app.request('/api/project/star', { method: 'POST', token: reader.token, body: { id, value: false } });
    expect(starred.json<{ retCode: number }>().retCode).toBe(0);
    const afterStar = await app.request(`/d-${id}`, { token: reader.token });
    expect(afterStar.headers['x-page-cache']).toBe('fill');
    expect(afterStar.body).toMatch(/&quot;starred&quot;:\[0,false\]/);

    // What someone else did for them: a star on their project brings a message, counted in the header at once.
    const home = await app.request('/', { token: reader.token });
    const unreadBefore = Number(/unreadMessages&quot;:\[0,(\d+)\]/.exec(home.body)?.[1]);
    expect((await app.request('/', { token: reader.token })).headers['x-page-cache']).toBe('member-hit');
    const star = await app.request('/api/project/star', { method: 'POST', token: owner.token, body: { id: own, value: true } });
    expect(star.json<{ retCode: number }>().retCode).toBe(0);
    const told = await app.request('/', { token: reader.token });
    expect(told.headers['x-page-cache']).toBe('fill');
    expect(told.body).toContain(`unreadMessages&quot;:[0,${unreadBefore + 1}]`);

    // Someone else's comment changes the page for everyone: the member's kept copy goes with the guests'.
    await app.request(`/d-${id}`, { token: reader.token });
    const comment = await app.request('/api/comment/submit', { method: 'POST', token: owner.token, body: { id, content: 'News from the owner' } });
    expect(comment.json<{ retCode: number }>().retCode).toBe(0);
    expect((await app.request(`/d-${id}`, { token: reader.token })).body).toContain('News from the owner');

    // Staff change their role: the header shows the staff area at once.
    await app.request('/', { token: reader.token });
    await getDb().update(users).set({ role: 'moderator' }).where(eq(users.id, reader.user.id));
    const promoted = await app.request('/', { token: reader.token });
    expect(promoted.body).toContain('href="/admin"');
    await getDb().update(users).set({ role: 'member' }).where(eq(users.id, reader.user.id));

    // Signed out: the same cookie gets the guest's page, never the one kept for them.
    const signedIn = await app.request('/newest', { token: reader.token });
    expect(signedIn.body).toContain('Signed in as Fill Reader');
    await invalidateSession(reader.token);
    const signedOut = await app.request('/newest', { token: reader.token });
    expect(signedOut.body).not.toContain('Signed in as Fill Reader');
    expect(signedOut.body).toContain('/sso/login');
  });

  it("keeps crawlers' pages without places: a member whose browser says it is a crawler gets theirs rendered whole", async () => {
    // Crawlers are cached apart and no member is filled from their pages, so those are rendered
    // without the marks of member places and kept without a template.
    const crawled = await app.request('/newest?crawled=1', { headers: { 'user-agent': GOOGLEBOT_UA } });
    expect(crawled.headers['x-page-cache']).toBe('miss');
    expect((await app.request('/newest?crawled=1', { headers: { 'user-agent': GOOGLEBOT_UA } })).headers['x-page-cache']).toBe('hit');
    const member = await app.request('/newest?crawled=1', { token: owner.token, headers: { 'user-agent': GOOGLEBOT_UA } });
    expect(member.status).toBe(200);
    expect(member.headers['x-page-cache']).toBeUndefined();
    expect(member.headers['cache-control']).toBe('private, no-store');
    // Theirs: the cards' save buttons are a member's alone.
    expect(member.body).toContain('data-testid="save-to-collection"');
    expect(crawled.body).not.toContain('data-testid="save-to-collection"');
    expect(member.body).not.toContain('<!--place');
    // The same address from their browser is filled from the browsers' guest page.
    const browser = await app.request('/newest?crawled=1', { token: owner.token });
    expect(browser.headers['x-page-cache']).toBe('fill');
    expect(browser.body).toContain('data-testid="save-to-collection"');
  });

  it('never hands out the places render itself', async () => {
    const direct = await app.request('/places-fill', { token: reader.token });
    expect(direct.status).toBe(404);
    expect(direct.body).not.toContain('<!--place-->');
  });
});
