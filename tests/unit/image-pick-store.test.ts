import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/api-client.ts';
import type { UploadedFile, UploadHandle } from '../../src/lib/upload-client.ts';
import { PICTURE_MAX_BYTES } from '../../src/lib/pictures.ts';
import { createImagePick, type Uploader } from '../../src/stores/image-pick.ts';
import { createMakeForm, MAKE_PHOTOS_MAX, validateMake } from '../../src/stores/make-form.ts';

/**
 * A transfer that the test finishes by hand, standing in for the browser's XMLHttpRequest (which
 * Node has not): it reports progress and answers like `/api/upload` does.
 */
function manualUploads() {
  const sent: { purpose: string; name?: string; progress: (fraction: number) => void; resolve: (file: UploadedFile) => void; reject: (error: unknown) => void }[] = [];
  const upload: Uploader = (_file, options) => {
    let resolve!: (file: UploadedFile) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<UploadedFile>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    sent.push({ purpose: options.purpose, name: options.name, progress: (fraction) => options.onProgress?.(fraction), resolve, reject });
    return { promise, abort: () => reject(new ApiError(0, 'aborted', 'Aborted')) } satisfies UploadHandle;
  };
  return { sent, upload };
}

const stored = (id: string): UploadedFile => ({ id, url: `/files/images/${id}.webp`, name: 'image.jpg', mime: 'image/webp', size: 10 });

describe('the image-pick store', () => {
  it('refuses a picture over 10 MB before cropping, and opens the cropper on a smaller one', () => {
    const pick = createImagePick({ purpose: 'image' });
    pick.pick(new Blob([new Uint8Array(PICTURE_MAX_BYTES + 1)]));
    expect(pick.$pick.get()).toMatchObject({ cropSource: null, error: { error: { errorKey: 'too_large' } } });
    const small = new Blob(['jpg']);
    pick.pick(small);
    expect(pick.$pick.get()).toEqual({ cropSource: small, progress: null, error: null });
    pick.cancel();
    expect(pick.$pick.get().cropSource).toBeNull();
  });

  it('uploads the cropped picture with its purpose, showing progress, and answers the stored upload', async () => {
    const { sent, upload } = manualUploads();
    const pick = createImagePick({ purpose: 'image', upload });
    const done = pick.upload(new Blob(['x'], { type: 'image/jpeg' }));
    expect(sent[0]).toMatchObject({ purpose: 'image', name: 'image.jpg' });
    sent[0]!.progress(0.5);
    expect(pick.$pick.get().progress).toBe(0.5);
    sent[0]!.resolve(stored('a1'));
    expect(await done).toEqual(stored('a1'));
    expect(pick.$pick.get()).toEqual({ cropSource: null, progress: null, error: null });
  });

  it('says why an upload failed, and when the cropper could not open the picture (which it shows until closed)', async () => {
    const { sent, upload } = manualUploads();
    const pick = createImagePick({ purpose: 'cover', upload });
    const done = pick.upload(new Blob(['x']));
    const refused = new ApiError(415, 'unsupported_type', 'x');
    sent[0]!.reject(refused);
    expect(await done).toBeNull();
    expect(pick.$pick.get()).toEqual({ cropSource: null, progress: null, error: { error: refused } });
    const broken = new Blob(['not a picture']);
    pick.pick(broken);
    pick.cropFailed();
    // The cropper stays open with its own message until it is closed; the field says it too.
    expect(pick.$pick.get()).toEqual({ cropSource: broken, progress: null, error: { key: 'cropper.loadError', alert: true } });
    pick.cancel();
    expect(pick.$pick.get()).toEqual({ cropSource: null, progress: null, error: { key: 'cropper.loadError', alert: true } });
  });
});

describe('the make form store', () => {
  it('checks photos, note and link by the server’s rules', () => {
    expect(validateMake({ photos: [], note: '', link: '' })).toEqual({ photos: { key: 'makes.needPhoto', alert: true } });
    const photos = [{ id: 'a', url: '/files/a' }];
    expect(validateMake({ photos, note: 'Fine', link: 'https://example.com/mine' })).toEqual({});
    expect(validateMake({ photos, note: 'Fine', link: '/d-abc123' })).toEqual({});
    expect(validateMake({ photos, note: 'x'.repeat(2001), link: 'javascript:alert(1)' })).toEqual({ note: { field: 'too_big' }, link: { field: 'make_link' } });
  });

  it('adds each cropped photo once uploaded, up to six, and removes one', async () => {
    const { sent, upload } = manualUploads();
    const form = createMakeForm('p1', { upload });
    for (let i = 0; i < MAKE_PHOTOS_MAX; i += 1) {
      const added = form.addPhoto(new Blob(['x']));
      sent[i]!.resolve(stored(`u${i}`));
      await added;
    }
    expect(form.$form.get().photos.map((photo) => photo.id)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5']);
    form.pickPhoto(new Blob(['one more']));
    expect(form.photo.$pick.get().cropSource).toBeNull();
    expect(form.$form.get().errors.photos).toEqual({ error: { errorKey: 'too_many_images' } });
    form.removePhoto(0);
    expect(form.$form.get().photos.map((photo) => photo.id)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
  });

  it('does not send a make without a photo: the photos field says why', async () => {
    const form = createMakeForm('p1');
    expect(await form.submit()).toBeNull();
    expect(form.$form.get()).toMatchObject({ submitting: false, errors: { photos: { key: 'makes.needPhoto', alert: true } } });
  });
});
