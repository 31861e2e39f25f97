import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { projects } from '../../src/server/db/schema/index.ts';
import { PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { child, children, parseXml, text, W3C_DATETIME } from '../helpers/xml.ts';

// With the guest page cache on: what a reader is shown after a log changes is what the purge left.
const app = useApp({ pageCache: {} });

let owner: Awaited<ReturnType<typeof createUser>>;
let reader: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

beforeAll(async () => {
  owner = await createUser({ nickname: 'Log Owner' });
  reader = await createUser({ nickname: 'Log Reader' });
  projectId = (await createProject(owner.user.id, { title: 'Nixie clock' })).publicId;
});

async function post(name: string, body: unknown, token: string) {
  return app.request(`/api/${name}`, { method: 'POST', body, token });
}

describe('build log pages', () => {
  it('show a new log on the Logs tab, at its own address (desktop and /m) and in the project’s Atom feed, past the guest page cache', async () => {
    const empty = await app.request(`/d-${projectId}/logs`);
    expect(empty.status).toBe(200);
    expect(empty.body).toContain('No build logs yet.');
    expect((await app.request(`/d-${projectId}/logs`)).headers['x-page-cache']).toBe('hit');

    const image = await createUpload(owner.user.id, { purpose: 'image', name: 'tubes.png', mime: 'image/png', data: 'png', width: 640, height: 480 });
    const saved = await post('log/save', { id: projectId, title: 'Tubes glow <3', content: `First light on all six **IN-14** tubes.\n\n![tubes](${image.url})` }, owner.token);
    expect(saved.status).toBe(200);
    expect(saved.json<{ result: { n: number; path: string } }>().result).toMatchObject({ n: 1, path: `/d-${projectId}/log/1` });

    const tab = await app.request(`/d-${projectId}/logs`);
    expect(tab.headers['x-page-cache']).toBe('miss');
    expect(tab.body).toContain('Tubes glow &lt;3');
    expect(tab.body).toContain(`href="/d-${projectId}/log/1"`);
    expect(tab.body).toMatch(/Logs<span class="tab-count">1<\/span>/);

    const page = await app.request(`/d-${projectId}/log/1`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<strong>IN-14</strong>');
    expect(page.body).toContain(`src="${image.url}"`);
    expect(page.body).toContain('"@type":"BlogPosting"');
    expect(page.body).toContain(`<meta property="og:title" content="Tubes glow <3 · Nixie clock">`);
    expect(page.body).toContain(`href="${app.origin()}/d-${projectId}/feed.xml"`);
    const mobile = await app.request(`/m/d-${projectId}/log/1`, { headers: { 'user-agent': PHONE_UA } });
    expect(mobile.status).toBe(200);
    expect(mobile.body).toContain('<strong>IN-14</strong>');

    const feed = await app.request(`/d-${projectId}/feed.xml`);
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toContain('application/atom+xml');
    const atom = child(parseXml(feed.body), 'feed');
    expect(text(atom, 'title')).toContain('Nixie clock');
    const [entry] = children(atom, 'entry');
    expect(text(entry, 'title')).toBe('Tubes glow <3');
    expect(text(entry, 'id')).toBe(`${app.origin()}/d-${projectId}/log/1`);
    expect(text(entry, 'published')).toMatch(W3C_DATETIME);
    expect(text(entry, 'content')).toContain('<strong>IN-14</strong>');
    // A feed has no phone version: its /m address leads to the one document.
    const mirrored = await app.request(`/m/d-${projectId}/feed.xml`);
    expect(mirrored.status).toBe(301);
    expect(mirrored.headers.location).toBe(`/d-${projectId}/feed.xml`);
    expect((await app.request(`/d-${projectId}`)).body).toContain(`type="application/atom+xml" title="Atom feed of this project’s build logs" href="${app.origin()}/d-${projectId}/feed.xml"`);
  });

  it('refuse a member who does not own the project, in the reader’s language, and change nothing', async () => {
    const refused = await app.request('/api/log/save', { method: 'POST', body: { id: projectId, title: 'Not mine', content: 'Hello' }, token: reader.token, headers: { 'accept-language': 'zh-CN' } });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ errorKey: 'log_owner_only', message: '只有项目作者可以发布或修改制作日志。' });
    const list = await app.request(`/api/log/list?id=${projectId}`);
    expect(list.json<{ result: { total: number } }>().result.total).toBe(1);
  });

  it('leave with the log when it is deleted: its page is gone, the tab and the feed no longer show it', async () => {
    await post('log/save', { id: projectId, title: 'Short-lived', content: 'A mistake.' }, owner.token);
    expect((await app.request(`/d-${projectId}/log/2`)).status).toBe(200);
    expect((await post('log/del', { id: projectId, n: 2 }, owner.token)).status).toBe(200);
    const gone = await app.request(`/d-${projectId}/log/2`);
    expect(gone.status).toBe(404);
    expect(gone.body).toContain('This build log does not exist or was deleted.');
    expect((await app.request(`/d-${projectId}/logs`)).body).not.toContain('Short-lived');
    expect((await app.request(`/d-${projectId}/feed.xml`)).body).not.toContain('Short-lived');
  });

  it('keep a hidden project’s logs from guests: page and feed answer 404', async () => {
    const hidden = await createProject(owner.user.id, { title: 'Hidden kit' });
    await post('log/save', { id: hidden.publicId, title: 'Secret', content: 'Not for guests.' }, owner.token);
    await getDb().update(projects).set({ hiddenAt: new Date() }).where(eq(projects.id, hidden.id));
    expect((await app.request(`/d-${hidden.publicId}/log/1`)).status).toBe(404);
    expect((await app.request(`/d-${hidden.publicId}/feed.xml`)).status).toBe(404);
    expect((await app.request(`/d-${hidden.publicId}/log/1`, { token: owner.token })).status).toBe(200);
  });
});
