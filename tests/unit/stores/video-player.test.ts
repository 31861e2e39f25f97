import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/api-client.ts';
import { createVideoPlayer, isExpired, sourceAnswerOf, withRetry, type SourceAnswer } from '../../../src/stores/video-player.ts';
import type { VideoPlayback } from '../../../src/lib/contract/schemas/videos.ts';

const playback = { url: '/video/stream/a.mp4?exp=1795000000&sig=one', expiresAt: '2026-11-24T01:00:00Z', poster: '/p.jpg' };
const fresh = { url: '/video/stream/a.mp4?exp=1795003600&sig=two&scope=owner', expiresAt: '2026-11-24T02:00:00Z', poster: null };
const notFound = () => new ApiError(404, 'video_not_found', 'This video does not exist or has been deleted.');

/**
 * A player whose address answers `answers` in turn (the last one from then on) and whose renewal
 * answers `renewals` in turn; it records what it asked.
 */
function playerWith(options: { answers?: SourceAnswer[]; renewals?: Array<VideoPlayback | Error>; now?: () => number } = {}) {
  const asked: string[] = [];
  const renewed: string[] = [];
  const waited: number[] = [];
  const answers = [...(options.answers ?? ['ok'])];
  const renewals = [...(options.renewals ?? [])];
  const player = createVideoPlayer(
    { id: 'a', playback },
    {
      checkSource: async (src) => (asked.push(src), answers.length > 1 ? answers.shift()! : answers[0]!),
      renewPlayback: async (id) => {
        renewed.push(id);
        const next = renewals.shift();
        if (!next) throw new Error('no renewal expected');
        if (next instanceof Error) throw next;
        return next;
      },
      wait: async (ms) => void waited.push(ms),
      now: options.now ?? (() => Date.parse(playback.expiresAt) - 3_600_000),
    },
  );
  return { player, asked, renewed, waited };
}

describe('the player’s signed address', () => {
  it('counts as expired shortly before its end', () => {
    const end = Date.parse(playback.expiresAt);
    expect(isExpired(playback.expiresAt, end - 60_000)).toBe(false);
    expect(isExpired(playback.expiresAt, end - 10_000)).toBe(true);
    expect(isExpired('nonsense', 0)).toBe(true);
  });

  it('reads the site’s answer: 403 expired, 404 gone, a redirect to the bucket or the file fine', () => {
    expect(sourceAnswerOf({ status: 403, type: 'basic' })).toBe('expired');
    expect(sourceAnswerOf({ status: 404, type: 'basic' })).toBe('gone');
    expect(sourceAnswerOf({ status: 0, type: 'opaqueredirect' })).toBe('ok');
    expect(sourceAnswerOf({ status: 200, type: 'basic' })).toBe('ok');
    expect(sourceAnswerOf({ status: 503, type: 'basic' })).toBe('unreachable');
  });

  it('is asked for again under a new name, signature untouched', () => {
    expect(withRetry(playback.url, 2)).toBe('/video/stream/a.mp4?exp=1795000000&sig=one&retry=2');
    expect(withRetry(withRetry(playback.url, 1), 2)).toBe('/video/stream/a.mp4?exp=1795000000&sig=one&retry=2');
  });
});

describe('a source that stops answering mid-play', () => {
  it('loads the same address again when it still answers, and goes on where it was, playing', async () => {
    const { player, asked, renewed } = playerWith({ answers: ['ok'] });
    await player.recover({ time: 754.2, playing: true });
    expect(asked).toEqual([playback.url]);
    expect(renewed).toEqual([]);
    expect(player.$player.get()).toEqual({ src: `${playback.url}&retry=1`, poster: '/p.jpg', status: 'ready' });
    // Once the source can play again: the same moment, given once.
    expect(player.takeResume()).toEqual({ time: 754.2, playing: true });
    expect(player.takeResume()).toBeNull();
  });

  it('stays paused when it failed while paused (a seek on a paused film)', async () => {
    const { player } = playerWith({ answers: ['unreachable'] });
    await player.recover({ time: 120, playing: false });
    expect(player.$player.get().src).toBe(`${playback.url}&retry=1`);
    expect(player.takeResume()).toEqual({ time: 120, playing: false });
  });

  it('asks for a fresh address when the old one answers 403, and plays it as it is', async () => {
    const { player, renewed } = playerWith({ answers: ['expired'], renewals: [fresh] });
    await player.recover({ time: 30, playing: true });
    expect(renewed).toEqual(['a']);
    expect(player.$player.get()).toEqual({ src: fresh.url, poster: '/p.jpg', status: 'ready' });
    expect(player.takeResume()).toEqual({ time: 30, playing: true });
  });

  it('renews an address past its expiry without asking it first', async () => {
    const { player, asked, renewed } = playerWith({ renewals: [fresh], now: () => Date.parse(playback.expiresAt) });
    await player.recover({ time: 5, playing: true });
    expect(asked).toEqual([]);
    expect(renewed).toEqual(['a']);
    expect(player.$player.get().src).toBe(fresh.url);
  });

  it('says the video is no longer available when the address answers 404 and the site has no address for this viewer', async () => {
    const { player, renewed } = playerWith({ answers: ['gone'], renewals: [notFound()] });
    await player.recover({ time: 61, playing: true });
    expect(renewed).toEqual(['a']);
    expect(player.$player.get()).toMatchObject({ status: 'gone', src: playback.url });
    // Nothing more is loaded or asked.
    await player.recover({ time: 61, playing: true });
    expect(renewed).toEqual(['a']);
  });

  it('plays on with the owner’s (or staff’s) address when a public one of a hidden video answers 404', async () => {
    const { player } = playerWith({ answers: ['gone'], renewals: [fresh] });
    await player.recover({ time: 61, playing: true });
    expect(player.$player.get()).toMatchObject({ status: 'ready', src: fresh.url });
  });

  it('says it stopped loading when a renewal cannot reach the site', async () => {
    const { player } = playerWith({ answers: ['expired'], renewals: [new ApiError(0, 'network', 'offline')] });
    await player.recover({ time: 61, playing: true });
    expect(player.$player.get().status).toBe('failed');
  });

  it('gives up after three loads in a row that did not play, waiting longer before each', async () => {
    const { player, asked, waited } = playerWith({ answers: ['ok'] });
    await player.recover({ time: 300, playing: true });
    // The reloaded source fails before it could play: the first failure's moment is kept.
    await player.recover({ time: 0, playing: false });
    await player.recover({ time: 0, playing: false });
    expect(player.$player.get()).toMatchObject({ status: 'ready', src: `${playback.url}&retry=3` });
    expect(player.takeResume()).toEqual({ time: 300, playing: true });
    await player.recover({ time: 300, playing: true });
    expect(player.$player.get().status).toBe('failed');
    expect(asked).toHaveLength(3);
    expect(waited).toEqual([0, 2_000, 6_000]);
  });

  it('counts failures from zero again once playback went well past where it resumed', async () => {
    const { player, asked } = playerWith({ answers: ['ok'] });
    for (let round = 0; round < 5; round += 1) {
      const at = round * 100;
      await player.recover({ time: at, playing: true });
      expect(player.takeResume()).toEqual({ time: at, playing: true });
      await player.noteProgress({ time: at + 10, playing: true });
      await player.noteProgress({ time: at + 25, playing: true });
    }
    expect(player.$player.get()).toMatchObject({ status: 'ready', src: `${playback.url}&retry=5` });
    expect(asked).toHaveLength(5);
  });

  it('handles one failure at a time', async () => {
    const { player, asked } = playerWith({ answers: ['ok'] });
    await Promise.all([player.recover({ time: 10, playing: true }), player.recover({ time: 10, playing: true })]);
    expect(asked).toHaveLength(1);
    expect(player.$player.get().src).toBe(`${playback.url}&retry=1`);
  });
});

describe('a stalled source', () => {
  it('is only asked about: a slow line is left to the browser', async () => {
    const { player, asked } = playerWith({ answers: ['ok'] });
    await player.checkStalled({ time: 40, playing: true });
    expect(asked).toEqual([playback.url]);
    expect(player.$player.get()).toEqual({ src: playback.url, poster: '/p.jpg', status: 'ready' });
    expect(player.takeResume()).toBeNull();
  });

  it('whose address answers 404 for a guest ends in the message', async () => {
    const { player } = playerWith({ answers: ['gone'], renewals: [notFound()] });
    await player.checkStalled({ time: 40, playing: true });
    expect(player.$player.get().status).toBe('gone');
  });

  it('whose address expired is renewed and goes on where it was', async () => {
    const { player } = playerWith({ answers: ['expired'], renewals: [fresh] });
    await player.checkStalled({ time: 40, playing: true });
    expect(player.$player.get().src).toBe(fresh.url);
    expect(player.takeResume()).toEqual({ time: 40, playing: true });
  });
});

describe('a film playing on', () => {
  it('has its address asked about every five minutes of playing, and ends in the message once the video is hidden', async () => {
    let now = Date.parse(playback.expiresAt) - 3 * 3_600_000;
    const { player, asked } = playerWith({ answers: ['ok', 'ok', 'gone'], renewals: [notFound()], now: () => now });
    for (let second = 0; second < 600; second += 1) {
      now += 1000;
      await player.noteProgress({ time: second, playing: true });
    }
    // Paused, nothing is asked however long it stays so.
    now += 3_600_000;
    await player.noteProgress({ time: 600, playing: false });
    expect(asked).toHaveLength(2);
    expect(player.$player.get().status).toBe('ready');
    // Played on: asked at once, refused (hidden), and the site has no address for a guest.
    await player.noteProgress({ time: 601, playing: true });
    expect(asked).toHaveLength(3);
    expect(player.$player.get().status).toBe('gone');
  });
});
