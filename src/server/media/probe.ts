import { stat } from 'node:fs/promises';
import { VIDEO_MAX_BYTES, VIDEO_MAX_SECONDS } from '../../lib/contract/video.ts';
import { ffprobePath } from './binaries.ts';
import { readContainerLayout } from './container-layout.ts';
import { MediaError } from './errors.ts';
import { PROBE_TIMEOUT_MS } from './limits.ts';
import { runTool, ToolTimeout } from './run-tool.ts';

/** What ffprobe found in an uploaded video, as the rest of the site needs it. */
export interface VideoProbe {
  durationSeconds: number;
  /** As displayed: width and height swapped when the video is turned a quarter. */
  width: number;
  height: number;
  /** Clockwise turn a player applies to the stored frames (a phone filming upright: 90). */
  rotation: 0 | 90 | 180 | 270;
  videoCodec: string;
  /** `yuv420p` for what every browser decodes; 10-bit and 4:2:2 sources say otherwise. */
  pixelFormat: string | null;
  /** High dynamic range (HLG or PQ, as recent iPhones and Android phones record): tone-mapped when transcoded. */
  hdr: boolean;
  audioCodec: string | null;
  audioChannels: number | null;
  /** ffprobe's `format_name`, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`. */
  container: string;
  sizeBytes: number;
  /** Bits per second of the whole file. */
  bitRate: number;
  /** MP4/MOV with its index before its media: playable while it downloads. */
  fastStart: boolean;
}

export interface ProbeOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** 8K UHD: more pixels than this per frame is no phone or camera video we can afford to decode. */
export const VIDEO_MAX_PIXELS = 7680 * 4320;

// Formats ffprobe opens stills with: a picture is no video even though it has a "video" stream.
const IMAGE_FORMAT = /(^|,)(image2|\w+_pipe|gif|apng|webp|ico|bmp|tiff?)(,|$)/;
const IMAGE_CODECS = new Set(['png', 'mjpeg', 'jpeg2000', 'bmp', 'gif', 'webp', 'tiff', 'apng', 'jpegls', 'svg']);

// HLG and PQ (HDR10, Dolby Vision's base layer)
const HDR_TRANSFERS = new Set(['arib-std-b67', 'smpte2084']);

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  color_transfer?: string;
  channels?: number;
  duration?: string;
  nb_frames?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string; size?: string; bit_rate?: string };
}

const finite = (value: string | number | undefined) => {
  const number = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(number) ? number : undefined;
};

/**
 * Reads a video with ffprobe (never a shell, killed after `timeoutMs`) and refuses what cannot
 * become a playable video, with the reason its owner reads: `not_video` (empty, text, a picture),
 * `no_video_stream` (sound only), `truncated` (cut short or damaged), `too_long`, `too_large`
 * (bytes or pixels), `timed_out`.
 */
export async function probeVideo(file: string, options: ProbeOptions = {}): Promise<VideoProbe> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const { size: sizeBytes } = await stat(file);
  if (sizeBytes === 0) throw new MediaError('not_video', 'empty file');
  if (sizeBytes > VIDEO_MAX_BYTES) throw new MediaError('too_large', `${sizeBytes} bytes`);
  const layout = await readContainerLayout(file);

  const result = await ffprobe(['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], timeoutMs, options.signal);
  let output: FfprobeOutput | undefined;
  try {
    output = result.code === 0 ? (JSON.parse(result.stdout) as FfprobeOutput) : undefined;
  } catch {
    output = undefined;
  }
  if (!output?.format) {
    // A file that starts as a video container but cannot be read is one cut short or damaged;
    // anything else is not a video at all.
    // (ffprobe says "moov atom not found" for any file named .mp4, text included: not a clue)
    if (layout.family !== 'other') throw new MediaError('truncated', result.stderr);
    throw new MediaError('not_video', result.stderr || `ffprobe exited with ${result.code}`);
  }
  if (layout.truncated) throw new MediaError('truncated', 'a box runs past the end of the file');

  const format = output.format;
  const container = format.format_name ?? '';
  const streams = output.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic !== 1);
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  if (IMAGE_FORMAT.test(container) || (video && IMAGE_CODECS.has(video.codec_name ?? '') && Number(video.nb_frames ?? 1) <= 1)) {
    throw new MediaError('not_video', `a picture (${container})`);
  }
  if (!video) throw new MediaError(audio ? 'no_video_stream' : 'not_video', `streams: ${streams.map((s) => s.codec_type).join(', ') || 'none'}`);
  const storedWidth = video.width ?? 0;
  const storedHeight = video.height ?? 0;
  if (storedWidth <= 0 || storedHeight <= 0) throw new MediaError('not_video', 'video stream without a frame size');
  if (storedWidth * storedHeight > VIDEO_MAX_PIXELS) throw new MediaError('too_large', `${storedWidth}×${storedHeight}`);

  const durationSeconds = finite(format.duration) ?? finite(video.duration) ?? (await durationFromPackets(file, timeoutMs, options.signal));
  if (durationSeconds === undefined || durationSeconds <= 0) throw new MediaError('truncated', 'no duration and no timed frames');
  if (durationSeconds > VIDEO_MAX_SECONDS) throw new MediaError('too_long', `${durationSeconds.toFixed(1)} s`);

  const rotation = readRotation(video);
  const quarterTurn = rotation === 90 || rotation === 270;
  return {
    durationSeconds,
    width: quarterTurn ? storedHeight : storedWidth,
    height: quarterTurn ? storedWidth : storedHeight,
    rotation,
    videoCodec: video.codec_name ?? 'unknown',
    pixelFormat: video.pix_fmt ?? null,
    hdr: HDR_TRANSFERS.has(video.color_transfer ?? ''),
    audioCodec: audio?.codec_name ?? null,
    audioChannels: audio?.channels ?? null,
    container,
    sizeBytes,
    bitRate: finite(format.bit_rate) ?? Math.round((sizeBytes * 8) / durationSeconds),
    fastStart: layout.fastStart,
  };
}

/**
 * The clockwise turn of the display matrix. ffprobe reports the matrix's angle counter-clockwise
 * (`rotation: -90` for a phone filming upright); builds before FFmpeg 5 gave a clockwise `rotate` tag.
 */
function readRotation(stream: FfprobeStream): VideoProbe['rotation'] {
  const matrix = stream.side_data_list?.find((side) => side.side_data_type === 'Display Matrix' && typeof side.rotation === 'number');
  const clockwise = matrix ? -(matrix.rotation as number) : (finite(stream.tags?.rotate) ?? 0);
  const quarter = (((Math.round(clockwise / 90) * 90) % 360) + 360) % 360;
  return quarter as VideoProbe['rotation'];
}

/**
 * Some files carry no duration in their header (WebM recorded by a browser, streamed MKV): the
 * end of the last video packet is the duration. ffprobe only demuxes here, which is quick.
 */
async function durationFromPackets(file: string, timeoutMs: number, signal?: AbortSignal): Promise<number | undefined> {
  const result = await ffprobe(
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,duration_time', '-print_format', 'csv=p=0', file],
    timeoutMs,
    signal,
    // 20 minutes at 60 frames a second is 72,000 short lines
    16 * 1024 * 1024,
  );
  let end: number | undefined;
  for (const line of result.stdout.split('\n')) {
    const [pts, duration] = line.split(',');
    const start = finite(pts);
    if (start === undefined) continue;
    const stop = start + (finite(duration) ?? 0);
    if (end === undefined || stop > end) end = stop;
  }
  return end;
}

async function ffprobe(args: string[], timeoutMs: number, signal?: AbortSignal, maxStdoutBytes?: number) {
  try {
    return await runTool(ffprobePath(), args, { timeoutMs, ...(signal ? { signal } : {}), ...(maxStdoutBytes ? { maxStdoutBytes } : {}) });
  } catch (error) {
    if (error instanceof ToolTimeout) throw new MediaError('timed_out', error.message);
    throw error;
  }
}
