import { describe, expect, it } from 'vitest';
import enUS from '../../locales/en-US.json';
import zhCN from '../../locales/zh-CN.json';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

const app = useApp();

const post = (path: string, body: Record<string, unknown>, token?: string, headers: Record<string, string> = {}) =>
  app.request(`/api/${path}`, { method: 'POST', body, token, headers });

function expectRefused(response: AppResponse, status: number, errorKey: string, message: string) {
  expect(response.status, response.body).toBe(status);
  expect(response.json()).toMatchObject({ retCode: status, errorKey, message });
}

describe('members’ collections over HTTP', () => {
  it('build a collection through the API, and a private one is not found by anyone else, in their language', async () => {
    const curator = await createUser({ nickname: 'HTTP Curator' });
    const stranger = await createUser({ nickname: 'HTTP Stranger' });
    const maker = await createUser();
    const [first, second] = [await createProject(maker.user.id, { title: 'First' }), await createProject(maker.user.id, { title: 'Second' })];

    const made = await post('collection/save', { title: 'Bench tools', description: 'For the lab', public: false }, curator.token);
    expect(made.json()).toMatchObject({ retCode: 0, result: { slug: 'bench-tools', public: false, projectCount: 0 } });
    for (const project of [first, second]) expect((await post('collection/add', { slug: 'bench-tools', id: project.publicId }, curator.token)).json()).toMatchObject({ retCode: 0 });
    const moved = await post('collection/move', { slug: 'bench-tools', id: second.publicId, position: 0 }, curator.token);
    expect(moved.json()).toMatchObject({ result: { projects: [second.publicId, first.publicId], collection: { projectCount: 2 } } });

    // Read by its owner (GET too), with the cards in their order.
    const own = await app.request(`/api/collection/get?url=${curator.user.customUrl}&slug=bench-tools`, { token: curator.token });
    expect(own.json()).toMatchObject({ result: { isOwner: true, collection: { title: 'Bench tools' }, projects: { total: 2, list: [{ title: 'Second' }, { title: 'First' }] } } });

    // Anyone else: not found, in their language; the list leaves it out.
    const get = { url: curator.user.customUrl, slug: 'bench-tools' };
    expectRefused(await post('collection/get', get), 404, 'collection_not_found', enUS.errors.collection_not_found);
    expectRefused(await post('collection/get', get, stranger.token, { 'accept-language': 'zh-CN' }), 404, 'collection_not_found', zhCN.errors.collection_not_found);
    expect((await post('collection/list', { url: curator.user.customUrl }, stranger.token)).json()).toMatchObject({ result: { list: [], isOwner: false } });
    // Its page too.
    expect((await app.request(`/user/${curator.user.customUrl}/collections/bench-tools`)).status).toBe(404);
    expect((await app.request(`/user/${curator.user.customUrl}/collections/bench-tools`, { token: curator.token })).status).toBe(200);

    // Adding twice is refused in the member's language, and changes nothing.
    expectRefused(
      await post('collection/add', { slug: 'bench-tools', id: first.publicId }, curator.token, { 'accept-language': 'zh-CN' }),
      409,
      'collection_project_duplicate',
      zhCN.errors.collection_project_duplicate,
    );
    // A title too long or missing is refused by field.
    const invalid = await post('collection/save', { title: '   ', public: true }, curator.token);
    expect(invalid.json()).toMatchObject({ retCode: 400, errorKey: 'validation', fields: { title: expect.any(String) } });
    const list = await post('collection/list', { url: curator.user.customUrl, project: first.publicId }, curator.token);
    expect(list.json()).toMatchObject({ result: { isOwner: true, list: [{ slug: 'bench-tools', projectCount: 2, hasProject: true }] } });

    // Made public, a guest reads it; deleted, it is gone for everyone.
    await post('collection/save', { slug: 'bench-tools', title: 'Bench tools', public: true }, curator.token);
    expect((await post('collection/get', get)).json()).toMatchObject({ retCode: 0, result: { isOwner: false, projects: { total: 2 } } });
    expect((await app.request(`/user/${curator.user.customUrl}/collections/bench-tools`)).status).toBe(200);
    expect((await post('collection/del', { slug: 'bench-tools' }, curator.token)).json()).toMatchObject({ retCode: 0, result: { slug: 'bench-tools' } });
    expectRefused(await post('collection/get', get, curator.token), 404, 'collection_not_found', enUS.errors.collection_not_found);
    expect((await app.request(`/user/${curator.user.customUrl}/collections/bench-tools`)).status).toBe(404);
  });
});
