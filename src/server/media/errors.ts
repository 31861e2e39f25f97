import type { VideoErrorKey } from '../../lib/contract/video.ts';

/**
 * Why a video could not be made playable. `key` is one of the contract's video error keys (the
 * owner reads `video.errors.<key>`); the message keeps what ffprobe or ffmpeg said, for the log.
 */
export class MediaError extends Error {
  readonly key: VideoErrorKey;

  constructor(key: VideoErrorKey, detail?: string) {
    super(detail ? `${key}: ${detail}` : key);
    this.name = 'MediaError';
    this.key = key;
  }
}
