import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../../src/server/media/errors.ts';
import { prepareForWeb, type PreparedVideo } from '../../../src/server/media/prepare.ts';
import { probeVideo } from '../../../src/server/media/probe.ts';
import * as clips from '../../helpers/videos.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'prepare-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let outputs = 0;
/** Probes first, as the job does, then prepares into a folder of its own. */
async function prepared(input: string): Promise<PreparedVideo> {
  const probe = await probeVideo(input);
  const outDir = path.join(dir, `out-${++outputs}`);
  await mkdir(outDir);
  return prepareForWeb(input, outDir, probe);
}

/** What a browser gets: H.264 with its index first, no turn left, AAC when there was sound, and a JPEG poster. */
async function expectPlayable(result: PreparedVideo, expected: { width: number; height: number; audio: boolean }) {
  expect(path.basename(result.file)).toBe('video.mp4');
  const boxes = await clips.topLevelBoxes(result.file);
  expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
  expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  const output = await probeVideo(result.file);
  expect(output).toMatchObject({ videoCodec: 'h264', pixelFormat: 'yuv420p', rotation: 0, width: expected.width, height: expected.height, audioCodec: expected.audio ? 'aac' : null });
  expect(Math.min(output.width, output.height)).toBeLessThanOrEqual(720);
  expect(result).toMatchObject({ width: expected.width, height: expected.height, sizeBytes: output.sizeBytes });
  expect(result.durationSeconds).toBeCloseTo(2, 1);
  const poster = await sharp(result.poster).metadata();
  expect(poster.format).toBe('jpeg');
  expect(poster.width).toBe(Math.min(expected.width, 1280));
  expect((poster.width ?? 0) / (poster.height ?? 1)).toBeCloseTo(expected.width / expected.height, 1);
}

describe('prepareForWeb makes every upload playable in a browser', () => {
  it('remuxes an H.264/AAC MP4 with its index at the end: same pictures, index moved to the front, in moments', async () => {
    const input = await clips.writeH264Mp4(dir);
    expect((await clips.topLevelBoxes(input)).slice(-1)).toEqual(['moov']);
    const result = await prepared(input);
    expect(result.remuxed).toBe(true);
    await expectPlayable(result, { width: 640, height: 360, audio: true });
  });

  it('transcodes an iPhone-style HEVC MOV to H.264', async () => {
    const result = await prepared(await clips.writeHevcMov(dir));
    expect(result.remuxed).toBe(false);
    await expectPlayable(result, { width: 640, height: 360, audio: true });
  });

  it('tone-maps a phone\'s 10-bit HDR HEVC to 8-bit H.264 in ordinary BT.709 colours', async () => {
    const input = await clips.writeHdrHevcMov(dir);
    expect(await probeVideo(input)).toMatchObject({ hdr: true, pixelFormat: 'yuv420p10le' });
    const result = await prepared(input);
    expect(result.remuxed).toBe(false);
    await expectPlayable(result, { width: 640, height: 360, audio: true });
    expect((await probeVideo(result.file)).hdr).toBe(false);
  });

  it('transcodes a VP9/Opus WebM to H.264/AAC', async () => {
    const result = await prepared(await clips.writeVp9Webm(dir));
    expect(result.remuxed).toBe(false);
    await expectPlayable(result, { width: 320, height: 240, audio: true });
  });

  it('turns a phone clip upright: 1280×720 frames turned 90° become a 720×1280 video with no turn left', async () => {
    const input = await clips.writeRotatedClip(dir);
    // the marker is drawn in the stored frames' top-left corner; turned clockwise it is top-right
    const result = await prepared(input);
    expect(result.remuxed).toBe(false);
    await expectPlayable(result, { width: 720, height: 1280, audio: true });
    expect(await clips.markerCorner(result.file, { width: 720, height: 1280 })).toBe('top-right');
  });

  it('scales 1080p down to 720p', async () => {
    const result = await prepared(await clips.write1080pMp4(dir, { audio: false }));
    expect(result.remuxed).toBe(false);
    await expectPlayable(result, { width: 1280, height: 720, audio: false });
    expect(await clips.markerCorner(result.file, { width: 1280, height: 720 })).toBe('top-left');
  });
});

/** Processes whose command line names `file` (ffmpeg run directly or through nice). */
function processesOn(file: string): { pid: number; nice: number }[] {
  const found: { pid: number; nice: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(file)) continue;
      // field 19 of stat is the niceness; the command name before it may contain spaces
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.push({ pid: Number(entry), nice: Number(fields[16]) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function waitForProcessesOn(file: string) {
  let seen: { pid: number; nice: number }[] = [];
  for (let tries = 0; tries < 40 && seen.length === 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    seen = processesOn(file);
  }
  return seen;
}

describe('prepareForWeb stays within its limits', () => {
  // a transcode of some seconds, long enough to be caught running
  let input: string;
  let probe: Awaited<ReturnType<typeof probeVideo>>;
  beforeAll(async () => {
    input = await clips.write1080pMp4(dir, { seconds: 6, audio: false });
    probe = await probeVideo(input);
  });

  it('runs ffmpeg below the site priority, and past its time limit kills it, answers timed_out and leaves nothing', async () => {
    const outDir = path.join(dir, 'timed-out');
    await mkdir(outDir);
    const run = prepareForWeb(input, outDir, probe, { timeoutMs: 800 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const seen = await waitForProcessesOn(input);
    expect(seen.map((process) => process.nice)).toEqual([10]);
    const error = await run;
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).key).toBe('timed_out');
    expect(processesOn(input)).toEqual([]);
    expect(await readdir(outDir)).toEqual([]);
  });

  it('stops when its worker shuts down (an aborted signal): ffmpeg killed, nothing left', async () => {
    const outDir = path.join(dir, 'aborted');
    await mkdir(outDir);
    const controller = new AbortController();
    const run = prepareForWeb(input, outDir, probe, { signal: controller.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(await waitForProcessesOn(input)).toHaveLength(1);
    controller.abort(new Error('worker stopping'));
    expect(((await run) as Error).message).toBe('worker stopping');
    expect(processesOn(input)).toEqual([]);
    expect(await readdir(outDir)).toEqual([]);
  });

  it('refuses output it cannot make with transcode_failed and leaves nothing', async () => {
    // the probe of a good clip, handed a file that is not that clip: ffmpeg cannot read it
    const good = await probeVideo(await clips.writeH264Mp4(dir, { name: 'good.mp4' }));
    const outDir = path.join(dir, 'failed');
    await mkdir(outDir);
    const error = await prepareForWeb(await clips.writeTextAsMp4(dir), outDir, good).catch((caught: unknown) => caught);
    expect((error as MediaError).key).toBe('transcode_failed');
    expect(await readdir(outDir)).toEqual([]);
  });
});
