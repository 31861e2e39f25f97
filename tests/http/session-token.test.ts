import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { submitComment } from '../../src/server/services/community/index.ts';

// The session token lives in the HttpOnly cookie only: no script on a page can read it, so none
// can send it elsewhere. Islands call the API with the cookie the browser adds by itself.

const app = useApp();

let member: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

beforeAll(async () => {
  member = await createUser({ nickname: 'Careful Member' });
  projectId = (await createProject(member.user.id, { title: 'Current probe' })).publicId;
  const { user: visitor } = await createUser({ nickname: 'Visitor' });
  // An unread message, so the unread badges render too.
  await submitComment(visitor.id, projectId, 'Which shunt resistor?');
});

describe('signed-in pages', () => {
  it('never contain the session token, in any island prop or anywhere else', async () => {
    const url = member.user.customUrl;
    // Every island that acts as the member: the header menu, comments, messages, the profile
    // editor, the project form, and on phones the unread badge of the tab bar.
    const paths = ['/', `/d-${projectId}`, `/user/${url}/message`, `/user/${url}/profile`, '/create/project', `/user/${url}/draftbox`];
    for (const path of [...paths, ...paths.map((desktop) => (desktop === '/' ? '/m' : `/m${desktop}`))]) {
      const page = await app.request(path, { token: member.token });
      expect(page.status, path).toBe(200);
      // Rendered for the member (their islands are there)…
      expect(page.body, path).toContain('Careful Member');
      expect(page.body, path).toContain('<astro-island');
      // …and the token is nowhere: not raw, not URL- or JSON-escaped.
      for (const form of [member.token, encodeURIComponent(member.token), JSON.stringify(member.token).slice(1, -1)]) {
        expect(page.body.includes(form), `${path} contains the session token`).toBe(false);
      }
    }
    // The project form's props say only that the member is signed in, and who they are.
    const form = await app.request('/create/project', { token: member.token });
    expect(form.body).toMatch(/signedIn&quot;:\[0,true\]/);
  });
});
