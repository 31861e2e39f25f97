import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json' with { type: 'json' };
import zh from '../../locales/zh-CN.json' with { type: 'json' };
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';

const app = useApp();

let member: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

beforeAll(async () => {
  member = await createUser({ nickname: 'Api Member' });
  const tag = await createTag('sensors', 'Sensors', '传感器');
  projectId = (await createProject(member.user.id, { title: 'Soil moisture probe' }, [tag.id])).publicId;
});

/** Checks the error envelope `{ retCode, message, errorKey }` and its JSON headers. */
function expectError(response: AppResponse, status: number, errorKey: keyof typeof en.errors, messages = en.errors) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.json()).toMatchObject({ retCode: status, errorKey, message: messages[errorKey] });
}

describe('API envelope', () => {
  it('answers { retCode: 0, result } as uncached JSON', async () => {
    const response = await app.request('/api/tag/list');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ retCode: number; result: Array<{ slug: string; name: string }> }>();
    expect(body.retCode).toBe(0);
    expect(body.result).toEqual(expect.arrayContaining([expect.objectContaining({ slug: 'sensors', name: 'Sensors' })]));
  });

  it('reads GET queries and POST JSON bodies alike on read endpoints', async () => {
    const byQuery = await app.request(`/api/project/detail?id=${projectId}`);
    const byBody = await app.request('/api/project/detail', { method: 'POST', body: { id: projectId } });
    for (const response of [byQuery, byBody]) {
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({ retCode: 0, result: { title: 'Soil moisture probe' } });
    }
  });

  it('answers an unknown endpoint with unknown_endpoint, whatever the method', async () => {
    expectError(await app.request('/api/nope'), 404, 'unknown_endpoint');
    expectError(await app.request('/api/project/nope', { method: 'POST', body: {} }), 404, 'unknown_endpoint');
  });

  it('answers a method the endpoint does not take with method_not_allowed', async () => {
    expectError(await app.request('/api/comment/submit'), 405, 'method_not_allowed');
    // A browser names its origin on a DELETE; one from another site would be refused first.
    expectError(await app.request('/api/tag/list', { method: 'DELETE', headers: { origin: app.origin() } }), 405, 'method_not_allowed');
  });

  it('asks for a session on writes, by cookie or bearer token', async () => {
    expectError(await app.request('/api/project/star', { method: 'POST', body: { id: projectId, value: true } }), 401, 'unauthorized');
    const byCookie = await app.request('/api/project/star', { method: 'POST', body: { id: projectId, value: true }, token: member.token });
    expect(byCookie.json()).toMatchObject({ retCode: 0, result: { starred: true, starCount: 1 } });
    const byBearer = await app.request('/api/project/star', {
      method: 'POST',
      body: { id: projectId, value: false },
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(byBearer.json()).toMatchObject({ retCode: 0, result: { starred: false, starCount: 0 } });
  });

  it('refuses cross-site forms, bodies that are not JSON, broken JSON and invalid input', async () => {
    const post = (body: string, type: string, origin = app.origin()) =>
      app.request('/api/project/star', { method: 'POST', body, headers: { 'content-type': type, origin }, token: member.token });
    expectError(await post('id=x&value=true', 'application/x-www-form-urlencoded', 'https://elsewhere.example'), 403, 'cross_site_request');
    expectError(await post('id=x&value=true', 'application/x-www-form-urlencoded'), 415, 'unsupported_type');
    expectError(await post('{"id": ', 'application/json'), 400, 'bad_request');
    const invalid = await post(JSON.stringify({ id: projectId, value: 'yes' }), 'application/json');
    expectError(invalid, 400, 'validation');
  });

  it('keeps text that escapes half a surrogate pair, as a replacement character, instead of failing on it', async () => {
    // `JSON.stringify` would escape it the same way; written out so the body is exactly what a client sent.
    const body = '{"title":"Half \\ud800 a pair","summary":"","description":"","tags":[],"licence":"MIT","attachments":[],"publish":false}';
    const response = await app.request('/api/release/saveProject', { method: 'POST', body, headers: { 'content-type': 'application/json', origin: app.origin() }, token: member.token });
    expect(response.status).toBe(200);
    const { id } = response.json<{ result: { id: string } }>().result;
    const draft = (await app.request(`/api/temporary/detail?id=${id}`, { token: member.token })).json<{ result: { title: string } }>();
    expect(draft.result.title).toBe('Half \ufffd a pair');
  });

  it('answers a missing resource with its own error key', async () => {
    expectError(await app.request('/api/project/detail?id=doesnotexist'), 404, 'project_not_found');
  });

  it('words the message in the visitor’s language', async () => {
    expectError(await app.request('/api/nope', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } }), 404, 'unknown_endpoint', zh.errors);
    expectError(await app.request('/api/nope', { headers: { cookie: 'i18n_redirected=zh-CN' } }), 404, 'unknown_endpoint', zh.errors);
  });
});
