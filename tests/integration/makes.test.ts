import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser as createAnyUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { activities, makes, messages, projects } from '../../src/server/db/schema/index.ts';
import { AppError } from '../../src/server/http/errors.ts';
import { deleteMake, listMemberMakes, listProjectMakes, submitMake } from '../../src/server/services/community/index.ts';

useTestDatabase();

/** Members past their first day: the stricter pace of new accounts is not what these tests are about. */
const createUser = (overrides: Parameters<typeof createAnyUser>[0] = {}) =>
  createAnyUser({ createdAt: new Date(Date.now() - 7 * 24 * 60 * 60 * 1000), ...overrides });

const photo = (ownerId: number) => createUpload(ownerId, { purpose: 'image', name: 'build.webp', mime: 'image/webp', data: 'webp', width: 1600, height: 1200 });

async function makeCount(projectId: number): Promise<number> {
  const [row] = await getDb().select({ n: projects.makeCount }).from(projects).where(eq(projects.id, projectId));
  return row!.n;
}

async function storedState(projectId: number) {
  return {
    count: await makeCount(projectId),
    makes: (await getDb().select().from(makes).where(eq(makes.projectId, projectId))).length,
    messages: (await getDb().select().from(messages).where(eq(messages.projectId, projectId))).length,
    activities: (await getDb().select().from(activities).where(eq(activities.projectId, projectId))).length,
  };
}

/** The error key a call fails with. */
async function errorOf(promise: Promise<unknown>): Promise<{ key: string; fields?: Record<string, string> }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { key: error.errorKey, fields: error.fields };
    throw error;
  }
  throw new Error('expected an error');
}

describe('makes', () => {
  it('a member posts a make: it shows first in the project’s makes and on their profile, the count goes up, the author gets a message and followers an activity', async () => {
    const { user: author } = await createUser({ nickname: 'Author' });
    const { user: maker } = await createUser({ nickname: 'Maker' });
    const project = await createProject(author.id, { title: 'Tiny synth' });
    const variant = await createProject(maker.id, { title: 'Tiny synth, louder' });
    const [first, second] = [await photo(maker.id), await photo(maker.id)];

    const made = await submitMake(maker.id, { id: project.publicId, content: '  Built it with a bigger speaker.\n', images: [first.id, second.url], link: `/d-${variant.publicId}` });

    expect(made.content).toBe('Built it with a bigger speaker.');
    expect(made.images).toEqual([
      { url: first.url, width: 1600 },
      { url: second.url, width: 1600 },
    ]);
    expect(made.link).toEqual({ href: `/d-${variant.publicId}`, project: { id: variant.publicId, title: 'Tiny synth, louder' } });
    expect(made.maker.nickname).toBe('Maker');
    expect(made.canDelete).toBe(true);
    expect(await makeCount(project.id)).toBe(1);

    const page = await listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, null);
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ id: made.id, content: 'Built it with a bigger speaker.', canDelete: false, project: { id: project.publicId, title: 'Tiny synth' } });
    const profile = await listMemberMakes(maker.id, { page: 1, pageSize: 20 }, null);
    expect(profile.list.map((item) => item.id)).toEqual([made.id]);

    const [message] = await getDb().select().from(messages).where(eq(messages.recipientId, author.id));
    expect(message).toMatchObject({ kind: 'make', actorId: maker.id, projectId: project.id, body: 'Built it with a bigger speaker.' });
    const [activity] = await getDb().select().from(activities).where(eq(activities.refId, made.id));
    expect(activity).toMatchObject({ kind: 'make', actorId: maker.id, projectId: project.id, title: 'Built it with a bigger speaker.', path: `/d-${project.publicId}/makes` });
  });

  it('an outside link stays as written; a make of your own project sends you no message', async () => {
    const { user: author } = await createUser();
    const project = await createProject(author.id);
    const made = await submitMake(author.id, { id: project.publicId, content: '', images: [(await photo(author.id)).id], link: 'https://example.com/build-log' });
    expect(made.link).toEqual({ href: 'https://example.com/build-log', project: null });
    expect(await getDb().select().from(messages).where(eq(messages.recipientId, author.id))).toEqual([]);
    expect(await makeCount(project.id)).toBe(1);
  });

  it('lists newest first, a page at a time', async () => {
    const { user: author } = await createUser();
    const { user: maker } = await createUser();
    const project = await createProject(author.id);
    const ids: number[] = [];
    for (let i = 1; i <= 3; i += 1) ids.push((await submitMake(maker.id, { id: project.publicId, content: `Build ${i}`, images: [(await photo(maker.id)).id] })).id);
    const page1 = await listProjectMakes(project.publicId, { page: 1, pageSize: 2 }, null);
    const page2 = await listProjectMakes(project.publicId, { page: 2, pageSize: 2 }, null);
    expect(page1.total).toBe(3);
    expect([...page1.list, ...page2.list].map((item) => item.content)).toEqual(['Build 3', 'Build 2', 'Build 1']);
  });

  it('refuses, changing nothing: a deleted or hidden project, someone else’s upload, a used upload, no photo, too many photos, a bad link, a link to a hidden project', async () => {
    const { user: author } = await createUser();
    const { user: maker } = await createUser();
    const { user: other } = await createUser();
    const project = await createProject(author.id);
    const deleted = await createProject(author.id, { status: 'deleted', deletedAt: new Date() });
    const hidden = await createProject(author.id, { hiddenAt: new Date() });
    const used = await photo(maker.id);
    await submitMake(maker.id, { id: project.publicId, images: [used.id] });
    const before = await storedState(project.id);
    const mine = await photo(maker.id);

    expect((await errorOf(submitMake(maker.id, { id: deleted.publicId, images: [mine.id] }))).key).toBe('project_not_found');
    expect((await errorOf(submitMake(maker.id, { id: hidden.publicId, images: [mine.id] }))).key).toBe('project_not_found');
    // Even its owner cannot show a build on a project the public cannot see.
    expect((await errorOf(submitMake(author.id, { id: hidden.publicId, images: [(await photo(author.id)).id] }))).key).toBe('project_not_found');
    expect(await errorOf(submitMake(maker.id, { id: project.publicId, images: [mine.id, (await photo(other.id)).id] }))).toEqual({ key: 'validation', fields: { 'images.1': 'upload_invalid' } });
    expect(await errorOf(submitMake(maker.id, { id: project.publicId, images: [used.id] }))).toEqual({ key: 'validation', fields: { 'images.0': 'upload_invalid' } });
    const attachment = await createUpload(maker.id, { purpose: 'attachment' });
    expect(await errorOf(submitMake(maker.id, { id: project.publicId, images: [attachment.id] }))).toEqual({ key: 'validation', fields: { 'images.0': 'upload_invalid' } });
    expect(await errorOf(submitMake(maker.id, { id: project.publicId, images: [] }))).toEqual({ key: 'validation', fields: { images: 'required' } });
    const seven = await Promise.all(Array.from({ length: 7 }, () => photo(maker.id)));
    expect((await errorOf(submitMake(maker.id, { id: project.publicId, images: seven.map((upload) => upload.id) }))).key).toBe('too_many_images');
    for (const link of ['javascript:alert(1)', 'ftp://example.com/x', 'my variant', '//evil.example/x'])
      expect(await errorOf(submitMake(maker.id, { id: project.publicId, images: [mine.id], link }))).toEqual({ key: 'validation', fields: { link: 'make_link' } });
    expect(await errorOf(submitMake(maker.id, { id: project.publicId, images: [mine.id], link: `/d-${hidden.publicId}` }))).toEqual({ key: 'validation', fields: { link: 'make_link' } });
    expect(await errorOf(submitMake(maker.id, { id: project.publicId, images: [mine.id], content: 'x'.repeat(2001) }))).toEqual({ key: 'validation', fields: { content: 'too_big' } });

    expect(await storedState(project.id)).toEqual(before);
    expect(await getDb().select().from(makes).where(eq(makes.projectId, hidden.id))).toEqual([]);
    // The refused photo is still free to use.
    await submitMake(maker.id, { id: project.publicId, images: [mine.id] });
  });

  it('a member deletes only their own make: the count goes down and the activity is forgotten', async () => {
    const { user: author } = await createUser();
    const { user: maker } = await createUser();
    const { user: stranger } = await createUser();
    const project = await createProject(author.id);
    const made = await submitMake(maker.id, { id: project.publicId, content: 'Mine', images: [(await photo(maker.id)).id] });

    expect((await errorOf(deleteMake(stranger.id, made.id))).key).toBe('make_not_found');
    expect(await makeCount(project.id)).toBe(1);
    // The maker sees "Delete"; the project's owner may remove it too; nobody else.
    const [asMaker] = (await listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, maker.id)).list;
    const [asAuthor] = (await listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, author.id)).list;
    const [asStranger] = (await listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, stranger.id)).list;
    expect([asMaker!.canDelete, asAuthor!.canDelete, asStranger!.canDelete]).toEqual([true, true, false]);

    expect(await deleteMake(maker.id, made.id)).toEqual({ id: made.id, makeCount: 0 });
    expect((await listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, null)).total).toBe(0);
    expect(await getDb().select().from(activities).where(eq(activities.refId, made.id))).toEqual([]);
    expect((await errorOf(deleteMake(maker.id, made.id))).key).toBe('make_not_found');
  });

  it('the owner of a project removes a make posted on it, and only on their own projects', async () => {
    const { user: author } = await createUser();
    const { user: maker } = await createUser();
    const project = await createProject(author.id);
    const elsewhere = await createProject(maker.id);
    const made = await submitMake(maker.id, { id: project.publicId, content: 'Not what it looks like', images: [(await photo(maker.id)).id] });
    const own = await submitMake(author.id, { id: elsewhere.publicId, content: 'On someone else’s project', images: [(await photo(author.id)).id] });

    expect(await deleteMake(author.id, made.id)).toEqual({ id: made.id, makeCount: 0 });
    expect((await listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, null)).total).toBe(0);
    expect((await listMemberMakes(maker.id, { page: 1, pageSize: 20 }, null)).list.map((item) => item.id)).not.toContain(made.id);
    // The other way round: the maker owns the other project, so they remove the author's make from it.
    expect(await deleteMake(maker.id, own.id)).toEqual({ id: own.id, makeCount: 0 });
    expect((await errorOf(deleteMake(author.id, own.id))).key).toBe('make_not_found');
  });

  it('hides the makes of a project nobody may see, and a maker’s makes on it from their profile', async () => {
    const { user: author } = await createUser();
    const { user: maker } = await createUser();
    const project = await createProject(author.id);
    await submitMake(maker.id, { id: project.publicId, images: [(await photo(maker.id)).id] });
    await getDb().update(projects).set({ hiddenAt: new Date() }).where(eq(projects.id, project.id));
    expect((await errorOf(listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, null))).key).toBe('project_not_found');
    expect((await listMemberMakes(maker.id, { page: 1, pageSize: 20 }, null)).total).toBe(0);
    // Its owner still sees what was hidden, as everywhere else.
    expect((await listProjectMakes(project.publicId, { page: 1, pageSize: 20 }, author.id)).total).toBe(1);
  });

  it('a new account posts at most five makes an hour: the sixth is refused and stores nothing', async () => {
    const { user: author } = await createUser();
    const { user: fresh } = await createAnyUser();
    const project = await createProject(author.id);
    for (let i = 0; i < 5; i += 1) await submitMake(fresh.id, { id: project.publicId, images: [(await photo(fresh.id)).id] });
    const before = await storedState(project.id);
    expect((await errorOf(submitMake(fresh.id, { id: project.publicId, images: [(await photo(fresh.id)).id] }))).key).toBe('rate_limited');
    expect(await storedState(project.id)).toEqual(before);
  });
});
