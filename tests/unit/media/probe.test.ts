import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_MAX_BYTES, VIDEO_MAX_SECONDS, type VideoErrorKey } from '../../../src/lib/contract/video.ts';
import { MediaError } from '../../../src/server/media/errors.ts';
import { probeVideo } from '../../../src/server/media/probe.ts';
import * as clips from '../../helpers/videos.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'probe-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(file: string, options?: Parameters<typeof probeVideo>[1]): Promise<VideoErrorKey> {
  const error = await probeVideo(file, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MediaError);
  return (error as MediaError).key;
}

describe('probeVideo reads what members upload', () => {
  it('an H.264/AAC MP4 with its index at the end: codecs, size, duration, not fast-start', async () => {
    const probe = await probeVideo(await clips.writeH264Mp4(dir));
    expect(probe).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 640, height: 360, rotation: 0, fastStart: false, pixelFormat: 'yuv420p' });
    expect(probe.container).toContain('mp4');
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
    expect(probe.sizeBytes).toBeGreaterThan(0);
    expect(probe.bitRate).toBeGreaterThan(0);
  });

  it('the same with its index first is fast-start', async () => {
    const probe = await probeVideo(await clips.writeH264Mp4(dir, { fastStart: true, name: 'faststart.mp4' }));
    expect(probe.fastStart).toBe(true);
  });

  it('an iPhone-style HEVC MOV', async () => {
    const probe = await probeVideo(await clips.writeHevcMov(dir));
    expect(probe).toMatchObject({ videoCodec: 'hevc', audioCodec: 'aac', width: 640, height: 360 });
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
  });

  it('a VP9/Opus WebM, and one streamed by a browser recorder without a duration in its header', async () => {
    for (const file of [await clips.writeVp9Webm(dir), await clips.writeVp9Webm(dir, { streamed: true })]) {
      const probe = await probeVideo(file);
      expect(probe).toMatchObject({ videoCodec: 'vp9', audioCodec: 'opus', width: 320, height: 240, fastStart: false });
      expect(probe.container).toContain('webm');
      expect(probe.durationSeconds).toBeCloseTo(2, 1);
    }
  });

  it('a phone filming upright: stored landscape, displayed portrait, turned 90° clockwise', async () => {
    const upright = await probeVideo(await clips.writeRotatedClip(dir, { width: 640, height: 360 }));
    expect(upright).toMatchObject({ rotation: 90, width: 360, height: 640 });
    const other = await probeVideo(await clips.writeRotatedClip(dir, { width: 640, height: 360, rotation: 270 }));
    expect(other).toMatchObject({ rotation: 270, width: 360, height: 640 });
    const upsideDown = await probeVideo(await clips.writeRotatedClip(dir, { width: 640, height: 360, rotation: 180 }));
    expect(upsideDown).toMatchObject({ rotation: 180, width: 640, height: 360 });
  });
});

describe('probeVideo refuses what cannot become a video, with the reason', () => {
  it('an empty file, a text file and a picture named .mp4 are not videos', async () => {
    expect(await refusal(await clips.writeEmptyMp4(dir))).toBe('not_video');
    expect(await refusal(await clips.writeTextAsMp4(dir))).toBe('not_video');
    expect(await refusal(await clips.writeImageAsMp4(dir))).toBe('not_video');
  });

  it('sound alone has no video stream', async () => {
    expect(await refusal(await clips.writeAudioOnlyMp4(dir))).toBe('no_video_stream');
  });

  it('an upload cut short is truncated, whether its index was at the end or at the front', async () => {
    expect(await refusal(await clips.writeTruncatedMp4(dir))).toBe('truncated');
    expect(await refusal(await clips.writeTruncatedMp4(dir, { fastStart: true }))).toBe('truncated');
  });

  it(`a video longer than ${VIDEO_MAX_SECONDS / 60} minutes is too long`, async () => {
    expect(await refusal(await clips.writeLongMp4(dir, VIDEO_MAX_SECONDS + 1))).toBe('too_long');
  });

  it('frames beyond 8K, and a file over the byte limit, are too large', async () => {
    expect(await refusal(await clips.writeOversizedFrameMp4(dir))).toBe('too_large');
    expect(await refusal(await clips.writeSparseFile(dir, VIDEO_MAX_BYTES + 1))).toBe('too_large');
  });

  it('a probe past its time limit is timed out', async () => {
    expect(await refusal(await clips.writeH264Mp4(dir, { name: 'slow.mp4' }), { timeoutMs: 1 })).toBe('timed_out');
  });
});
