import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegPath } from './binaries.ts';
import { MediaError } from './errors.ts';
import { prepareTimeLimitMs } from './limits.ts';
import { probeVideo, type VideoProbe } from './probe.ts';
import { runTool, ToolTimeout } from './run-tool.ts';

/** A video made playable in every browser, in the output folder. */
export interface PreparedVideo {
  /** `outDir/video.mp4`: H.264 (+ AAC), index first. */
  file: string;
  /** `outDir/poster.jpg`. */
  poster: string;
  durationSeconds: number;
  width: number;
  height: number;
  sizeBytes: number;
  /** The video stream was copied as it came (seconds of work); false: it was re-encoded. */
  remuxed: boolean;
  elapsedMs: number;
}

export interface PrepareOptions {
  /** Wall-clock limit for the whole preparation; default `prepareTimeLimitMs` (2 minutes plus twice the video's length). */
  timeoutMs?: number;
  /** ffmpeg threads (decoder, filters, encoder); default 2, so a transcode leaves cores to the site. */
  threads?: number;
  signal?: AbortSignal;
}

/**
 * The shorter side of what we serve. 720p plays smoothly on a phone connection (≈ 2 Mbit/s at
 * CRF 23) and transcodes at about a quarter of real time on two cores; 1080p would double both for
 * a difference few notice on the page's player.
 */
export const VIDEO_OUTPUT_SHORT_SIDE = 720;
/**
 * A file above this rate is re-encoded even when its codecs would play: phones record 720p at
 * 10–20 Mbit/s, which would stall on a mobile connection.
 */
export const REMUX_MAX_BIT_RATE = 5_000_000;
/** Posters are at most this wide (the player is never wider). */
export const POSTER_MAX_WIDTH = 1280;

const CRF = 23;
// caps the rate of busy scenes (confetti, water) so the worst second still streams
const MAX_RATE = '3M';
const AUDIO_RATE = '128k';
const BROWSER_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);
/**
 * HDR to the SDR colours of an ordinary screen (zimg's zscale, Hable's curve): without it a phone's
 * HLG or PQ video turns grey and washed out once squeezed into 8-bit BT.709.
 */
const TONE_MAP = ['zscale=t=linear:npl=100', 'format=gbrpf32le', 'zscale=p=bt709', 'tonemap=hable:desat=0', 'zscale=t=bt709:m=bt709:r=tv', 'format=yuv420p'];

/** Whether the video stream can be copied into an MP4 as it is: see `prepareForWeb`. */
export function canRemux(probe: VideoProbe): boolean {
  return (
    /(^|,)(mov|mp4)(,|$)/.test(probe.container) &&
    probe.videoCodec === 'h264' &&
    BROWSER_PIXEL_FORMATS.has(probe.pixelFormat ?? '') &&
    probe.rotation === 0 &&
    !probe.hdr &&
    Math.min(probe.width, probe.height) <= VIDEO_OUTPUT_SHORT_SIDE &&
    probe.bitRate <= REMUX_MAX_BIT_RATE
  );
}

/** Displayed size scaled so the short side is at most 720, both sides even (H.264 in 4:2:0 needs it). */
export function outputSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, VIDEO_OUTPUT_SHORT_SIDE / Math.min(width, height));
  const even = (value: number) => Math.max(2, 2 * Math.round((value * scale) / 2));
  return { width: even(width), height: even(height) };
}

/**
 * Makes an uploaded video playable in every browser, as `outDir/video.mp4` with `outDir/poster.jpg`
 * (`outDir` must exist; `probe` is `probeVideo(input)`).
 *
 * - H.264 in 8-bit 4:2:0, in MP4/MOV, not turned, at most 720p and 5 Mbit/s: the video is copied
 *   (`-c copy`) and the index moved to the front (`+faststart`); audio other than AAC is encoded.
 * - anything else (HEVC, VP9, AV1, WebM, MKV, 10-bit, a phone's turned video, bigger or heavier):
 *   re-encoded to H.264 (HDR tone-mapped to BT.709) (x264 `veryfast`, CRF 23, capped at 3 Mbit/s, keyframes every 2 s for
 *   seeking) at most 720p on its short side, and AAC 128k stereo. ffmpeg turns the frames as the
 *   display matrix says and the output carries no turn, so no player turns them twice.
 *
 * Location and other metadata phones write are dropped. ffmpeg runs with `nice -n 10`, `threads`
 * threads and a time limit; the result is probed again (H.264, index first, unturned) before it is
 * answered. Refusals are `MediaError`s (`timed_out`, `transcode_failed`); a failure leaves no
 * output behind.
 */
export async function prepareForWeb(input: string, outDir: string, probe: VideoProbe, options: PrepareOptions = {}): Promise<PreparedVideo> {
  const started = Date.now();
  const threads = String(Math.max(1, Math.floor(options.threads ?? 2)));
  const deadline = started + (options.timeoutMs ?? prepareTimeLimitMs(probe.durationSeconds));
  const file = path.join(outDir, 'video.mp4');
  const poster = path.join(outDir, 'poster.jpg');
  const remuxed = canRemux(probe);
  // `-threads` before `-i` bounds the decoder, after it the encoder
  const ffmpeg = async (inputArgs: string[], outputArgs: string[]) => {
    const timeoutMs = Math.max(1, deadline - Date.now());
    const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-filter_threads', threads, '-threads', threads, ...inputArgs, '-threads', threads, ...outputArgs];
    let result;
    try {
      result = await runTool(ffmpegPath(), args, { timeoutMs, lowPriority: true, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      if (error instanceof ToolTimeout) throw new MediaError('timed_out', error.message);
      throw error;
    }
    if (result.code !== 0) throw new MediaError('transcode_failed', result.stderr || `ffmpeg exited with ${result.code}`);
  };

  try {
    await ffmpeg(['-i', input], [
      '-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn', '-map_metadata', '-1', '-map_chapters', '-1',
      ...(remuxed ? ['-c:v', 'copy'] : videoEncoding(probe)),
      ...(probe.audioCodec === null ? [] : remuxed && probe.audioCodec === 'aac' ? ['-c:a', 'copy'] : audioEncoding(probe)),
      // ffmpeg 4 stops with "too many packets buffered" on files whose audio starts late
      '-max_muxing_queue_size', '1024',
      '-movflags', '+faststart',
      '-f', 'mp4', file,
    ]);
    const output = await checkOutput(file, Math.max(1, deadline - Date.now()), options.signal);
    if (!remuxed && Math.min(output.width, output.height) > VIDEO_OUTPUT_SHORT_SIDE) throw new MediaError('transcode_failed', `output is ${output.width}×${output.height}`);
    await makePoster(ffmpeg, file, poster, output);
    return {
      file,
      poster,
      durationSeconds: output.durationSeconds,
      width: output.width,
      height: output.height,
      sizeBytes: output.sizeBytes,
      remuxed,
      elapsedMs: Date.now() - started,
    };
  } catch (error) {
    await Promise.all([rm(file, { force: true }), rm(poster, { force: true })]);
    throw error;
  }
}

function videoEncoding(probe: VideoProbe): string[] {
  const size = outputSize(probe.width, probe.height);
  return [
    // ffmpeg turns the frames before this filter (autorotate): they already have the displayed size
    '-vf', [...(probe.hdr ? TONE_MAP : []), `scale=${size.width}:${size.height}`, 'setsar=1'].join(','),
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(CRF), '-maxrate', MAX_RATE, '-bufsize', '6M',
    '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    '-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709',
    '-force_key_frames', 'expr:gte(t,n_forced*2)',
    // ffmpeg 4 copies the input's rotate tag unless told; ffmpeg 6 and later ignore this key
    '-metadata:s:v:0', 'rotate=0',
  ];
}

function audioEncoding(probe: VideoProbe): string[] {
  return ['-c:a', 'aac', '-b:a', AUDIO_RATE, ...((probe.audioChannels ?? 2) > 2 ? ['-ac', '2'] : [])];
}

/** The output must be what browsers play from the first byte; anything else is our failure. */
async function checkOutput(file: string, timeoutMs: number, signal?: AbortSignal): Promise<VideoProbe> {
  let output: VideoProbe;
  try {
    output = await probeVideo(file, { timeoutMs, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof MediaError && error.key !== 'timed_out') throw new MediaError('transcode_failed', `output unreadable: ${error.message}`);
    throw error;
  }
  if (output.videoCodec !== 'h264' || !output.fastStart || output.rotation !== 0) {
    throw new MediaError('transcode_failed', `output is ${output.videoCodec}, fastStart ${output.fastStart}, turned ${output.rotation}`);
  }
  return output;
}

/**
 * A JPEG frame at a tenth of the video (past black openings, before the end), from the prepared
 * file: already turned upright and small, so decoding it is quick. A seek that lands past the last
 * frame writes nothing; the first frame is the fallback.
 */
async function makePoster(ffmpeg: (inputArgs: string[], outputArgs: string[]) => Promise<void>, video: string, poster: string, output: VideoProbe) {
  const width = Math.min(output.width, POSTER_MAX_WIDTH) & ~1;
  const height = Math.max(2, Math.round((output.height * width) / output.width / 2) * 2);
  const frameAt = async (seconds: number) => {
    await ffmpeg(['-ss', seconds.toFixed(3), '-i', video], ['-frames:v', '1', '-vf', `scale=${width}:${height}`, '-q:v', '3', '-f', 'image2', poster]);
    return (await stat(poster).catch(() => undefined))?.size ?? 0;
  };
  if ((await frameAt(output.durationSeconds * 0.1)) > 0) return;
  if ((await frameAt(0)) > 0) return;
  throw new MediaError('transcode_failed', 'no frame for the poster');
}
