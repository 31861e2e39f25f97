import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiCall } from '../../src/lib/api-client.ts';
import type { UploadedFile } from '../../src/lib/upload-client.ts';
import type { Uploader } from '../../src/stores/image-pick.ts';
import { createStaffImageForm } from '../../src/stores/staff-image-form.ts';
import { createStaffList } from '../../src/stores/staff-list.ts';

// The staff list's API calls, answered by each test.
vi.mock('../../src/lib/api-client.ts', async (original) => ({ ...(await original<typeof import('../../src/lib/api-client.ts')>()), apiCall: vi.fn() }));
const api = vi.mocked(apiCall);

interface Card {
  id: number;
  title: string;
  picture: string;
}
interface CardForm {
  id: number | null;
  title: string;
  picture: string;
}
const EMPTY: CardForm = { id: null, title: '', picture: '' };

/** An upload the test finishes by hand, reporting progress as the browser's would. */
function manualUpload() {
  const sent: { progress: (fraction: number) => void; resolve: (file: UploadedFile) => void; reject: (error: unknown) => void }[] = [];
  const upload: Uploader = (_file, options) => {
    const promise = new Promise<UploadedFile>((resolve, reject) => sent.push({ progress: (fraction) => options.onProgress?.(fraction), resolve, reject }));
    return { promise, abort: () => undefined };
  };
  return { sent, upload };
}

function cardEditor(cards: Card[], upload?: Uploader) {
  const list = createStaffList(cards);
  const editor = createStaffImageForm(list, {
    empty: EMPTY,
    imageField: 'picture',
    problems: (form): Record<string, string> => (form.picture ? {} : { picture: 'required' }),
    path: 'card/save',
    input: (form) => ({ ...(form.id === null ? {} : { id: form.id }), title: form.title.trim(), picture: form.picture }),
    saved: (form) => ({ key: form.id === null ? 'added' : 'saved' }),
    upload,
  });
  return { list, editor };
}

describe('the staff form with a picture', () => {
  beforeEach(() => api.mockReset());

  it('puts the cropped picture, once uploaded, into the form, showing the upload’s progress', async () => {
    const { sent, upload } = manualUpload();
    const { editor } = cardEditor([], upload);
    const picked = new File(['png'], 'card.png', { type: 'image/png' });
    editor.pickImage(picked);
    expect(editor.$editor.get()).toMatchObject({ cropSource: picked, uploading: null, imageError: null });
    const uploaded = editor.uploadImage(new Blob(['jpg'], { type: 'image/jpeg' }));
    expect(editor.$editor.get()).toMatchObject({ cropSource: null, uploading: 0 });
    sent[0]!.progress(0.5);
    expect(editor.$editor.get().uploading).toBe(0.5);
    sent[0]!.resolve({ id: 'u1', url: '/files/images/u1.webp', name: 'cover.jpg', mime: 'image/webp', size: 10 });
    await uploaded;
    expect(editor.$editor.get()).toMatchObject({ form: { picture: '/files/images/u1.webp' }, uploading: null, imageError: null });
  });

  it('says why a picture was not taken, and keeps the one the form had', async () => {
    const { sent, upload } = manualUpload();
    const { editor } = cardEditor([], upload);
    editor.fill({ id: 1, title: 'Old', picture: '/files/old.webp' });
    const uploaded = editor.uploadImage(new Blob(['jpg'], { type: 'image/jpeg' }));
    const refused = new ApiError(415, 'unsupported_type', 'No');
    sent[0]!.reject(refused);
    await uploaded;
    expect(editor.$editor.get()).toMatchObject({ form: { picture: '/files/old.webp' }, uploading: null, imageError: { error: refused } });
  });

  it('saves an edited item once into the list, says so and empties the form; a refusal keeps what was typed', async () => {
    const { list, editor } = cardEditor([{ id: 1, title: 'Old', picture: '/files/old.webp' }, { id: 2, title: 'Other', picture: '/files/2.webp' }]);
    editor.fill({ id: 1, title: 'Old', picture: '/files/old.webp' });
    editor.setField('title', ' New ');
    api.mockRejectedValueOnce(new ApiError(400, 'validation', 'No', { title: 'too_big' }));
    expect(await editor.save()).toBe(false);
    expect(list.$list.get()).toMatchObject({ busy: false, fields: { title: 'too_big' } });
    expect(editor.$editor.get().form).toEqual({ id: 1, title: ' New ', picture: '/files/old.webp' });

    api.mockResolvedValueOnce({ item: { id: 1, title: 'New', picture: '/files/old.webp' } });
    const [saved, again] = await Promise.all([editor.save(), editor.save()]);
    expect([saved, again]).toEqual([true, false]);
    expect(api.mock.calls.at(-1)).toEqual(['admin/card/save', { id: 1, title: 'New', picture: '/files/old.webp' }]);
    expect(api).toHaveBeenCalledTimes(2);
    expect(list.$list.get()).toMatchObject({ items: [{ id: 1, title: 'New' }, { id: 2, title: 'Other' }], notice: { key: 'saved' } });
    expect(editor.$editor.get().form).toEqual(EMPTY);
  });

  it('does not send a form the server would refuse, naming its fields', async () => {
    const { list, editor } = cardEditor([]);
    expect(await editor.save()).toBe(false);
    expect(api).not.toHaveBeenCalled();
    expect(list.$list.get()).toMatchObject({ notice: { key: 'admin.fixErrors' }, fields: { picture: 'required' } });
  });
});
