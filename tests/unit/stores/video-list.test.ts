import { afterEach, describe, expect, it, vi } from 'vitest';
import { VIDEO_PAGE_SIZE, type VideoStatus } from '../../../src/lib/contract/video.ts';
import { getT } from '../../../src/lib/i18n.ts';
import { noticeText } from '../../../src/lib/notice.ts';
import { createVideoList, isPending, mergeVideos } from '../../../src/stores/video-list.ts';
import type { Video } from '../../../src/lib/contract/schemas/videos.ts';

const t = getT('en-US');

function video(id: string, status: VideoStatus = 'ready'): Video {
  return { id, title: `Video ${id}`, status, duration: 12, width: 320, height: 240, poster: null, owner: { url: 'ada', nickname: 'Ada', avatar: null }, project: null, createdAt: '2026-11-24T00:00:00Z' };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the owner’s video list', () => {
  it('knows which videos are still being prepared and keeps a just-saved one the server has not listed yet', () => {
    expect(isPending(video('a', 'processing'))).toBe(true);
    expect(isPending(video('a', 'uploading'))).toBe(true);
    expect(isPending(video('a', 'failed'))).toBe(false);
    const shown = [video('new', 'processing'), video('gone'), video('a', 'processing')];
    expect(mergeVideos(shown, [video('a')], new Set(['new'])).map((v) => `${v.id}:${v.status}`)).toEqual(['new:processing', 'a:ready']);
  });

  it('asks again every few seconds while a video is processing, and stops once all are ready', async () => {
    vi.useFakeTimers();
    const answers = [[video('n', 'processing'), video('a')], [video('n'), video('a')]];
    const asked: unknown[] = [];
    const list = createVideoList({ ownerUrl: 'ada', videos: [video('a')] }, { list: async (body) => (asked.push(body), { list: answers.shift() ?? [] }), remove: async () => ({}), edit: async () => video('n') }, 1000);
    const stop = list.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(asked).toHaveLength(0);
    list.add(video('n', 'processing'));
    expect(list.$videos.get().videos.map((v) => v.id)).toEqual(['n', 'a']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(asked).toEqual([{ url: 'ada', page: 1, pageSize: VIDEO_PAGE_SIZE }]);
    expect(list.$videos.get().videos[0]!.status).toBe('processing');
    await vi.advanceTimersByTimeAsync(1000);
    expect(list.$videos.get().videos.map((v) => v.status)).toEqual(['ready', 'ready']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked).toHaveLength(2);
    stop();
  });

  it('asks again for the page the owner is on, as large as the page the server rendered', async () => {
    const asked: unknown[] = [];
    const list = createVideoList({ ownerUrl: 'ada', videos: [video('old', 'uploading')], page: 3 }, { list: async (body) => (asked.push(body), { list: [video('old')] }), remove: async () => ({}), edit: async () => video('old') });
    await list.refresh();
    expect(asked).toEqual([{ url: 'ada', page: 3, pageSize: VIDEO_PAGE_SIZE }]);
    expect(list.$videos.get().videos.map((v) => v.status)).toEqual(['ready']);
  });

  it('deletes a video after confirming, and says so', async () => {
    const removed: string[] = [];
    const list = createVideoList({ ownerUrl: 'ada', videos: [video('a'), video('b')] }, { list: async () => ({ list: [] }), remove: async ({ id }) => removed.push(id), edit: async () => video('a') });
    list.askDelete(video('a'));
    list.cancelDelete();
    expect(list.$videos.get().deleting).toBeNull();
    list.askDelete(video('a'));
    await list.confirmDelete();
    expect(removed).toEqual(['a']);
    expect(list.$videos.get().videos.map((v) => v.id)).toEqual(['b']);
    expect(noticeText(list.$videos.get().notice!, t)).toBe('“Video a” was deleted.');
  });
});
