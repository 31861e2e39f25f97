import { beforeAll, describe, expect, it } from 'vitest';
import { PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

/**
 * The versions of a project through the built site: the API's list and diff, the Versions tab and
 * the comparison page, on desktop and `/m`, in both languages; a project from before versions
 * shows its version 1, and a version that does not exist is a translated answer.
 */
const app = useApp();
let owner: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

async function call(name: string, body: unknown, token?: string) {
  return app.request(`/api/${name}`, { method: 'POST', body, ...(token ? { token } : {}) });
}

beforeAll(async () => {
  owner = await createUser({ nickname: 'Version Keeper' });
  const project = await createProject(owner.user.id, { title: 'Versioned probe', publishedAt: new Date('2025-05-01T08:00:00Z') });
  projectId = project.publicId;
  const edited = await call(
    'release/editProject',
    { id: projectId, title: 'Versioned probe', summary: '', description: 'Second run.', tags: [], licence: 'MIT', attachments: [], publish: true, version: { name: 'rev B', notes: 'Thicker copper <b>bold</b>' } },
    owner.token,
  );
  expect(edited.status, edited.body).toBe(200);
});

describe('versions through the site', () => {
  it('lists a project’s versions newest first, the first one made for a project from before versions', async () => {
    const list = (await call('version/list', { id: projectId })).json<{ result: { list: { number: number; name: string; date: string }[] } }>().result.list;
    expect(list.map((version) => [version.number, version.name])).toEqual([
      [2, 'rev B'],
      [1, 'v1'],
    ]);
    expect(list[1]!.date).toBe('2025-05-01T08:00:00.000Z');
  });

  it('takes names written with dashes and common punctuation, and says which characters a refused name may hold', async () => {
    const edit = (name: string) =>
      call('release/editProject', { id: projectId, title: 'Versioned probe', summary: '', description: 'Again.', tags: [], licence: 'MIT', attachments: [], publish: true, version: { name } }, owner.token);
    const refused = await edit('v2 «final»');
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ errorKey: 'validation', fields: { 'version.name': 'version_name' } });
    for (const name of ['rev C – 2025-06', 'RC 2: rework, v1.1/B', 'Maker’s cut #3 & more']) {
      const released = await edit(name);
      expect(released.json<{ retCode: number }>().retCode, name).toBe(0);
    }
    const names = (await call('version/list', { id: projectId })).json<{ result: { list: { name: string }[] } }>().result.list.map((version) => version.name);
    expect(names).toEqual(expect.arrayContaining(['rev C – 2025-06', 'RC 2: rework, v1.1/B', 'Maker’s cut #3 & more']));
  });

  it('refuses a taken version name with a translated error, and compares two versions by name or number', async () => {
    const taken = await call('release/editProject', { id: projectId, title: 'Renamed', summary: '', description: '', tags: [], licence: 'MIT', attachments: [], publish: true, version: { name: 'REV b' } }, owner.token);
    expect(taken.status).toBe(409);
    expect(taken.json()).toMatchObject({ errorKey: 'version_name_taken', message: 'This project already has a version with that name. Choose another name.' });
    const diff = await call('version/diff', { id: projectId, from: 1, to: 'rev B' });
    expect(diff.json()).toMatchObject({ retCode: 0, result: { from: { name: 'v1' }, to: { name: 'rev B' }, bom: { added: [], removed: [], changed: [], present: false }, boards: [] } });
    const same = await call('version/diff', { id: projectId, from: 'v1', to: '1' });
    expect(same.status).toBe(400);
    expect(same.json()).toMatchObject({ errorKey: 'same_version' });
  });

  it('shows the Versions tab and the comparison on desktop and phones, notes as text, in both languages', async () => {
    const tab = await app.request(`/d-${projectId}/versions`);
    expect(tab.status).toBe(200);
    expect(tab.body).toContain('data-version="rev B"');
    expect(tab.body).toContain('Thicker copper &lt;b&gt;bold&lt;/b&gt;');
    expect(tab.body).not.toContain('<b>bold</b>');
    const phone = await app.request(`/m/d-${projectId}/versions`, { headers: { 'user-agent': PHONE_UA, 'accept-language': 'zh-CN' } });
    expect(phone.status).toBe(200);
    expect(phone.body).toContain('比较版本');
    const compare = await app.request(`/m/d-${projectId}/versions/compare?from=v1&to=rev%20B`, { headers: { 'user-agent': PHONE_UA } });
    expect(compare.status).toBe(200);
    expect(compare.body).toContain('What changed from v1 to rev B');
    expect(compare.body).toContain('Neither version has a BOM.');
    expect(compare.body).toContain('Neither version has a board.');
    const unknown = await app.request(`/d-${projectId}/versions/compare?from=v1&to=v9`, { headers: { 'accept-language': 'zh-CN' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('该版本不存在。');
  });
});
