import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser as createAnyUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { attachments, drafts, projects, uploads, projectTags } from '../../src/server/db/schema/index.ts';
import { AppError } from '../../src/server/http/errors.ts';
import { getStorage } from '../../src/server/storage/index.ts';
import { deleteProject, loadFormSource, saveProject, findDraftRemixSource, loadProjectLineage, remixProject } from '../../src/server/services/projects/index.ts';

useTestDatabase();

const createUser = (overrides: Parameters<typeof createAnyUser>[0] = {}) =>
  createAnyUser({ createdAt: new Date(Date.now() - 7 * 24 * 60 * 60 * 1000), ...overrides });

async function readStored(key: string): Promise<string | null> {
  const stream = await getStorage().read(key);
  return stream ? Buffer.concat((await stream.toArray()) as Buffer[]).toString() : null;
}

async function errorKeyOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.errorKey;
    throw error;
  }
  throw new Error('expected an error');
}

/** A published project of `ownerId` with a cover, a tag and two attached files, as publishing leaves it. */
async function projectWithFiles(ownerId: number, licence = 'CERN-OHL-S-2.0') {
  const tag = await createTag(`synth-${Math.random().toString(36).slice(2, 8)}`, 'Synth', '合成器');
  const cover = await createUpload(ownerId, { purpose: 'cover', name: 'cover.webp', mime: 'image/webp', data: 'cover bytes', width: 800, height: 600 });
  const picture = await createUpload(ownerId, { purpose: 'image', name: 'inside.webp', mime: 'image/webp', data: 'picture bytes', width: 640, height: 480 });
  // Stored images live at `images/xx/<id>.webp`, where the description points.
  const pictureKey = `images/${picture.id.slice(0, 2)}/${picture.id}.webp`;
  await getStorage().put(pictureKey, Buffer.from('picture bytes'));
  await getDb().update(uploads).set({ storageKey: pictureKey }).where(eq(uploads.id, picture.id));
  const description = `# Build\nSolder it.\n\n![Inside](/files/${pictureKey})`;
  const project = await createProject(ownerId, { title: 'Tiny synth', summary: 'A pocket synth', descriptionMd: description, licence, cover: cover.url }, [tag.id]);
  const files = [
    await createUpload(ownerId, { name: 'gerbers.zip', data: 'PK gerbers' }),
    await createUpload(ownerId, { name: 'bom.csv', mime: 'text/csv', data: 'ref,value\nR1,10k' }),
  ];
  await getDb()
    .insert(attachments)
    .values(files.map((file, sort) => ({ id: `att-${file.id}`, projectId: project.id, uploadId: file.id, name: file.name, mime: file.mime, size: file.size, storageKey: file.storageKey, sort })));
  return { project, tag, cover, files, pictureKey };
}

describe('remixes', () => {
  it('a remix is a draft of the remixer with the original’s content and copies of its files, which outlive the original’s', async () => {
    const { user: author } = await createUser({ nickname: 'Author' });
    const { user: remixer } = await createUser();
    const { project, tag, cover, files, pictureKey } = await projectWithFiles(author.id);

    const { id: draftId } = await remixProject(remixer.id, project.publicId);
    const form = await loadFormSource(remixer.id, { draftId });

    expect(form.content).toMatchObject({ title: 'Tiny synth', summary: 'A pocket synth', tags: [tag.slug], licence: 'CERN-OHL-S-2.0' });
    // The description's picture is the remixer's own copy.
    expect(form.content.description).toMatch(/^# Build\nSolder it\.\n\n!\[Inside\]\(\/files\/images\/[a-z0-9]{2}\/[a-z0-9]+\.webp\)$/i);
    expect(form.content.description).not.toContain(pictureKey);
    expect(form.files.map((file) => file.name)).toEqual(['gerbers.zip', 'bom.csv']);
    const copies = await getDb().select().from(uploads).where(eq(uploads.ownerId, remixer.id));
    expect(copies).toHaveLength(4);
    expect(form.content.attachments.every((id) => !files.some((file) => file.id === id))).toBe(true);
    expect(form.content.cover).not.toBe(cover.url);
    expect(await findDraftRemixSource(remixer.id, draftId)).toEqual({ id: project.publicId, title: 'Tiny synth', owner: { url: author.customUrl, nickname: 'Author' } });

    // The original's files go away: the remix keeps its own.
    for (const key of [...files, cover].map((file) => file.storageKey).concat(pictureKey)) await getStorage().delete(key);
    const copied = await getDb().select().from(uploads).where(eq(uploads.ownerId, remixer.id));
    const texts = await Promise.all(copied.map((row) => readStored(row.storageKey)));
    expect(texts.sort()).toEqual(['PK gerbers', 'cover bytes', 'picture bytes', 'ref,value\nR1,10k']);
  });

  it('publishing the remix records its original: “based on” on the remix, “remixed 1 time” and the remix on the original; deleting the remix takes it back', async () => {
    const { user: author } = await createUser({ nickname: 'Author' });
    const { user: remixer } = await createUser();
    const { project } = await projectWithFiles(author.id);
    const { id: draftId } = await remixProject(remixer.id, project.publicId);
    const form = await loadFormSource(remixer.id, { draftId });

    const published = await saveProject(remixer.id, { ...form.content, title: 'Tiny synth, louder', draftId, publish: true });

    const [remix] = await getDb().select().from(projects).where(eq(projects.publicId, published.id));
    expect(remix!.remixOfId).toBe(project.id);
    expect(await getDb().select().from(attachments).where(eq(attachments.projectId, remix!.id))).toHaveLength(2);
    const [original] = await getDb().select({ remixCount: projects.remixCount }).from(projects).where(eq(projects.id, project.id));
    expect(original!.remixCount).toBe(1);
    const lineageOf = async (projectId: number) => {
      const [row] = await getDb().select({ id: projects.id, remixOfId: projects.remixOfId, remixCount: projects.remixCount }).from(projects).where(eq(projects.id, projectId));
      return loadProjectLineage(row!, null, 'en-US');
    };
    expect((await lineageOf(remix!.id)).basedOn).toEqual({ id: project.publicId, title: 'Tiny synth', owner: { url: author.customUrl, nickname: 'Author' } });
    const lineage = await lineageOf(project.id);
    expect(lineage.basedOn).toBeNull();
    expect(lineage.remixes.map((card) => card.title)).toEqual(['Tiny synth, louder']);
    expect(await getDb().select().from(drafts).where(eq(drafts.id, draftId))).toEqual([]);

    await deleteProject(remixer.id, published.id);
    const [after] = await getDb().select({ remixCount: projects.remixCount }).from(projects).where(eq(projects.id, project.id));
    expect(after!.remixCount).toBe(0);
    expect((await lineageOf(project.id)).remixes).toEqual([]);
  });

  it('an author may remix their own project', async () => {
    const { user: author } = await createUser();
    const { project } = await projectWithFiles(author.id);
    const { id } = await remixProject(author.id, project.publicId);
    expect((await loadFormSource(author.id, { draftId: id })).content.title).toBe('Tiny synth');
  });

  it('refuses, creating nothing: a NoDerivatives licence, a deleted or hidden project', async () => {
    const { user: author } = await createUser();
    const { user: remixer } = await createUser();
    for (const licence of ['CC-BY-ND-4.0', 'CC-BY-NC-ND-4.0']) {
      const { project } = await projectWithFiles(author.id, licence);
      expect(await errorKeyOf(remixProject(remixer.id, project.publicId))).toBe('remix_not_allowed');
    }
    // NonCommercial alone allows adaptations.
    const { project: nonCommercial } = await projectWithFiles(author.id, 'CC-BY-NC-SA-4.0');
    await remixProject(remixer.id, nonCommercial.publicId);
    const before = { drafts: (await getDb().select().from(drafts).where(eq(drafts.ownerId, remixer.id))).length, uploads: (await getDb().select().from(uploads).where(eq(uploads.ownerId, remixer.id))).length };

    const deleted = await createProject(author.id, { status: 'deleted', deletedAt: new Date() });
    const hidden = await createProject(author.id, { hiddenAt: new Date() });
    expect(await errorKeyOf(remixProject(remixer.id, deleted.publicId))).toBe('project_not_found');
    expect(await errorKeyOf(remixProject(remixer.id, hidden.publicId))).toBe('project_not_found');
    expect(await errorKeyOf(remixProject(remixer.id, 'no-such-project'))).toBe('project_not_found');
    const { project: noDerivatives } = await projectWithFiles(author.id, 'CC-BY-ND-4.0');
    expect(await errorKeyOf(remixProject(remixer.id, noDerivatives.publicId))).toBe('remix_not_allowed');

    expect(await getDb().select().from(drafts).where(eq(drafts.ownerId, remixer.id))).toHaveLength(before.drafts);
    expect(await getDb().select().from(uploads).where(eq(uploads.ownerId, remixer.id))).toHaveLength(before.uploads);
    expect(await getDb().select().from(projectTags).where(eq(projectTags.projectId, noDerivatives.id))).toHaveLength(1);
  });
});
