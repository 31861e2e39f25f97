import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/api-client.ts';
import { noticeText } from '../../../src/lib/notice.ts';
import { getT } from '../../../src/lib/i18n.ts';
import type { TransferEvents, UnfinishedUpload } from '../../../src/lib/video-transfer.ts';
import { createVideoUpload, fileProblem, secondsLeft, titleFromName, uploadFraction, uploadRate, videoMime, type VideoUploadDeps } from '../../../src/stores/video-upload.ts';
import type { Video, VideoUploadTicket } from '../../../src/lib/contract/schemas/videos.ts';

const MB = 1024 * 1024;
const t = getT('en-US');

const ticket: VideoUploadTicket = { uploadUrl: '/api/video/tus', uploadToken: 'tok-1', expiresAt: '2030-01-01T00:00:00Z' };

function savedVideo(title: string): Video {
  return { id: 'v1', title, status: 'processing', duration: null, width: null, height: null, poster: null, owner: { url: 'ada', nickname: 'Ada', avatar: null }, project: null, createdAt: '2026-11-24T00:00:00Z' };
}

/** The store with a transfer the test drives: progress, success and failure when it says so. */
function harness(overrides: Partial<VideoUploadDeps> = {}) {
  let clock = 0;
  const calls: string[] = [];
  const transfers: { from: 'ticket' | 'unfinished'; events: TransferEvents; starts: number; pauses: number }[] = [];
  const saved: Video[] = [];
  const deps: Partial<VideoUploadDeps> = {
    requestTicket: async (body) => {
      calls.push(`ticket ${body.name} ${body.size} ${body.mime}`);
      return ticket;
    },
    saveVideo: async (body) => {
      calls.push(`save ${body.uploadToken} ${body.title} ${body.projectId ?? '-'}`);
      return savedVideo(body.title);
    },
    findUnfinished: async () => null,
    forgetUnfinished: async () => {
      calls.push('forget');
    },
    openTransfer: (_file, from, _mime, events) => {
      const transfer = { from: 'ticket' in from ? ('ticket' as const) : ('unfinished' as const), events, starts: 0, pauses: 0 };
      transfers.push(transfer);
      return {
        start: () => {
          transfer.starts += 1;
        },
        pause: async () => {
          transfer.pauses += 1;
        },
      };
    },
    now: () => clock,
    ...overrides,
  };
  const store = createVideoUpload({ deps, onSaved: (video) => saved.push(video) });
  return {
    store,
    calls,
    transfers,
    saved,
    state: () => store.$upload.get(),
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

const clip = (name = 'Board_bring-up.mp4', type = 'video/mp4') => new File([new Uint8Array(0)], name, { type, lastModified: 1 });

/** A File of `size` bytes without allocating them. */
function sized(file: File, size: number): File {
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('the upload maths', () => {
  it('measures speed over the last five seconds and the time left at that speed', () => {
    const samples = [
      { at: 0, sent: 0 },
      { at: 1000, sent: 2 * MB },
      { at: 2000, sent: 4 * MB },
    ];
    expect(uploadRate(samples, 2000)).toBe(2 * MB);
    // An old burst no longer counts.
    expect(uploadRate([{ at: 0, sent: 0 }, { at: 6000, sent: 50 * MB }, { at: 8000, sent: 52 * MB }], 8000)).toBe(MB);
    expect(uploadRate([{ at: 0, sent: 0 }], 0)).toBeNull();
    expect(secondsLeft(4 * MB, 10 * MB, 2 * MB)).toBe(3);
    expect(secondsLeft(4 * MB, 10 * MB, null)).toBeNull();
    expect(secondsLeft(4 * MB, 10 * MB, 0)).toBeNull();
    expect(uploadFraction({ sent: 5, total: 20 })).toBe(0.25);
    expect(uploadFraction({ sent: 0, total: 0 })).toBe(0);
  });

  it('names a video after its file and knows the types browsers leave blank', () => {
    expect(titleFromName('Board_bring-up.final.mp4')).toBe('Board bring-up.final');
    expect(titleFromName('.hidden')).toBe('.hidden');
    expect(videoMime('trip.MKV', '')).toBe('video/x-matroska');
    expect(videoMime('phone.mov', 'video/quicktime')).toBe('video/quicktime');
    expect(videoMime('notes.txt', '')).toBe('');
  });

  it('refuses empty, oversized and non-video files before asking the server', () => {
    expect(t((fileProblem({ name: 'a.mp4', size: 0, mime: 'video/mp4' }) as { key: string }).key)).toBe('This file is empty.');
    expect(noticeText(fileProblem({ name: 'a.mp4', size: 2 * 1024 * MB, mime: 'video/mp4' })!, t)).toBe('This file is larger than 1 GB.');
    expect(noticeText(fileProblem({ name: 'a.txt', size: 10, mime: 'text/plain' })!, t)).toContain('not a video');
    expect(fileProblem({ name: 'a.mp4', size: 10, mime: 'video/mp4' })).toBeNull();
  });
});

describe('an upload', () => {
  it('goes idle → picked → uploading (progress, speed, time left) → saving → done, and hands the video to the list', async () => {
    const h = harness();
    expect(h.state().phase).toBe('idle');
    await h.store.pick(sized(clip(), 40 * MB));
    expect(h.state()).toMatchObject({ phase: 'picked', title: 'Board bring-up', file: { name: 'Board_bring-up.mp4', size: 40 * MB, mime: 'video/mp4' } });
    h.store.setTitle('Bring-up of rev B');
    h.store.setProject('p42');
    await h.store.send();
    expect(h.calls).toEqual([`ticket Board_bring-up.mp4 ${40 * MB} video/mp4`]);
    expect(h.state().phase).toBe('uploading');
    const [transfer] = h.transfers;
    expect(transfer).toMatchObject({ from: 'ticket', starts: 1 });
    transfer!.events.onProgress(0, 40 * MB);
    h.tick(1000);
    transfer!.events.onProgress(8 * MB, 40 * MB);
    h.tick(1000);
    transfer!.events.onProgress(16 * MB, 40 * MB);
    expect(h.state()).toMatchObject({ sent: 16 * MB, total: 40 * MB, rate: 8 * MB, secondsLeft: 3 });
    expect(uploadFraction(h.state())).toBe(0.4);
    transfer!.events.onSuccess();
    await Promise.resolve();
    await Promise.resolve();
    expect(h.calls.at(-1)).toBe('save tok-1 Bring-up of rev B p42');
    expect(h.state().phase).toBe('done');
    expect(noticeText(h.state().notice!, t)).toContain('“Bring-up of rev B” is uploaded');
    expect(h.saved.map((video) => video.status)).toEqual(['processing']);
  });

  it('stops on Cancel and continues from where it stopped on Resume', async () => {
    const h = harness();
    await h.store.pick(sized(clip(), 40 * MB));
    await h.store.send();
    const [transfer] = h.transfers;
    transfer!.events.onProgress(8 * MB, 40 * MB);
    await h.store.cancel();
    expect(h.state()).toMatchObject({ phase: 'paused', sent: 8 * MB, rate: null, secondsLeft: null });
    expect(transfer!.pauses).toBe(1);
    h.store.resume();
    expect(h.state().phase).toBe('uploading');
    // The same transfer continues: no second ticket, no new upload.
    expect(transfer!.starts).toBe(2);
    expect(h.transfers).toHaveLength(1);
    expect(h.calls.filter((call) => call.startsWith('ticket'))).toHaveLength(1);
  });

  it('offers an unfinished upload of the same file and continues it with its own token', async () => {
    const unfinished = { uploadToken: 'tok-old', previous: { size: 40 * MB, metadata: { uploadToken: 'tok-old' }, creationTime: 'x', urlStorageKey: 'k', uploadUrl: '/api/video/tus/abc', parallelUploadUrls: null } } as UnfinishedUpload;
    const h = harness({ findUnfinished: async () => unfinished });
    await h.store.pick(sized(clip(), 40 * MB));
    expect(h.state()).toMatchObject({ phase: 'picked', unfinished: true });
    expect(noticeText(h.state().notice!, t)).toContain('began uploading this file before');
    await h.store.send();
    expect(h.calls).toEqual([]);
    expect(h.transfers[0]).toMatchObject({ from: 'unfinished', starts: 1 });
    h.transfers[0]!.events.onSuccess();
    await Promise.resolve();
    await Promise.resolve();
    expect(h.calls).toEqual(['save tok-old Board bring-up -']);
  });

  it('starts over when asked: forgets the unfinished upload and takes a new ticket', async () => {
    const unfinished = { uploadToken: 'tok-old', previous: {} } as UnfinishedUpload;
    const h = harness({ findUnfinished: async () => unfinished });
    await h.store.pick(sized(clip(), 40 * MB));
    await h.store.startOver();
    expect(h.calls).toEqual(['forget', `ticket Board_bring-up.mp4 ${40 * MB} video/mp4`]);
    expect(h.transfers[0]).toMatchObject({ from: 'ticket' });
  });

  it('starts again from the first byte when the server no longer has the unfinished upload', async () => {
    const unfinished = { uploadToken: 'tok-old', previous: {} } as UnfinishedUpload;
    const h = harness({ findUnfinished: async () => unfinished });
    await h.store.pick(sized(clip(), 40 * MB));
    await h.store.send();
    h.transfers[0]!.events.onError(new ApiError(404, 'upload_not_found' as 'not_found', 'gone'));
    expect(h.state()).toMatchObject({ phase: 'error', unfinished: false });
    expect(noticeText(h.state().notice!, t)).toContain('expired');
    await h.store.retry();
    expect(h.transfers[1]).toMatchObject({ from: 'ticket', starts: 1 });
  });

  it('asks for a title, and shows the server’s refusal of the ticket in the reader’s words', async () => {
    const h = harness({
      requestTicket: async () => {
        throw new ApiError(413, 'too_large', 'Too large');
      },
    });
    await h.store.pick(sized(clip(), 40 * MB));
    h.store.setTitle('   ');
    await h.store.send();
    expect(noticeText(h.state().titleError!, t)).toBe('This field is required.');
    expect(h.state().phase).toBe('picked');
    h.store.setTitle('Rev B');
    await h.store.send();
    expect(h.state().phase).toBe('error');
    expect(noticeText(h.state().notice!, getT('zh-CN'))).toBe(getT('zh-CN')('errors.too_large'));
  });

  it('continues the same transfer after a network failure, and saves again after a refused save', async () => {
    let refuse = true;
    const h = harness({
      saveVideo: async (body) => {
        if (refuse) throw new ApiError(400, 'validation', 'bad', { title: 'too_big' });
        return savedVideo(body.title);
      },
    });
    await h.store.pick(sized(clip(), 40 * MB));
    await h.store.send();
    const [transfer] = h.transfers;
    transfer!.events.onError(new ApiError(0, 'network', 'offline'));
    expect(h.state().phase).toBe('error');
    expect(noticeText(h.state().notice!, t)).toContain('The upload stopped');
    await h.store.retry();
    expect(transfer!.starts).toBe(2);
    transfer!.events.onSuccess();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.state().phase).toBe('error');
    expect(noticeText(h.state().titleError!, t)).toBe(t('validation.too_big'));
    refuse = false;
    await h.store.retry();
    expect(h.state().phase).toBe('done');
    expect(h.saved).toHaveLength(1);
  });

  it('ignores what an earlier file’s transfer reports after another file is picked', async () => {
    const h = harness();
    await h.store.pick(sized(clip('one.mp4'), 10 * MB));
    await h.store.send();
    await h.store.pick(sized(clip('two.mp4'), 20 * MB));
    h.transfers[0]!.events.onProgress(9 * MB, 10 * MB);
    expect(h.state()).toMatchObject({ phase: 'picked', sent: 0, total: 20 * MB, file: { name: 'two.mp4' } });
    expect(h.transfers[0]!.pauses).toBe(1);
  });

  it('sends nothing when the island goes live: only the owner’s click does', () => {
    // `useIslandStore` runs a store's `start` once the island is live.
    expect('start' in harness().store).toBe(false);
  });

  it('refuses a picked non-video at once', async () => {
    const h = harness();
    await h.store.pick(sized(clip('notes.txt', 'text/plain'), 10));
    expect(h.state()).toMatchObject({ phase: 'idle', file: null });
    expect(noticeText(h.state().notice!, t)).toContain('not a video');
  });
});
