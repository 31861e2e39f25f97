import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { loadIslandModules, pageBrowser } from '../helpers/island-client.ts';
import { getDb } from '../../src/server/db/client.ts';
import { drafts, makes, projects } from '../../src/server/db/schema/index.ts';

const app = useApp();

const loadStores = async () => ({
  ...(await import('../../src/stores/remix.ts')),
  ...(await import('../../src/stores/make-form.ts')),
  ...(await import('../../src/stores/make-delete.ts')),
});
let stores: Awaited<ReturnType<typeof loadStores>>;
let browser: ReturnType<typeof pageBrowser>;

beforeAll(async () => {
  browser = pageBrowser(app.origin());
  vi.stubGlobal('fetch', browser.fetch);
  vi.stubGlobal('location', new URL(app.origin()));
  stores = await loadIslandModules(app.origin(), loadStores);
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** An author's project and a member signed in on its page (their session cookie in the browser). */
async function projectAndVisitor(licence = 'CERN-OHL-S-2.0') {
  const author = await createUser({ nickname: 'Author' });
  const project = await createProject(author.user.id, { licence });
  const visitor = await createUser({ nickname: 'Visitor', createdAt: new Date(Date.now() - 7 * 24 * 3600 * 1000) });
  browser.setSession(visitor.token);
  return { project, visitor };
}

describe('the makes and remix stores against the running site', () => {
  it('Remix answers the new draft; a NoDerivatives project is refused with its reason and no draft', async () => {
    const { project, visitor } = await projectAndVisitor();
    const remix = stores.createRemix(project.publicId);
    const draftId = await remix.remix();
    expect(draftId).toMatch(/^[a-z0-9]+$/);
    const [draft] = await getDb().select().from(drafts).where(eq(drafts.id, draftId!));
    expect(draft).toMatchObject({ ownerId: visitor.user.id, remixOfId: project.id });

    const { project: closed, visitor: other } = await projectAndVisitor('CC-BY-ND-4.0');
    const refused = stores.createRemix(closed.publicId);
    expect(await refused.remix()).toBeNull();
    expect(refused.$remix.get()).toMatchObject({ busy: false, error: { error: { errorKey: 'remix_not_allowed' } } });
    expect(await getDb().select().from(drafts).where(eq(drafts.ownerId, other.user.id))).toEqual([]);
  });

  it('the make form posts photos, note and link; the server’s refusal of someone else’s photo lands on the photos field', async () => {
    const { project, visitor } = await projectAndVisitor();
    const form = stores.createMakeForm(project.publicId);
    const mine = await createUpload(visitor.user.id, { purpose: 'image', name: 'a.webp', mime: 'image/webp', data: 'webp' });
    const theirs = await createUpload((await createUser()).user.id, { purpose: 'image', name: 'b.webp', mime: 'image/webp', data: 'webp' });

    form.$form.setKey('photos', [{ id: theirs.id, url: theirs.url }]);
    expect(await form.submit()).toBeNull();
    expect(form.$form.get()).toMatchObject({ submitting: false, errors: { photos: { field: 'upload_invalid' } }, formError: null });

    form.$form.setKey('photos', [{ id: mine.id, url: mine.url }]);
    form.setNote('Built it.');
    form.setLink('https://example.com/mine');
    const made = await form.submit();
    expect(made).toMatchObject({ content: 'Built it.', link: { href: 'https://example.com/mine', project: null } });
    expect(form.$form.get()).toMatchObject({ photos: [], note: '', link: '', submitting: false });
    const [row] = await getDb().select({ makeCount: projects.makeCount }).from(projects).where(eq(projects.id, project.id));
    expect(row!.makeCount).toBe(1);

    // Deleting it: someone else cannot, its maker can.
    browser.setSession((await createUser()).token);
    let deleted = 0;
    const intruder = stores.createMakeDelete(made!.id, () => (deleted += 1));
    await intruder.confirm();
    expect(intruder.$delete.get()).toMatchObject({ busy: false, error: { error: { errorKey: 'make_not_found' } } });
    expect(deleted).toBe(0);
    browser.setSession(visitor.token);
    const maker = stores.createMakeDelete(made!.id, () => (deleted += 1));
    maker.ask();
    await maker.confirm();
    expect(maker.$delete.get()).toEqual({ confirming: false, busy: false, error: null });
    expect(deleted).toBe(1);
    expect(await getDb().select().from(makes).where(eq(makes.id, made!.id))).toEqual([]);
  });
});
