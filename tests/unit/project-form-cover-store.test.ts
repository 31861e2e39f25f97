import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/lib/api-client.ts';
import { getT } from '../../src/lib/i18n.ts';
import { uploadFile, type UploadedFile } from '../../src/lib/upload-client.ts';
import { createProjectForm, type ProjectFormSource } from '../../src/stores/project-form.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

// The browser's upload (XMLHttpRequest, which Node has not), finished by each test by hand.
vi.mock('../../src/lib/upload-client.ts', async (original) => ({ ...(await original<typeof import('../../src/lib/upload-client.ts')>()), uploadFile: vi.fn() }));
const sent: { options: Parameters<typeof uploadFile>[1]; resolve: (file: UploadedFile) => void; reject: (error: unknown) => void }[] = [];
vi.mocked(uploadFile).mockImplementation((_file, options) => {
  const promise = new Promise<UploadedFile>((resolve, reject) => sent.push({ options, resolve, reject }));
  return { promise, abort: () => undefined };
});

const source: ProjectFormSource = { draftId: null, projectId: null, content: { title: 'Probe', summary: '', description: '', cover: null, tags: [], licence: 'MIT', attachments: [] }, files: [], updatedAt: null };
const makeForm = () => createProjectForm({ source, locale: 'en-US', successPath: '/create/success', formPath: '/create/project', t: getT('en-US') });

describe('the project form’s cover', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    sent.length = 0;
  });

  it('uploads the cropped picture as a cover, showing progress and holding saving back until it is in', async () => {
    const form = makeForm();
    form.chooseCover(new File(['png'], 'board.png', { type: 'image/png' }));
    const uploaded = form.uploadCover(new Blob(['jpg'], { type: 'image/jpeg' }));
    expect(sent.map(({ options }) => [options.purpose, options.name])).toEqual([['cover', 'cover.jpg']]);
    expect(form.$form.get()).toMatchObject({ cropSource: null, coverProgress: 0 });
    sent[0]!.options.onProgress?.(0.5);
    expect(form.$form.get().coverProgress).toBe(0.5);
    expect(form.$uploading.get()).toBe(true);
    sent[0]!.resolve({ id: 'c1', url: '/files/images/c1.webp', name: 'cover.jpg', mime: 'image/webp', size: 10 });
    await uploaded;
    expect(form.$form.get()).toMatchObject({ coverProgress: null, fields: { cover: '/files/images/c1.webp' } });
    expect(form.$form.get().errors.cover).toBeUndefined();
    expect(form.$uploading.get()).toBe(false);
  });

  it('says beside the cover why a picture was refused, and keeps the cover it had', async () => {
    const form = makeForm();
    form.setField('cover', '/files/images/old.webp');
    const uploaded = form.uploadCover(new Blob(['jpg'], { type: 'image/jpeg' }));
    const refused = new ApiError(415, 'unsupported_type', 'No');
    sent[0]!.reject(refused);
    await uploaded;
    expect(form.$form.get()).toMatchObject({ coverProgress: null, fields: { cover: '/files/images/old.webp' }, errors: { cover: { error: refused } } });
    // Choosing another picture opens the cropper; the refusal stays until the next upload starts.
    const next = new File(['png'], 'next.png', { type: 'image/png' });
    form.chooseCover(next);
    expect(form.$form.get()).toMatchObject({ cropSource: next, errors: { cover: { error: refused } } });
    form.cancelCrop();
    expect(form.$form.get().cropSource).toBeNull();
  });
});
