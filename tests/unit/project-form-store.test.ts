import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/lib/api-client.ts';
import { getT } from '../../src/lib/i18n.ts';
import { copyKey, copyToRestore, readCopy, snapshotOf, writeCopy, type LocalCopy } from '../../src/lib/project-form-copy.ts';
import { ATTACHMENTS_MAX, ATTACHMENT_MAX_BYTES } from '../../src/lib/contract/project-limits.ts';
import {
  createProjectForm,
  fieldErrorsOf,
  firstInvalid,
  itemsOf,
  newAttachments,
  publishProblems,
  versionToSend,
  type ProjectFormSource,
} from '../../src/stores/project-form.ts';
import { PICTURE_MAX_BYTES as IMAGE_MAX_BYTES } from '../../src/lib/pictures.ts';
import { insertLine } from '../../src/stores/markdown-images.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const content = { title: 'Probe', summary: '', description: '', cover: null, tags: [], licence: 'MIT', attachments: ['f1'] };
const source: ProjectFormSource = { draftId: 'd1', projectId: null, content, files: [{ id: 'f1', name: 'board.gbr', mime: 'application/vnd.gerber', size: 10 }], updatedAt: '2026-03-01T12:00:00.000Z' };
const makeForm = () => createProjectForm({ source, locale: 'en-US', successPath: '/create/success', formPath: '/create/project', t: getT('en-US') });

describe('the project form store', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));

  it('knows when there are changes the server does not have, and clears a field’s error when it changes', () => {
    const form = makeForm();
    expect(form.$dirty.get()).toBe(false);
    form.$form.setKey('errors', { title: { field: 'required' } });
    form.setField('title', 'Probe v2');
    expect(form.$dirty.get()).toBe(true);
    expect(form.$form.get().errors.title).toBeUndefined();
    form.setField('title', 'Probe');
    expect(form.$dirty.get()).toBe(false);
  });

  it('refuses a cover over 10 MB before cropping, and opens the cropper for others', () => {
    const form = makeForm();
    form.chooseCover(new File([new Uint8Array(IMAGE_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' }));
    expect(form.$form.get()).toMatchObject({ cropSource: null, errors: { cover: { key: 'form.errors.cover.tooLarge' } } });
    const small = new File(['png'], 'small.png', { type: 'image/png' });
    form.chooseCover(small);
    expect(form.$form.get().cropSource).toBe(small);
    form.cropFailed();
    expect(form.$form.get()).toMatchObject({ cropSource: null, errors: { cover: { key: 'cropper.loadError' } } });
  });

  it('checks title, licence and failed uploads before publishing, and focuses the first problem', async () => {
    const form = makeForm();
    form.setField('title', '  ');
    form.setField('licence', '');
    expect(await form.publish()).toBe('title');
    expect(form.$form.get().errors).toEqual({ title: { field: 'required', key: 'form.errors.title.required' }, licence: { field: 'required', key: 'form.errors.licence.required' } });
    expect(form.$form.get().status).toEqual({ notice: { key: 'form.fixErrors', alert: true } });
    expect(publishProblems(content, [{ key: 'k', id: null, name: 'x', size: 1, progress: 0, status: 'error' }])).toEqual({ attachments: { key: 'form.errors.attachments.failed', alert: true } });
    // A version name with characters names are not written with is said on the form, before sending.
    expect(publishProblems(content, [], { editing: true, choice: { release: true, name: 'v2 «final»', notes: '' } })).toEqual({ version: { field: 'version_name', key: 'form.errors.version.version_name' } });
    expect(publishProblems(content, [], { editing: true, choice: { release: true, name: 'rev C – 2025-06', notes: '' } })).toEqual({});
    // Not released as a new version: its name is not sent, so not checked.
    expect(publishProblems(content, [], { editing: true, choice: { release: false, name: 'v2 «final»', notes: '' } })).toEqual({});
  });

  it('refuses more attachments once the list is full, and files too large or empty at once', () => {
    const form = makeForm();
    form.$form.setKey('files', itemsOf(Array.from({ length: ATTACHMENTS_MAX }, (_, index) => ({ id: `f${index}`, name: `f${index}`, mime: '', size: 1 }))));
    form.addAttachments([new File(['x'], 'one-more.txt')]);
    expect(form.$form.get().errors.attachments).toEqual({ key: 'form.errors.attachments.too_big', alert: true });
    const items = newAttachments(ATTACHMENTS_MAX - 2, [
      { name: 'huge.zip', size: ATTACHMENT_MAX_BYTES + 1 },
      { name: 'empty.txt', size: 0 },
      { name: 'dropped.txt', size: 1 },
    ])!;
    expect(items.map((item) => [item.name, item.status, item.error])).toEqual([
      ['huge.zip', 'error', { key: 'form.fileTooLarge', alert: true }],
      ['empty.txt', 'error', { key: 'form.fileEmpty', alert: true }],
    ]);
  });

  it('goes back to the server’s version when the restored copy is discarded', () => {
    const form = makeForm();
    writeCopy(copyKey(null, 'd1'), { v: 1, savedAt: '2026-03-02T00:00:00.000Z', draftId: 'd1', projectId: null, fields: { ...content, title: 'Typed' }, files: [] });
    form.setField('title', 'Typed');
    form.discardRestored();
    expect(form.$form.get().fields.title).toBe('Probe');
    expect(readCopy(copyKey(null, 'd1'))).toBeNull();
  });

  it('names the refused fields of a save in the form’s words', () => {
    const errors = fieldErrorsOf(new ApiError(400, 'validation', 'x', { 'tags.2': 'unknown_tag', 'tags.3': 'too_big', summary: 'too_big' }));
    expect(errors).toEqual({ tags: { field: 'unknown_tag', key: 'form.errors.tags.unknown_tag' }, summary: { field: 'too_big', key: 'form.errors.summary.too_big' } });
    expect(firstInvalid(errors!)).toBe('summary');
    expect(fieldErrorsOf(new ApiError(500, 'internal', 'x'))).toBeNull();
  });

  it('names version 1 on a first publication (v1 when left empty) and releases a new version from an edit only when asked', async () => {
    expect(makeForm().$form.get().version).toEqual({ release: false, name: 'v1', notes: '' });
    expect(versionToSend(false, { release: false, name: ' ', notes: '' })).toEqual({ name: 'v1', notes: '' });
    expect(versionToSend(false, { release: false, name: 'rev A', notes: 'first' })).toEqual({ name: 'rev A', notes: 'first' });
    expect(versionToSend(true, { release: false, name: 'v1.1', notes: 'x' })).toBeUndefined();
    expect(versionToSend(true, { release: true, name: ' v1.1 ', notes: 'Moved pads' })).toEqual({ name: 'v1.1', notes: 'Moved pads' });

    const edit = createProjectForm({ source: { ...source, draftId: null, projectId: 'p1', latestVersion: 'v1' }, locale: 'en-US', successPath: '/create/success', formPath: '/create/project', t: getT('en-US') });
    expect(edit.$form.get().version).toEqual({ release: false, name: '', notes: '' });
    expect(edit.latestVersion).toBe('v1');
    edit.setVersion({ release: true });
    expect(await edit.publish()).toBe('version');
    expect(edit.$form.get().errors.version).toEqual({ key: 'form.version.nameRequired', alert: true });
    edit.setVersion({ name: 'v1.1' });
    expect(edit.$form.get().errors.version).toBeUndefined();
  });

  it('inserts an image on a line of its own at the caret', () => {
    expect(insertLine('Intro', 5, 5, '![a](u)')).toEqual({ value: 'Intro\n\n![a](u)\n', caret: 15 });
    expect(insertLine('Intro\n\nEnd', 6, 6, '![a](u)')).toEqual({ value: 'Intro\n\n![a](u)\n\nEnd', caret: 15 });
    expect(insertLine('replace me', 0, 10, 'x')).toEqual({ value: 'x\n', caret: 2 });
    // After a list: a paragraph of its own, not the last item's continuation.
    expect(insertLine('- one\n- two', 11, 11, '![a](u)')).toEqual({ value: '- one\n- two\n\n![a](u)\n', caret: 21 });
    // Inside a sentence: the sentence goes on in a paragraph after the picture.
    expect(insertLine('Solder it here then test', 15, 15, '![a](u)').value).toBe('Solder it here \n\n![a](u)\n\nthen test');
  });
});

describe('the local copy of the form', () => {
  const copy = (savedAt: string, title: string): LocalCopy => ({ v: 1, savedAt, draftId: null, projectId: null, fields: { ...content, title }, files: [] });
  const server = snapshotOf({ ...content, title: 'Server' }, []);

  it('is restored only when newer than the server’s version and different from it', () => {
    expect(copyToRestore(copy('2026-03-02T00:00:00.000Z', 'Typed'), '2026-03-01T00:00:00.000Z', server)?.fields.title).toBe('Typed');
    expect(copyToRestore(copy('2026-02-28T00:00:00.000Z', 'Typed'), '2026-03-01T00:00:00.000Z', server)).toBeNull();
    expect(copyToRestore(copy('2026-03-02T00:00:00.000Z', 'Server'), '2026-03-01T00:00:00.000Z', server)).toBeNull();
    expect(copyToRestore(copy('2020-01-01T00:00:00.000Z', 'Typed'), null, server)?.fields.title).toBe('Typed');
  });

  it('is kept per project, draft or new form, and unreadable copies are ignored', () => {
    const storage = memoryStorage();
    expect([copyKey('p', 'd'), copyKey(null, 'd'), copyKey(null, null)]).toEqual(['copperhub:project-form:project:p', 'copperhub:project-form:draft:d', 'copperhub:project-form:new']);
    storage.setItem(copyKey(null, null), '{not json');
    expect(readCopy(copyKey(null, null), storage)).toBeNull();
    storage.setItem(copyKey(null, null), JSON.stringify({ v: 2, fields: {} }));
    expect(readCopy(copyKey(null, null), storage)).toBeNull();
  });
});
