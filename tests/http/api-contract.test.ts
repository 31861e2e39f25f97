import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_IDS } from '../../src/lib/contract/schemas/examples.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';

/**
 * The contract test: every operation of `/api/openapi.json` is called with the document's own
 * example, and every answer (success and documented errors) is validated against the document's
 * schemas with a JSON Schema validator (Ajv, draft 2020-12: OpenAPI 3.1's dialect). The example
 * ids (`EXAMPLE_IDS`) are swapped for fixtures made here, so each example is a request known to work.
 */

const app = useApp();

type Json = Record<string, any>;
let document: Json;
let owner: Awaited<ReturnType<typeof createUser>>;
let reader: Awaited<ReturnType<typeof createUser>>;
let leaving: Awaited<ReturnType<typeof createUser>>;
/** An admin: staff endpoints are called as one (and refused to `reader`). */
let staff: Awaited<ReturnType<typeof createUser>>;
const fixtures = new Map<unknown, unknown>();

/** Operations that answer a documented error with their example here, and why. */
const EXPECTED_ERRORS: Record<string, string> = {
  'get /api/attachment/download': 'the fixture project has no attachment (tests/http/eda.test.ts downloads real ones)',
  'post /api/video/edit': 'a video needs a real upload processed by ffmpeg (tests/http/videos.test.ts)',
  'post /api/video/del': 'as above',
  'get /api/video/getVideoUrl': 'as above',
  'post /api/video/getVideoUrl': 'as above',
  'post /api/video/saveVideo': 'the upload token names no finished tus upload',
  'post /api/donate/checkout': 'this test runs without payment keys or DONATION_URL: donations_closed (tests/http/donations*.test.ts take donations)',
  'post /api/donate/webhook': 'a webhook delivery needs Stripe’s signature (tests/http/donations.test.ts signs real ones)',
  'get /api/version/download': 'the fixture project has no version file (tests/integration/versions.test.ts downloads real ones)',
  'get /api/version/diff': 'the fixture project has one version, v1 (tests/integration/versions.test.ts compares real ones)',
  'post /api/version/diff': 'as above',
  'get /eda/{id}/bom.csv': 'the fixture project has no BOM',
  'get /eda/{id}/fabrication.zip': 'the fixture project has no fabrication files',
  'get /eda/{id}/cpl.csv': 'the fixture project has no placements (tests/http/eda.test.ts exports real ones)',
  'get /eda/{id}/board-{boardId}-gerbers.zip': 'the fixture project has no board (tests/http/eda.test.ts downloads real ones)',
  'post /sso/api/reset': 'a reset token exists only in a mail (tests/http/account-email.test.ts follows a real one)',
  'post /sso/api/verify': 'a confirmation token exists only in a mail (as above)',
  'post /api/user/changeEmail': 'the fixture member has no password to confirm it with (tests/http/account-email.test.ts changes a real one)',
};

/** Needs bytes a JSON example cannot carry (tus, signed streams): covered by tests/http/videos.test.ts. */
const NOT_CALLED = new Set(['post /api/video/upload', 'head /api/video/upload/{uploadId}', 'patch /api/video/upload/{uploadId}', 'delete /api/video/upload/{uploadId}', 'get /video/stream/{file}']);

function withFixtures(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withFixtures);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withFixtures(inner)]));
  return fixtures.has(value) ? fixtures.get(value) : value;
}

async function call(name: string, body: unknown, token: string): Promise<Json> {
  const response = await app.request(`/api/${name}`, { method: 'POST', body, token });
  expect(response.status, `${name}: ${response.body}`).toBe(200);
  return response.json<{ result: Json }>().result;
}

beforeAll(async () => {
  owner = await createUser({ nickname: 'Contract Owner' });
  reader = await createUser({ nickname: 'Contract Reader' });
  leaving = await createUser({ nickname: 'Contract Leaving' });
  staff = await createUser({ nickname: 'Contract Admin', role: 'admin' });
  const tag = await createTag('contract-esp32', 'ESP32', 'ESP32');
  const project = await createProject(owner.user.id, { title: 'Contract probe' }, [tag.id]);
  const comment = await call('comment/submit', { id: project.publicId, content: 'A question for the owner' }, reader.token);
  const draft = await call('release/saveProject', { title: 'A draft', summary: '', description: '', tags: [], licence: 'MIT', attachments: [], publish: false }, owner.token);
  const preview = await call('release/savePreview', { title: 'A preview', summary: '', description: '', tags: [], licence: 'MIT', attachments: [] }, owner.token);
  const ticket = await call('video/getVideoToken', { name: 'clip.mp4', size: 1000, mime: 'video/mp4' }, owner.token);
  const messages = await call('message/list', { page: 1, pageSize: 1 }, owner.token);
  const report = await call('report/submit', { kind: 'comment', id: comment.id, reason: 'spam' }, owner.token);
  // Sign-in's example signs in the demo member: here, a member made with that address and password.
  const signUp = await app.request('/sso/api/register', { method: 'POST', body: { email: 'lena-marsh@demo.copperhub.dev', password: 'copperhub-demo', nickname: 'Lena', redirect: '/', siteId: 'copperhub' } });
  expect(signUp.status).toBe(200);
  for (const [example, real] of [
    [EXAMPLE_IDS.project, project.publicId],
    [EXAMPLE_IDS.user, owner.user.customUrl],
    [EXAMPLE_IDS.tag, tag.slug],
    [EXAMPLE_IDS.comment, comment.id],
    [EXAMPLE_IDS.message, messages.list[0].id],
    [EXAMPLE_IDS.draft, draft.id],
    [EXAMPLE_IDS.preview, preview.id],
    [EXAMPLE_IDS.previewToken, new URL(preview.url, 'http://x').searchParams.get('token')],
    [EXAMPLE_IDS.videoUploadToken, ticket.uploadToken],
    [EXAMPLE_IDS.report, report.id],
    ...(await makeFixtures(project.publicId)),
    ...(await staffFixtures(project.publicId)),
  ] as const) fixtures.set(example, real);
  document = (await app.request('/api/openapi.json')).json();
});

/**
 * What the make examples use: an image upload of the owner that no make uses yet (`make/submit`)
 * and a make of theirs (`make/del`).
 */
async function makeFixtures(projectId: string): Promise<[unknown, unknown][]> {
  const free = await createUpload(owner.user.id, { purpose: 'image', name: 'build.webp', mime: 'image/webp', data: 'webp' });
  const used = await createUpload(owner.user.id, { purpose: 'image', name: 'build.webp', mime: 'image/webp', data: 'webp' });
  const make = await call('make/submit', { id: projectId, content: 'Built one', images: [used.id] }, owner.token);
  return [
    [EXAMPLE_IDS.makeImage, free.id],
    [EXAMPLE_IDS.make, make.id],
  ];
}

/**
 * What the staff examples act on: an image the admin uploaded, a banner, the collection
 * `keyboards` holding another project (its examples add the project, take the other out, reorder),
 * and a tag to merge away.
 */
async function staffFixtures(projectId: string): Promise<[unknown, unknown][]> {
  const image = await createUpload(staff.user.id, { purpose: 'cover', name: 'banner.webp', mime: 'image/webp', data: 'webp' });
  const banner = await call('admin/banner/save', { image: image.id, link: '/newest', titleEn: 'Contract banner', titleZh: '契约横幅' }, staff.token);
  const other = await createProject(owner.user.id, { title: 'Another contract board' });
  await call('admin/collection/save', { name: EXAMPLE_IDS.collection, titleEn: 'Keyboards', titleZh: '键盘' }, staff.token);
  await call('admin/collection/addProject', { name: EXAMPLE_IDS.collection, project: other.publicId }, staff.token);
  await call('admin/tag/create', { slug: EXAMPLE_IDS.mergedTag, nameEn: 'Radio', nameZh: '无线电', parent: null }, staff.token);
  // The member's collection the `collection/*` examples act on (its slug comes from this title).
  const collection = await call('collection/save', { title: 'Favourite boards', public: true }, owner.token);
  return [
    [EXAMPLE_IDS.upload, image.id],
    [EXAMPLE_IDS.banner, banner.item.id],
    [EXAMPLE_IDS.otherProject, other.publicId],
    [EXAMPLE_IDS.memberCollection, collection.slug],
  ];
}

function validatorFor(schema: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile({ ...schema, components: document.components });
}

/** Checks an answer against the operation's documented response for its status. */
function expectDocumented(operation: Json, label: string, response: AppResponse) {
  const documented = operation.responses[String(response.status)];
  expect(documented, `${label} answered ${response.status}, which the document does not list: ${response.body.slice(0, 300)}`).toBeDefined();
  const content = documented.content ?? {};
  const mediaType = Object.keys(content)[0];
  if (!mediaType) return;
  expect(String(response.headers['content-type'])).toContain(mediaType.split(';')[0]);
  if (mediaType !== 'application/json') return;
  const validate = validatorFor(content[mediaType].schema);
  const body = response.json();
  expect(validate(body) ? [] : validate.errors, `${label} → ${response.status}: ${JSON.stringify(body).slice(0, 500)}`).toEqual([]);
}

function operations(): [string, string, Json][] {
  const all: [string, string, Json][] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) for (const [method, operation] of Object.entries(item)) all.push([path, method, operation]);
  // Deletions and sign-out last, the project's own deletion at the very end: the other examples use what they remove.
  const rank = (path: string) => (path === '/api/project/del' ? 2 : /\/(del|delete|logout)$|delStarProject/.test(path) ? 1 : 0);
  return all.sort(([a], [b]) => rank(a) - rank(b));
}

async function callExample(path: string, method: string, operation: Json): Promise<AppResponse> {
  const token = path === '/api/sso/logout' ? leaving.token : operation['x-role'] ? staff.token : owner.token;
  const signed = operation['x-auth'] === 'none' ? {} : { token };
  const params = (operation.parameters ?? []) as Json[];
  let url = path.replace('{id}', String(fixtures.get(EXAMPLE_IDS.project)));
  if (path === '/api/upload') {
    // Multipart, as a browser's form sends it (the helper's requests carry text only).
    const form = new FormData();
    form.set('purpose', 'cover');
    form.set('file', new Blob([new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#b0521d' } }).png().toBuffer())], { type: 'image/png' }), 'cover.png');
    const answer = await fetch(`${app.origin()}${url}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    const body = await answer.text();
    return { status: answer.status, statusMessage: answer.statusText, headers: Object.fromEntries(answer.headers), body, json: () => JSON.parse(body) };
  }
  if (method === 'get') {
    const query = new URLSearchParams();
    for (const parameter of params) if (parameter.in === 'query' && parameter.example !== undefined) query.set(parameter.name, String(withFixtures(parameter.example)));
    if (query.size) url += `?${query}`;
    return app.request(url, signed);
  }
  const example = operation.requestBody?.content?.['application/json']?.example;
  return app.request(url, { method: method.toUpperCase(), ...signed, ...(example ? { body: withFixtures(example) } : {}) });
}

describe('every documented operation answers its example as documented', () => {
  it('lists operations to call', () => expect(operations().length).toBeGreaterThan(60));

  it('calls each one with its example, signed in where it needs a session', async () => {
    const called: string[] = [];
    for (const [path, method, operation] of operations()) {
      const label = `${method} ${path}`;
      if (NOT_CALLED.has(label)) continue;
      const response = await callExample(path, method, operation);
      expectDocumented(operation, label, response);
      if (EXPECTED_ERRORS[label]) expect(response.status, `${label}: ${EXPECTED_ERRORS[label]}`).toBeGreaterThanOrEqual(400);
      else expect(response.status, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(300);
      called.push(label);
    }
    expect(called.length).toBe(operations().length - NOT_CALLED.size);
  });

  it('answers the documented errors: no session, invalid input, wrong method', async () => {
    for (const [path, method, operation] of operations()) {
      const label = `${method} ${path}`;
      if (NOT_CALLED.has(label) || !path.startsWith('/api/') || path === '/api/openapi.json' || path === '/api/docs') continue;
      if (operation['x-auth'] === 'required') {
        const response = await app.request(path, { method: method.toUpperCase(), ...(method === 'post' ? { body: {} } : {}) });
        expect(response.status, label).toBe(401);
        expectDocumented(operation, `${label} without a session`, response);
      }
      if (operation['x-role']) {
        // A member whose role falls short is refused before anything is read.
        const response = await app.request(path, { method: method.toUpperCase(), ...(method === 'post' ? { body: {} } : {}), token: reader.token });
        expect(response.status, label).toBe(403);
        expectDocumented(operation, `${label} for a member`, response);
      }
      if (method === 'post' && operation.requestBody?.content?.['application/json']?.schema?.required?.length) {
        // Staff operations check the role before the input: a member's empty body is their 403.
        const response = await app.request(path, { method: 'POST', body: {}, token: operation['x-role'] ? staff.token : reader.token });
        expect(response.status, label).toBe(400);
        expectDocumented(operation, `${label} with an empty body`, response);
      }
      const wrong = await app.request(path, { method: 'PUT', token: reader.token });
      expectDocumented(operation, `${label} with PUT`, wrong);
    }
  });
});
