import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { sangaBom, sangaBomNext, sangaboardMovedPadsZip, sangaboardZip } from '../helpers/version-fixtures.ts';
import { getDb } from '../../src/server/db/client.ts';
import { activities, attachments, projects } from '../../src/server/db/schema/index.ts';
import { AppError } from '../../src/server/http/errors.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { getEdaDetail } from '../../src/server/services/eda/index.ts';
import { getProjectDetail, deleteProject, editProject, editProjectSchema, loadFormSource, saveProject, saveProjectSchema, diffVersions, listVersions } from '../../src/server/services/projects/index.ts';
import { downloadVersionFile } from '../../src/server/http/downloads.ts';
import { listProjectFeed } from '../../src/server/services/community/index.ts';
import { storeUpload } from '../../src/server/services/media/index.ts';
import { getStorage } from '../../src/server/storage/index.ts';

/**
 * Versions: the first publication is version 1, an edit may release the next, each keeps the
 * files, boards and BOM it was published with, and any two compare — on the real Sangaboard
 * rendered by the real job queue.
 */
useTestDatabase();

type File = { name: string; bytes: Uint8Array };

/** A small spreadsheet (plain text files are not design files uploads accept). */
const sheet = (name: string, cell: string): File => ({ name, bytes: new TextEncoder().encode(`Note,Count\n${cell},1\n`) });

async function uploadAll(userId: number, files: File[]): Promise<string[]> {
  const ids = [];
  for (const file of files) ids.push((await storeUpload(userId, 'attachment', file)).id);
  return ids;
}

const content = (attachments: string[], title = 'Sangaboard') => ({
  title,
  summary: 'A motor controller',
  description: 'Drives steppers.',
  tags: ['motors'],
  licence: 'CERN-OHL-S-2.0',
  attachments,
});

async function publish(userId: number, files: File[], version?: { name: string; notes?: string }): Promise<string> {
  const result = await saveProject(userId, parseInput(saveProjectSchema, { ...content(await uploadAll(userId, files)), publish: true, ...(version ? { version } : {}) }));
  return result.id;
}

/** The project's current attachments as the form keeps them, plus `extra` new uploads, minus names matching `drop`. */
async function edit(userId: number, id: string, change: { add?: File[]; drop?: RegExp; title?: string; version?: { name: string; notes?: string } }) {
  const source = await loadFormSource(userId, { projectId: id });
  const kept = source.files.filter((file) => !change.drop?.test(file.name)).map((file) => file.id);
  const added = await uploadAll(userId, change.add ?? []);
  return editProject(
    userId,
    parseInput(editProjectSchema, { id, ...content([...kept, ...added], change.title), publish: true, ...(change.version ? { version: change.version } : {}) }),
  );
}

async function errorKeyOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.errorKey;
    throw error;
  }
  throw new Error('expected an AppError');
}

async function readAll(response: Response): Promise<string> {
  return Buffer.from(await response.arrayBuffer()).toString('utf8');
}

beforeAll(async () => {
  await createTag('motors');
});
afterAll(() => stopJobWorkers());

describe('releasing versions', () => {
  it('makes the first publication version 1, named `v1` unless the author names it', async () => {
    const { user } = await createUser();
    const id = await publish(user.id, [sheet('notes.csv', 'first')]);
    const [v1] = await listVersions(id, null);
    expect(v1).toMatchObject({ number: 1, name: 'v1', notes: '', latest: true, files: [{ name: 'notes.csv', kind: 'other' }] });
    expect((await getProjectDetail(id, null, 'en-US')).tabs.versions).toBe(1);

    const named = await publish(user.id, [], { name: 'rev A', notes: 'First run of ten boards.' });
    expect(await listVersions(named, null)).toMatchObject([{ number: 1, name: 'rev A', notes: 'First run of ten boards.' }]);
  });

  it('releases a new version from an edit, tells followers, and amends the latest when no version is given', async () => {
    const { user } = await createUser();
    const id = await publish(user.id, [sheet('readme.csv', 'v1 readme')]);
    await edit(user.id, id, { add: [sheet('errata.csv', 'fixes')], version: { name: 'v1.1', notes: 'Errata added.\nSecond line.' } });
    let list = await listVersions(id, null);
    expect(list.map((v) => [v.number, v.name, v.latest])).toEqual([
      [2, 'v1.1', true],
      [1, 'v1', false],
    ]);
    expect(list[0]!.notes).toBe('Errata added.\nSecond line.');
    expect(list[0]!.files.map((file) => file.name)).toEqual(['readme.csv', 'errata.csv']);
    expect(list[1]!.files.map((file) => file.name)).toEqual(['readme.csv']);
    const project = await getProjectDetail(id, null, 'en-US');
    expect(project.tabs.versions).toBe(2);
    const [internal] = await getDb().select({ id: projects.id }).from(projects).where(eq(projects.publicId, id));
    expect(await getDb().select({ title: activities.title, path: activities.path }).from(activities).where(and(eq(activities.projectId, internal!.id), eq(activities.kind, 'version')))).toEqual([
      { title: 'v1.1', path: `/d-${id}/versions` },
    ]);
    // The project's Atom feed carries the release (the first version is the publication itself).
    const feed = await listProjectFeed(id);
    expect(feed.entries.map((entry) => [entry.title, entry.path, entry.summary])).toEqual([[`${feed.project.title} v1.1`, `/d-${id}/versions#version-2`, 'Errata added.\nSecond line.']]);

    // An edit without a version: still two versions, the latest now has the edit's files.
    await edit(user.id, id, { drop: /errata/, add: [sheet('bom-notes.csv', 'x')] });
    list = await listVersions(id, null);
    expect(list).toHaveLength(2);
    expect(list[0]!.files.map((file) => file.name)).toEqual(['readme.csv', 'bom-notes.csv']);
  });

  it('refuses a version name the project already has, changing nothing', async () => {
    const { user } = await createUser();
    const id = await publish(user.id, [sheet('a.csv', 'a')]);
    await edit(user.id, id, { version: { name: 'v2' } });
    const [internal] = await getDb().select({ id: projects.id }).from(projects).where(eq(projects.publicId, id));
    const filesBefore = await getDb().select({ name: attachments.name }).from(attachments).where(eq(attachments.projectId, internal!.id));

    for (const name of ['v2', 'V2', 'v1']) {
      expect(await errorKeyOf(edit(user.id, id, { title: 'Renamed', add: [sheet('b.csv', 'b')], version: { name } }))).toBe('version_name_taken');
    }
    expect((await getProjectDetail(id, null, 'en-US')).title).toBe('Sangaboard');
    expect(await getDb().select({ name: attachments.name }).from(attachments).where(eq(attachments.projectId, internal!.id))).toEqual(filesBefore);
    expect((await listVersions(id, null)).map((v) => v.name)).toEqual(['v2', 'v1']);
    // a name that is not one
    expect(() => parseInput(editProjectSchema, { id, ...content([]), publish: true, version: { name: '  ' } })).toThrow();
  });

  it('gives a project published before versions existed its version 1, from the files it has before an edit', async () => {
    const { user } = await createUser();
    const old = await createProject(user.id, { title: 'Old board', publishedAt: new Date('2025-03-01T10:00:00Z'), createdAt: new Date('2025-03-01T10:00:00Z') });
    const [v1] = await listVersions(old.publicId, null);
    expect(v1).toMatchObject({ number: 1, name: 'v1', date: '2025-03-01T10:00:00.000Z', files: [] });
    expect((await getProjectDetail(old.publicId, null, 'en-US')).tabs.versions).toBe(1);
  });

  it('keeps an old version’s files downloadable after the project dropped them, counting downloads', async () => {
    const { user } = await createUser();
    const id = await publish(user.id, [sheet('firmware-1.0.csv', ':00000001FF first')]);
    await edit(user.id, id, { drop: /firmware/, add: [sheet('firmware-1.1.csv', ':00000001FF second')], version: { name: 'v1.1' } });
    const v1 = (await listVersions(id, null)).find((v) => v.name === 'v1')!;
    const file = v1.files[0]!;
    expect(file.url).toBe(`/api/version/download?id=${file.id}`);
    const response = await downloadVersionFile(file.id, null, true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('firmware-1.0.csv');
    expect(await readAll(response)).toBe('Note,Count\n:00000001FF first,1\n');
    expect((await listVersions(id, null)).find((v) => v.name === 'v1')!.files[0]!.downloadCount).toBe(1);
    expect(await errorKeyOf(downloadVersionFile('nope', null, true))).toBe('not_found');

    // a deleted project's versions and files go with it
    await deleteProject(user.id, id);
    expect(await errorKeyOf(listVersions(id, null))).toBe('project_not_found');
    expect(await errorKeyOf(downloadVersionFile(file.id, null, true))).toBe('not_found');
  });

  it('answers translated errors for unknown versions, the same version twice and a hidden project', async () => {
    const { user } = await createUser();
    const other = await createUser();
    const id = await publish(user.id, []);
    await edit(user.id, id, { version: { name: 'v2' } });
    expect(await errorKeyOf(diffVersions(id, null, 'v1', 'v9'))).toBe('version_not_found');
    expect(await errorKeyOf(diffVersions(id, null, 'v1', '1'))).toBe('same_version');
    expect((await diffVersions(id, null, '1', 'v2')).to).toEqual({ number: 2, name: 'v2' });
    await getDb().update(projects).set({ hiddenAt: new Date() }).where(eq(projects.publicId, id));
    expect(await errorKeyOf(diffVersions(id, other.user.id, 'v1', 'v2'))).toBe('project_not_found');
    expect(await errorKeyOf(listVersions(id, null))).toBe('project_not_found');
    // its owner still sees them
    expect(await listVersions(id, user.id)).toHaveLength(2);
  });
});

describe('comparing two versions of a real board and BOM', () => {
  it('diffs the BOM and the boards rendered in the job queue, including a version released while its board was queued', async () => {
    const { user } = await createUser();
    // Both versions are released before the queue renders anything: each must get its own board.
    const id = await publish(user.id, [
      { name: 'sangaboard.zip', bytes: await sangaboardZip() },
      { name: 'bom_jlc.csv', bytes: sangaBom() },
    ]);
    await edit(user.id, id, {
      drop: /sangaboard|bom_jlc/,
      add: [
        { name: 'sangaboard.zip', bytes: await sangaboardMovedPadsZip() },
        { name: 'bom_jlc.csv', bytes: sangaBomNext() },
      ],
      version: { name: 'v1.1', notes: 'Moved the pads, new regulator.' },
    });
    expect((await diffVersions(id, null, 'v1', 'v1.1')).boards).toMatchObject([{ status: 'pending' }]);

    await startJobWorkers();
    await expect
      .poll(async () => (await listVersions(id, null)).map((v) => `${v.name} ${v.boards.ready}/${v.boards.total} ${v.bom}`), { timeout: 120_000, interval: 500 })
      .toEqual(['v1.1 1/1 ready', 'v1 1/1 ready']);

    const diff = await diffVersions(id, null, 'v1', 'v1.1');
    // BOM: U7 added, U2 removed; U5 another part, U3/U4 gained U6, D5 another colour.
    expect(diff.bom.ready).toBe(true);
    expect(diff.bom.added.map((line) => line.designators)).toEqual([['U7']]);
    expect(diff.bom.removed.map((line) => line.designators)).toEqual([['U2']]);
    const changed = Object.fromEntries(diff.bom.changed.map((change) => [change.after.designators.join(','), change]));
    expect(Object.keys(changed).sort()).toEqual(['D5', 'U3,U4,U6', 'U5']);
    expect(changed['U5']).toMatchObject({ before: { value: 'CAT24C32', lcsc: 'C81193' }, after: { value: 'CAT24C64', lcsc: 'C81192' }, fields: ['value', 'lcsc'] });
    expect(changed['U3,U4,U6']).toMatchObject({ before: { quantity: 2 }, after: { quantity: 3 }, fields: ['designators', 'quantity'] });
    expect(changed['D5']!.fields).toEqual(['value']);

    // Boards: same size and layer count; the top copper changed, the bottom copper did not.
    const [board] = diff.boards;
    expect(board).toMatchObject({ name: 'sangaboard', status: 'changed', before: { layerCount: 2 }, after: { layerCount: 2 } });
    expect(board!.after!.widthMm).toBeCloseTo(board!.before!.widthMm!, 1);
    const layer = (side: string, type: string) => board!.layers.find((l) => l.side === side && l.type === type)!;
    expect(layer('top', 'copper').status).toBe('changed');
    expect(layer('bottom', 'copper').status).toBe('same');
    const { before, after } = layer('top', 'copper');
    expect(before).not.toBe(after);
    for (const url of [before, after]) expect(await getStorage().size(url!.slice('/files/'.length))).toBeGreaterThan(1000);
    expect(board!.frames.before).toEqual({ left: 0, top: 0, width: 100, height: 100 });

    // The project page shows the latest; v1's board renders are still there for the diff.
    const eda = await getEdaDetail(id, null);
    expect(eda.boards).toHaveLength(1);
    expect(eda.bom.lines.some((line) => line.designators.includes('U7'))).toBe(true);
    // The other way round: what was added is removed.
    const back = await diffVersions(id, null, '2', '1');
    expect(back.bom.added.map((line) => line.designators)).toEqual([['U2']]);
  }, 180_000);
});
