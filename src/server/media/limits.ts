/**
 * How long the work on one video (or one picture's variants) may take, in one place: ffprobe's
 * and ffmpeg's time limits, the job queue's expiry of a video job, and when a video left
 * `processing` is sent again all follow from the longest video allowed. A queue expiry shorter than ffmpeg's limit would hand a running
 * transcode to a second worker; one far longer would leave a lost job unnoticed for hours.
 */
import { VIDEO_MAX_SECONDS } from '../../lib/contract/video.ts';

/** ffprobe's limit for one reading of a file (a second reading finds a duration its header lacks). */
export const PROBE_TIMEOUT_MS = 30_000;

/**
 * Preparing a video of `durationSeconds` (transcode, check, poster) may take 2 minutes plus twice
 * its length: a 720p transcode runs at about a quarter of real time on two cores, so this leaves a
 * slow or busy machine eight times that before the job is failed `timed_out`.
 */
export function prepareTimeLimitMs(durationSeconds: number): number {
  return 120_000 + durationSeconds * 2_000;
}

/** Storing the prepared MP4 and poster (a local copy, or an upload to object storage). */
const STORE_ALLOWANCE_MS = 5 * 60_000;

/**
 * The longest one video job can run: two ffprobe readings, preparing the longest video allowed
 * (20 minutes: 42 minutes of limit) and storing the result.
 */
export const VIDEO_JOB_MAX_MS = 2 * PROBE_TIMEOUT_MS + prepareTimeLimitMs(VIDEO_MAX_SECONDS) + STORE_ALLOWANCE_MS;

/** The longest the variants of one picture may take (each encode has its own 30 s limit besides). */
export const IMAGE_VARIANTS_TIME_LIMIT_MS = 3 * 60_000;
