import { map } from 'nanostores';
import { ApiError, apiCall } from '../lib/api-client.ts';
import type { VideoPlayback } from '../lib/contract/schemas/videos.ts';
import { HIDDEN_TAKES_EFFECT_SECONDS } from '../lib/contract/video.ts';

/**
 * What the player shows: the file at `src`; or, in place of the player, `gone` (the video was
 * hidden or deleted since the page was opened) or `failed` (it stopped loading and asking again
 * did not help).
 */
export interface VideoPlayerState {
  src: string;
  poster: string | null;
  status: 'ready' | 'gone' | 'failed';
}

/** Where playback was when its source failed: the source loaded again goes on from there. */
export interface PlaybackMoment {
  time: number;
  playing: boolean;
}

/**
 * How the signed address answers when asked again: `expired` (403: its signature ran out),
 * `gone` (404: deleted, or hidden and the address is not its owner's or staff's), `ok` (the file,
 * or a redirect to the bucket), `unreachable` (no answer at all).
 */
export type SourceAnswer = 'ok' | 'expired' | 'gone' | 'unreachable';

/** A signed address this close to its end is renewed rather than trusted. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Loads of the source in a row that may fail before the player gives up and says so. The count
 * starts again once playback has gone on `RECOVERED_AFTER_SECONDS` past where it resumed, so a
 * long film survives a drop now and then, and a source that fails at once every time is not
 * loaded again and again.
 */
const MAX_RELOADS = 3;
const RECOVERED_AFTER_SECONDS = 20;

/** Waits before the second and third reload in a row: a dropped line often comes back within seconds. */
const RELOAD_DELAYS_MS = [0, 2_000, 6_000];

/** Whether a signed address has run out (or is about to) at `now`. */
export function isExpired(expiresAt: string, now: number): boolean {
  const end = Date.parse(expiresAt);
  return !Number.isFinite(end) || now >= end - EXPIRY_MARGIN_MS;
}

/** What an answer to the address means for the player (`fetch` with `redirect: 'manual'`: a redirect is opaque, status 0). */
export function sourceAnswerOf(response: { status: number; type: string }): SourceAnswer {
  if (response.type === 'opaqueredirect') return 'ok';
  if (response.status === 403) return 'expired';
  if (response.status === 404) return 'gone';
  return response.status >= 200 && response.status < 400 ? 'ok' : 'unreachable';
}

/**
 * Asks the site how the address answers now: a HEAD request, past the browser's cache (which may
 * hold the file for a while) and without following a redirect to the bucket (another origin).
 */
export async function checkSource(src: string): Promise<SourceAnswer> {
  try {
    return sourceAnswerOf(await fetch(src, { method: 'HEAD', cache: 'no-store', redirect: 'manual', credentials: 'same-origin' }));
  } catch {
    return 'unreachable';
  }
}

/**
 * `src` with `retry=<n>`: the same signed address (the site reads no other parameter) under a
 * name the browser has not loaded yet, so it asks the site again instead of going back to where
 * that address led before (a bucket address that may have expired) or doing nothing (the player
 * ignores a source it already has).
 */
export function withRetry(src: string, n: number): string {
  const [path = '', query = ''] = src.split(/\?(.*)/s);
  const params = new URLSearchParams(query);
  params.set('retry', String(n));
  return `${path}?${params.toString()}`;
}

export interface VideoPlayerDeps {
  /** `video/getVideoUrl` again: a fresh address, or `ApiError` `video_not_found` when it is gone for this viewer. */
  renewPlayback: (id: string) => Promise<VideoPlayback>;
  checkSource: (src: string) => Promise<SourceAnswer>;
  wait: (ms: number) => Promise<void>;
  now: () => number;
}

const defaultDeps: VideoPlayerDeps = {
  renewPlayback: (id) => apiCall('video/getVideoUrl', { id }),
  checkSource,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: Date.now,
};

/**
 * The player's source, kept playing. A source can stop answering mid-play: its bucket address
 * lives five minutes, a range request fails on a poor line, a page left open outlives its
 * signature, or staff hide the video. After a media error (`recover`) the player asks the site
 * how its address answers: still good, it loads it again; expired, it asks `video/getVideoUrl`
 * for a fresh one; refused, it asks too (the viewer may be the owner, or staff, who still see a
 * hidden video) and says the video is no longer available when that is refused as well. Loaded
 * again, it goes on at the same time, playing if it was (`takeResume`). A stall (`checkStalled`)
 * and every `HIDDEN_TAKES_EFFECT_SECONDS` of playing (`noteProgress`) only ask: a slow line is the
 * browser's to wait out, a refused address is not — and a film read from a bucket in one response
 * would otherwise play on however it is hidden, as the site cannot cut the bucket's response.
 */
export function createVideoPlayer(init: { id: string; playback: VideoPlayback }, deps: Partial<VideoPlayerDeps> = {}) {
  const { renewPlayback, checkSource: askSource, wait, now } = { ...defaultDeps, ...deps };
  const $player = map<VideoPlayerState>({ src: init.playback.url, poster: init.playback.poster, status: 'ready' });
  let address = init.playback.url;
  let expiresAt = init.playback.expiresAt;
  let busy = false;
  let reloads = 0;
  let loads = 0;
  /** Where the next load of the source goes on from, until it can play. */
  let pending: PlaybackMoment | null = null;
  /** Where the last reload went on from, until playback has gone well past it. */
  let resumedAt: number | null = null;
  /** When the site was last asked about the address while playing. */
  let askedAt = now();

  /** A fresh address from the site; null when the video is gone for this viewer; `undefined` when the site could not say. */
  async function renew(): Promise<VideoPlayback | null | undefined> {
    try {
      return await renewPlayback(init.id);
    } catch (error) {
      return error instanceof ApiError && error.errorKey === 'video_not_found' ? null : undefined;
    }
  }

  async function recoverWith(moment: PlaybackMoment, known: SourceAnswer | null): Promise<void> {
    if (busy || $player.get().status !== 'ready') return;
    // A load that fails before it could play keeps the moment the first failure had.
    const resumeAt = pending ?? moment;
    if (reloads >= MAX_RELOADS) {
      $player.setKey('status', 'failed');
      return;
    }
    busy = true;
    try {
      await wait(RELOAD_DELAYS_MS[reloads] ?? 0);
      const answer = known ?? (isExpired(expiresAt, now()) ? 'expired' : await askSource(address));
      let next = address;
      if (answer === 'expired' || answer === 'gone') {
        const fresh = await renew();
        if (fresh === null) {
          $player.setKey('status', 'gone');
          return;
        }
        if (fresh === undefined) {
          $player.setKey('status', 'failed');
          return;
        }
        next = fresh.url;
        expiresAt = fresh.expiresAt;
        if (fresh.poster) $player.setKey('poster', fresh.poster);
      }
      reloads += 1;
      loads += 1;
      pending = resumeAt;
      resumedAt = resumeAt.time;
      // A fresh address is new to the browser as it is; the same one is asked for again under a new name.
      $player.setKey('src', next === address ? withRetry(next, loads) : next);
      address = next;
    } finally {
      busy = false;
    }
  }

  /** Asks about the address and acts only on a refusal (renewed, or the video said gone). */
  async function askAboutAddress(moment: PlaybackMoment): Promise<void> {
    if (busy || $player.get().status !== 'ready') return;
    askedAt = now();
    const answer = isExpired(expiresAt, now()) ? 'expired' : await askSource(address);
    if (answer === 'expired' || answer === 'gone') await recoverWith(moment, answer);
  }

  return {
    $player,
    /** After a media error (or a source that failed to load): find out why and load the source again, or say it is gone. */
    recover: (moment: PlaybackMoment) => recoverWith(moment, null),
    /** After a stall: the address is asked about. */
    checkStalled: askAboutAddress,
    /** Once the source loaded again can play: where to go on from, given once. */
    takeResume(): PlaybackMoment | null {
      const moment = pending;
      pending = null;
      return moment;
    },
    /**
     * Playback has reached `moment.time`: well past where it resumed, failures count from zero
     * again; playing, the address is asked about every `HIDDEN_TAKES_EFFECT_SECONDS`.
     */
    async noteProgress(moment: PlaybackMoment): Promise<void> {
      if (pending === null && resumedAt !== null && moment.time >= resumedAt + RECOVERED_AFTER_SECONDS) {
        reloads = 0;
        resumedAt = null;
      }
      if (moment.playing && now() - askedAt >= HIDDEN_TAKES_EFFECT_SECONDS * 1000) await askAboutAddress(moment);
    },
  };
}
