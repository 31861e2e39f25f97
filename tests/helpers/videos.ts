/**
 * Small real videos for tests and the bench, written by the same ffmpeg the site runs (lavfi's
 * `testsrc2` picture and a `sine` tone), one function per kind of file members upload. Each writes
 * into `dir` and answers the file's path; clips are short and small so tests stay quick on two cores.
 */
import { copyFile, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegPath } from '../../src/server/media/binaries.ts';
import { runTool } from '../../src/server/media/run-tool.ts';

interface ClipOptions {
  seconds?: number;
  width?: number;
  height?: number;
  audio?: boolean;
}

async function ffmpeg(args: string[], timeoutMs = 120_000): Promise<void> {
  const result = await runTool(ffmpegPath(), ['-hide_banner', '-nostdin', '-y', '-v', 'error', ...args], { timeoutMs });
  if (result.code !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${result.stderr}`);
}

/**
 * lavfi inputs: the test picture with a white marker over a quarter of each side in its top-left corner (a colour the picture has nowhere else) (so a test can
 * tell which way a video was turned), and a tone unless `audio` is false.
 */
function sources({ seconds = 2, width = 640, height = 360, audio = true }: ClipOptions): { inputs: string[]; filter: string[] } {
  const inputs = ['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=30:duration=${seconds}`];
  if (audio) inputs.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`);
  return { inputs, filter: ['-vf', `drawbox=x=0:y=0:w=${width / 4}:h=${height / 4}:color=white:t=fill`] };
}

/** H.264 + AAC in MP4 as many tools write it: the index (`moov`) at the end, unless `fastStart`; `maxRate` caps its bit rate (`3M`). */
export async function writeH264Mp4(dir: string, options: ClipOptions & { fastStart?: boolean; name?: string; maxRate?: string } = {}): Promise<string> {
  const file = path.join(dir, options.name ?? 'h264.mp4');
  const { inputs, filter } = sources(options);
  await ffmpeg([
    ...inputs, ...filter,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '28', '-pix_fmt', 'yuv420p',
    ...(options.maxRate ? ['-maxrate', options.maxRate, '-bufsize', options.maxRate] : []),
    ...(options.audio === false ? [] : ['-c:a', 'aac', '-b:a', '96k']),
    ...(options.fastStart ? ['-movflags', '+faststart'] : []),
    '-shortest', file,
  ]);
  return file;
}

/** HEVC in MOV, as an iPhone records by default (tagged `hvc1`, which Apple players require). */
export async function writeHevcMov(dir: string, options: ClipOptions = {}): Promise<string> {
  const file = path.join(dir, 'hevc.mov');
  const { inputs, filter } = sources(options);
  await ffmpeg([
    ...inputs, ...filter,
    '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-pix_fmt', 'yuv420p', '-tag:v', 'hvc1',
    ...(options.audio === false ? [] : ['-c:a', 'aac', '-b:a', '96k']),
    '-shortest', file,
  ]);
  return file;
}

/** 10-bit HEVC tagged HLG in BT.2020, as recent iPhones record by default ("HDR Video"). */
export async function writeHdrHevcMov(dir: string, options: ClipOptions = {}): Promise<string> {
  const file = path.join(dir, 'hdr-hevc.mov');
  const { inputs, filter } = sources(options);
  await ffmpeg([
    ...inputs, ...filter,
    '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc',
    '-pix_fmt', 'yuv420p10le', '-tag:v', 'hvc1', '-color_primaries', 'bt2020', '-color_trc', 'arib-std-b67', '-colorspace', 'bt2020nc',
    ...(options.audio === false ? [] : ['-c:a', 'aac', '-b:a', '96k']),
    '-shortest', file,
  ]);
  return file;
}

/**
 * VP9 + Opus in WebM. `streamed`: written to a pipe as a browser's MediaRecorder does, so the file
 * has no duration in its header and no index.
 */
export async function writeVp9Webm(dir: string, options: ClipOptions & { streamed?: boolean } = {}): Promise<string> {
  const file = path.join(dir, options.streamed ? 'streamed.webm' : 'vp9.webm');
  const { inputs, filter } = sources({ width: 320, height: 240, ...options });
  const args = [
    ...inputs, ...filter,
    '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k', '-pix_fmt', 'yuv420p',
    ...(options.audio === false ? [] : ['-c:a', 'libopus', '-b:a', '64k']),
    '-shortest', '-f', 'webm',
  ];
  if (!options.streamed) {
    await ffmpeg([...args, file]);
    return file;
  }
  // ffmpeg cannot seek back in a pipe to write the duration and the index: what it streams is
  // what a browser's recorder uploads.
  const result = await runTool(ffmpegPath(), ['-hide_banner', '-nostdin', '-v', 'error', ...args, 'pipe:1'], { timeoutMs: 120_000, maxStdoutBytes: 64 * 1024 * 1024 });
  if (result.code !== 0) throw new Error(`ffmpeg streamed webm failed: ${result.stderr}`);
  await writeFile(file, result.stdoutBytes);
  return file;
}

let displayRotationOption: boolean | undefined;

/**
 * A phone clip: landscape frames (1280×720 by default) with a display matrix telling players to
 * turn them `rotation` degrees clockwise, as a phone filming upright records (90).
 * FFmpeg 6 and later set the matrix with the input option `-display_rotation`; the installer's
 * FFmpeg 4 with the `rotate` tag. Both take the angle counter-clockwise.
 */
export async function writeRotatedClip(dir: string, options: ClipOptions & { rotation?: 90 | 180 | 270 } = {}): Promise<string> {
  const { rotation = 90, ...clip } = options;
  const plain = await writeH264Mp4(dir, { width: 1280, height: 720, fastStart: true, name: 'unturned.mp4', ...clip });
  const file = path.join(dir, `rotated-${rotation}.mov`);
  const counterClockwise = String((360 - rotation) % 360);
  if (displayRotationOption === undefined) {
    const help = await runTool(ffmpegPath(), ['-hide_banner', '-h', 'full'], { timeoutMs: 30_000, maxStdoutBytes: 16 * 1024 * 1024 });
    displayRotationOption = help.stdout.includes('-display_rotation');
  }
  await ffmpeg(
    displayRotationOption
      ? ['-display_rotation', counterClockwise, '-i', plain, '-c', 'copy', file]
      : ['-i', plain, '-c', 'copy', '-metadata:s:v:0', `rotate=${counterClockwise}`, file],
  );
  await rm(plain, { force: true });
  return file;
}

/** A 1080p H.264 MP4 (transcoded down to 720p); `seconds` makes the bench's longer clip. */
export async function write1080pMp4(dir: string, options: ClipOptions = {}): Promise<string> {
  return writeH264Mp4(dir, { width: 1920, height: 1080, name: `1080p-${options.seconds ?? 2}s.mp4`, ...options });
}

/** A tiny clip longer than any allowed video (one small frame a second, so it is written in a second). */
export async function writeLongMp4(dir: string, seconds: number): Promise<string> {
  const file = path.join(dir, `long-${seconds}s.mp4`);
  await ffmpeg(['-f', 'lavfi', '-i', `color=black:size=64x64:rate=1:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', file]);
  return file;
}

/** A one-second clip of frames a little larger than 8K (7696 × 4336), black so it encodes quickly. */
export async function writeOversizedFrameMp4(dir: string): Promise<string> {
  const file = path.join(dir, 'oversized-frame.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=black:size=7696x4336:rate=1:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', file]);
  return file;
}

/** A file of `bytes` bytes that takes no disk space (sparse): for size limits, never read. */
export async function writeSparseFile(dir: string, bytes: number): Promise<string> {
  const file = path.join(dir, 'sparse.mp4');
  await writeFile(file, '');
  await truncate(file, bytes);
  return file;
}

/** An upload cut short: the first `keep` (0–1) of a real MP4's bytes. With `fastStart` the index survives and the media does not. */
export async function writeTruncatedMp4(dir: string, options: { fastStart?: boolean; keep?: number } = {}): Promise<string> {
  const whole = await writeH264Mp4(dir, { fastStart: options.fastStart ?? false, name: 'whole.mp4' });
  const file = path.join(dir, options.fastStart ? 'truncated-faststart.mp4' : 'truncated.mp4');
  await copyFile(whole, file);
  await truncate(file, Math.floor((await stat(file)).size * (options.keep ?? 0.6)));
  await rm(whole, { force: true });
  return file;
}

/** Sound only: an AAC tone in an M4A named `.mp4`. */
export async function writeAudioOnlyMp4(dir: string): Promise<string> {
  const file = path.join(dir, 'audio-only.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'aac', file]);
  return file;
}

/** A picture renamed `.mp4` (a PNG of the test picture). */
export async function writeImageAsMp4(dir: string): Promise<string> {
  const file = path.join(dir, 'picture.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240', '-frames:v', '1', '-c:v', 'png', '-f', 'image2', file]);
  return file;
}

/** A text file renamed `.mp4`. */
export async function writeTextAsMp4(dir: string): Promise<string> {
  const file = path.join(dir, 'notes.mp4');
  await writeFile(file, 'These are my build notes, not a video.\n'.repeat(200));
  return file;
}

/** A zero-byte `.mp4`. */
export async function writeEmptyMp4(dir: string): Promise<string> {
  const file = path.join(dir, 'empty.mp4');
  await writeFile(file, '');
  return file;
}

export type Corner = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/**
 * Where the white marker of the test clips is in a video's first frame as a player shows it (the
 * marker is drawn in the stored frames' top-left corner): a video turned a quarter clockwise has
 * it top-right. Null when no corner is white.
 */
export async function markerCorner(file: string, size: { width: number; height: number }): Promise<Corner | null> {
  const out = `${file}.frame.rgb`;
  await ffmpeg(['-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', out]);
  const bytes = await readFile(out);
  await rm(out, { force: true });
  if (bytes.length !== size.width * size.height * 3) throw new Error(`frame of ${bytes.length} bytes is not ${size.width}×${size.height}`);
  const white = (x: number, y: number) => {
    const at = (Math.floor(y) * size.width + Math.floor(x)) * 3;
    return bytes[at]! > 200 && bytes[at + 1]! > 200 && bytes[at + 2]! > 200;
  };
  const near = 1 / 8;
  const far = 7 / 8;
  const corners: [Corner, number, number][] = [
    ['top-left', near, near],
    ['top-right', far, near],
    ['bottom-left', near, far],
    ['bottom-right', far, far],
  ];
  return corners.find(([, x, y]) => white(x * size.width, y * size.height))?.[0] ?? null;
}

/** The types of an MP4's top-level boxes in file order (`moov` before `mdat`: playable while it downloads). */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const bytes = await readFile(file);
  const types: string[] = [];
  for (let offset = 0; offset + 8 <= bytes.length; ) {
    let size = bytes.readUInt32BE(offset);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    if (size === 0) size = bytes.length - offset;
    if (size < 8) break;
    types.push(bytes.toString('latin1', offset + 4, offset + 8));
    offset += size;
  }
  return types;
}
