import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { VideoPlayback } from '../lib/contract/schemas/videos.ts';

export interface VideoPlayerState {
  src: string;
  poster: string | null;
}

/** A signed address this close to its end is renewed rather than trusted. */
const EXPIRY_MARGIN_MS = 30_000;

/** Whether a signed address has run out (or is about to) at `now`. */
export function isExpired(expiresAt: string, now: number): boolean {
  const end = Date.parse(expiresAt);
  return !Number.isFinite(end) || now >= end - EXPIRY_MARGIN_MS;
}

/**
 * The player's signed address. A page left open past its expiry stops playing (the server
 * answers 403); the player then asks for a fresh address once and continues.
 */
export function createVideoPlayer(init: { id: string; playback: VideoPlayback }, renewPlayback: (id: string) => Promise<VideoPlayback> = (id) => apiCall('video/getVideoUrl', { id }), now: () => number = Date.now) {
  const $player = map<VideoPlayerState>({ src: init.playback.url, poster: init.playback.poster });
  let expiresAt = init.playback.expiresAt;
  let renewing = false;

  /** After a playback error: a fresh address when this one has expired; false when that was not the cause. */
  async function renewIfExpired(): Promise<boolean> {
    if (renewing || !isExpired(expiresAt, now())) return false;
    renewing = true;
    try {
      const playback = await renewPlayback(init.id);
      expiresAt = playback.expiresAt;
      $player.set({ src: playback.url, poster: playback.poster ?? $player.get().poster });
      return true;
    } catch {
      return false;
    } finally {
      renewing = false;
    }
  }

  return { $player, renewIfExpired };
}
