import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { attachments, drafts, projects, projectTags } from '../../src/server/db/schema/index.ts';
import { countUserProjectStatus, deleteDraft, getDraft, getDraftStatus, listDrafts, listProjects, getProjectDetail, listRelatedProjects, getPreview, savePreview, searchProjects } from '../../src/server/services/projects/index.ts';
import {
  deleteProject,
  editProject,
  editProjectSchema,
  loadFormSource,
  saveProject,
  saveProjectSchema,
} from '../../src/server/services/projects/index.ts';
import { downloadName, storeUpload } from '../../src/server/services/media/index.ts';
import { downloadAttachment } from '../../src/server/http/downloads.ts';
import { getStorage } from '../../src/server/storage/index.ts';
import { AppError } from '../../src/server/http/errors.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { findPublishedProject } from '../../src/server/services/core/index.ts';

useTestDatabase();

const save = (userId: number, input: Record<string, unknown>) => saveProject(userId, parseInput(saveProjectSchema, input));
const edit = (userId: number, input: Record<string, unknown>) => editProject(userId, parseInput(editProjectSchema, input));

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('draft → publish', () => {
  it('keeps a draft private and out of lists, then publishes it into lists, the page and search', async () => {
    const { user } = await createUser({ nickname: 'Grace' });
    await createTag('sensors', 'Sensors', '传感器');
    const file = await createUpload(user.id, { name: 'gerbers.zip' });
    const bom = await createUpload(user.id, { name: 'parts.csv', mime: 'text/csv', data: 'Designator,Value,Qty\nR1,10k,1\n' });
    const cover = await createUpload(user.id, { purpose: 'cover', name: 'cover.jpg', mime: 'image/jpeg', width: 1200, height: 900 });

    // a draft may be empty
    const empty = await save(user.id, { publish: false });
    expect(empty.status).toBe('draft');

    const draft = await save(user.id, {
      title: '开源温湿度传感器 board',
      summary: 'A tiny <b>sensor</b> board',
      description: '# Build\n\nSoldering irons and hot plates both work.\n\n<script>alert(1)</script>',
      tags: ['sensors'],
      licence: 'CERN-OHL-S-2.0',
      cover: cover.url,
      attachments: [file.id, bom.id],
      publish: false,
    });
    expect(draft.status).toBe('draft');
    const detail = await getDraft(user.id, draft.id);
    expect(detail).toMatchObject({ id: draft.id, title: '开源温湿度传感器 board', tags: ['sensors'], attachments: [file.id, bom.id], projectId: null });
    expect(detail.files.map((f) => f.name)).toEqual(['gerbers.zip', 'parts.csv']);
    expect((await getDraftStatus(user.id, draft.id)).status).toBe('draft');
    expect((await listDrafts(user.id, { page: 1, pageSize: 20 })).list.map((d) => d.id)).toContain(draft.id);
    expect((await listProjects({ page: 1, pageSize: 50 }, 'en-US')).list.map((card) => card.title)).not.toContain('开源温湿度传感器 board');
    expect(await countUserProjectStatus(user.id)).toEqual({ published: 0, draft: 2 });

    const published = await save(user.id, { ...detail, draftId: draft.id, publish: true });
    expect(published.status).toBe('published');
    await expect(getDraft(user.id, draft.id)).rejects.toMatchObject({ status: 404 });
    expect(await countUserProjectStatus(user.id)).toEqual({ published: 1, draft: 1 });

    const list = await listProjects({ page: 1, pageSize: 20 }, 'zh-CN');
    expect(list.list[0]!.id).toBe(published.id);
    expect(list.list[0]!.tags).toEqual([{ slug: 'sensors', name: '传感器' }]);

    const page = await getProjectDetail(published.id, null, 'en-US');
    expect(page.descriptionHtml).toContain('<h1>Build</h1>');
    expect(page.descriptionHtml).not.toContain('<script');
    expect(page.cover).toBe(cover.url);
    expect(page.attachments.map((a) => [a.name, a.kind])).toEqual([
      ['gerbers.zip', 'gerber'],
      ['parts.csv', 'bom'],
    ]);

    // an English word of the description, stemmed ("iron" finds "irons"), and a Chinese substring
    for (const q of ['iron', 'soldering', '温湿度', '开源 board']) {
      const found = await searchProjects({ q, page: 1, pageSize: 10 }, 'en-US');
      expect({ q, ids: found.list.map((card) => card.id) }).toEqual({ q, ids: [published.id] });
    }
    const highlighted = await searchProjects({ q: 'sensor', page: 1, pageSize: 10 }, 'en-US');
    // matches are marked and the user's own markup stays escaped text
    expect(highlighted.list[0]!.highlight.summary).toBe('A tiny &lt;b&gt;<mark>sensor</mark>&lt;/b&gt; board');
    expect((await searchProjects({ q: '传感', page: 1, pageSize: 10 }, 'en-US')).list[0]!.highlight.title).toBe('开源温湿度<mark>传感</mark>器 board');
  });

  it('checks fields strictly on publish and ownership always', async () => {
    const { user } = await createUser();
    const { user: other } = await createUser();
    await createTag('audio');
    const foreignCover = await createUpload(other.id, { purpose: 'cover', name: 'c.jpg', mime: 'image/jpeg' });
    const foreignFile = await createUpload(other.id);

    const missing = await failure(save(user.id, { publish: true }));
    expect(missing).toMatchObject({ status: 400, errorKey: 'validation', fields: { title: 'required', licence: 'required' } });

    const bad = await failure(
      save(user.id, { title: 'Amp', licence: 'Proprietary', tags: ['audio', 'nope'], cover: foreignCover.url, attachments: [foreignFile.id], publish: true }),
    );
    expect(bad.fields).toEqual({ licence: 'invalid_value', tags: 'unknown_tag', cover: 'invalid_upload', attachments: 'invalid_upload' });

    // lenient drafts still refuse someone else's files
    const draftError = await failure(save(user.id, { cover: 'https://example.com/x.jpg', publish: false }));
    expect(draftError.fields).toEqual({ cover: 'invalid_upload' });

    const tooLong = await failure(Promise.resolve().then(() => save(user.id, { title: 'x'.repeat(121), tags: ['a', 'b', 'c', 'd', 'e', 'f'], publish: false })));
    expect(tooLong.fields).toEqual({ title: 'too_big', tags: 'too_big' });
    expect(await getDb().select().from(projects).where(eq(projects.ownerId, user.id))).toEqual([]);
  });
});

describe('ownership', () => {
  it("refuses another user's edit, delete and draft reads and leaves the project unchanged", async () => {
    const { user: owner } = await createUser();
    const { user: intruder } = await createUser();
    const project = await createProject(owner.id, { title: 'Original' });
    const draft = await save(owner.id, { title: 'Secret draft', publish: false });

    const editError = await failure(edit(intruder.id, { id: project.publicId, title: 'Hacked', licence: 'MIT', publish: true }));
    expect(editError.status).toBe(403);
    const draftEdit = await failure(edit(intruder.id, { id: project.publicId, title: 'Hacked', publish: false }));
    expect(draftEdit.status).toBe(403);
    expect((await failure(deleteProject(intruder.id, project.publicId))).status).toBe(403);
    expect((await failure(getDraft(intruder.id, draft.id))).status).toBe(404);
    expect((await failure(deleteDraft(intruder.id, draft.id))).status).toBe(404);
    expect((await failure(save(intruder.id, { draftId: draft.id, title: 'Mine now', publish: false }))).status).toBe(404);
    expect((await failure(loadFormSource(intruder.id, { projectId: project.publicId }))).status).toBe(404);

    const [row] = await getDb().select().from(projects).where(eq(projects.id, project.id));
    expect(row).toMatchObject({ title: 'Original', status: 'published', updatedAt: project.updatedAt });
    // a project without tags still has related projects (by the same author first)
    const sibling = await createProject(owner.id, { title: 'Sibling' });
    expect((await listRelatedProjects(await findPublishedProject(project.publicId), 'en-US')).map((card) => card.id)).toContain(sibling.publicId);
    expect((await getDraft(owner.id, draft.id)).title).toBe('Secret draft');
    expect(await getDb().select().from(drafts).where(eq(drafts.ownerId, intruder.id))).toEqual([]);
  });
});

describe('editing a published project', () => {
  it('keeps an edit as a draft without unpublishing, then publishes it keeping download counts', async () => {
    const { user } = await createUser();
    await createTag('power');
    const first = await createUpload(user.id, { name: 'v1-gerber.zip' });
    const second = await createUpload(user.id, { name: 'schematic.pdf', mime: 'application/pdf' });
    const created = await save(user.id, { title: 'Buck converter', licence: 'MIT', tags: ['power'], attachments: [first.id], publish: true });
    const [attachment] = await getDb().select().from(attachments).where(eq(attachments.uploadId, first.id));
    await downloadAttachment(attachment!.id, null, true);

    const pending = await edit(user.id, { id: created.id, title: 'Buck converter v2', licence: 'MIT', tags: [], attachments: [first.id, second.id], publish: false });
    expect(pending.status).toBe('draft');
    expect((await getProjectDetail(created.id, null, 'en-US')).title).toBe('Buck converter');
    expect((await getDraft(user.id, pending.id)).projectId).toBe(created.id);
    // saving the edit again updates the same draft; the form continues it
    const again = await edit(user.id, { id: created.id, title: 'Buck converter v2.1', licence: 'MIT', attachments: [first.id, second.id], publish: false });
    expect(again.id).toBe(pending.id);
    const source = await loadFormSource(user.id, { projectId: created.id });
    expect(source).toMatchObject({ draftId: pending.id, projectId: created.id, content: { title: 'Buck converter v2.1' } });

    const done = await edit(user.id, { id: created.id, draftId: pending.id, title: 'Buck converter v2.1', licence: 'MIT', attachments: [first.id, second.id], publish: true });
    expect(done).toEqual({ id: created.id, status: 'published' });
    const detail = await getProjectDetail(created.id, null, 'en-US');
    expect(detail.title).toBe('Buck converter v2.1');
    expect(detail.tags).toEqual([]);
    expect(detail.attachments.map((a) => [a.name, a.downloadCount, a.kind])).toEqual([
      ['v1-gerber.zip', 1, 'gerber'],
      ['schematic.pdf', 0, 'schematic'],
    ]);
    const [row] = await getDb().select().from(projects).where(eq(projects.publicId, created.id));
    expect(await getDb().select().from(drafts).where(eq(drafts.ownerId, user.id))).toEqual([]);
    expect(await getDb().select().from(projectTags).where(eq(projectTags.projectId, row!.id))).toEqual([]);
  });
});

describe('previews', () => {
  it('shows a preview to its author and link holders only', async () => {
    const { user } = await createUser({ nickname: 'Linus' });
    const { user: other } = await createUser();
    await createTag('rf', 'RF', '射频');
    const { id, url } = await savePreview(user.id, parseInput(saveProjectSchema, { title: 'LoRa node', description: '**bold**', tags: ['rf'] }));
    const token = new URL(url, 'http://x').searchParams.get('token');
    expect(url).toBe(`/preview?id=${id}&token=${token}`);
    const mine = await getPreview(id, user.id, null, 'zh-CN');
    expect(mine).toMatchObject({ title: 'LoRa node', descriptionHtml: '<p><strong>bold</strong></p>\n', tags: [{ slug: 'rf', name: '射频' }], owner: { nickname: 'Linus' } });
    expect(mine.viewer.isOwner).toBe(true);
    expect((await getPreview(id, null, token, 'en-US')).viewer.isOwner).toBe(false);
    expect((await failure(getPreview(id, other.id, null, 'en-US'))).status).toBe(404);
    expect((await failure(getPreview(id, null, 'wrong-token', 'en-US'))).status).toBe(404);
  });
});

describe('deleting', () => {
  it('soft-deletes: gone from lists, page and search, row kept with deleted_at', async () => {
    const { user } = await createUser();
    const created = await save(user.id, { title: 'Doomed oscillator', licence: 'MIT', publish: true });
    await edit(user.id, { id: created.id, title: 'Doomed oscillator 2', publish: false });
    expect(await deleteProject(user.id, created.id)).toEqual({ id: created.id });
    expect((await failure(getProjectDetail(created.id, null, 'en-US'))).status).toBe(404);
    expect((await listProjects({ page: 1, pageSize: 50 }, 'en-US')).list.map((card) => card.id)).not.toContain(created.id);
    expect((await searchProjects({ q: 'oscillator', page: 1, pageSize: 20 }, 'en-US')).total).toBe(0);
    const [row] = await getDb().select().from(projects).where(eq(projects.publicId, created.id));
    expect(row!.status).toBe('deleted');
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(await getDb().select().from(drafts).where(eq(drafts.ownerId, user.id))).toEqual([]);
    expect((await failure(deleteProject(user.id, created.id))).status).toBe(404);
  });
});

describe('attachment downloads', () => {
  it('streams the file as an attachment with a safe name and counts each download', async () => {
    const { user } = await createUser();
    const upload = await createUpload(user.id, { name: '电源 "v1".zip', data: 'PK\u0003\u0004zipdata' });
    await save(user.id, { title: 'PSU', licence: 'MIT', attachments: [upload.id], publish: true });
    const [attachment] = await getDb().select().from(attachments).where(eq(attachments.uploadId, upload.id));
    const response = await downloadAttachment(attachment!.id, null, true);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="__ _v1_.zip"; filename*=UTF-8''%E7%94%B5%E6%BA%90%20_v1_.zip`);
    expect(await response.text()).toBe('PK\u0003\u0004zipdata');
    await downloadAttachment(attachment!.id, null, false); // a crawler: not counted
    const [after] = await getDb().select().from(attachments).where(eq(attachments.uploadId, upload.id));
    expect(after!.downloadCount).toBe(1);
    expect((await failure(downloadAttachment('missing', null, true))).status).toBe(404);
  });

  it('names the download with the extension of the detected type, whatever the uploader called it', async () => {
    const { user } = await createUser();
    const csv = await storeUpload(user.id, 'attachment', { name: 'evil.html', bytes: new TextEncoder().encode('Designator,Value,Quantity\nR1,10k,1\n') });
    expect(csv).toMatchObject({ name: 'evil.csv', mime: 'text/csv' });
    await save(user.id, { title: 'BOM', licence: 'MIT', attachments: [csv.id], publish: true });
    const [attachment] = await getDb().select().from(attachments).where(eq(attachments.uploadId, csv.id));
    const response = await downloadAttachment(attachment!.id, null, true);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="evil.csv"; filename*=UTF-8''evil.csv`);
    // Names kept from before uploads were renamed take the stored file's extension on the way out.
    expect(downloadName('evil.html', 'attachments/ab/abcdef.csv')).toBe('evil.csv');
    expect(downloadName('README', 'attachments/ab/abcdef.pdf')).toBe('README.pdf');
    expect(downloadName('.html', 'attachments/ab/abcdef.zip')).toBe('.html.zip');
    expect(downloadName('Top.gtl', 'attachments/ab/abcdef.gtl')).toBe('Top.gtl');
  });

  it('answers 404 for an attachment whose file has vanished, without counting it', async () => {
    const { user } = await createUser();
    const upload = await createUpload(user.id, { name: 'gone.zip' });
    await save(user.id, { title: 'Gone', licence: 'MIT', attachments: [upload.id], publish: true });
    const [attachment] = await getDb().select().from(attachments).where(eq(attachments.uploadId, upload.id));
    await getStorage().delete(attachment!.storageKey);
    expect((await failure(downloadAttachment(attachment!.id, null, true))).status).toBe(404);
    const [after] = await getDb().select().from(attachments).where(eq(attachments.uploadId, upload.id));
    expect(after!.downloadCount).toBe(0);
  });
});
