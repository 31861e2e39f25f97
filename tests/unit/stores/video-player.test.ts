import { describe, expect, it } from 'vitest';
import { createVideoPlayer, isExpired } from '../../../src/stores/video-player.ts';

describe('the player’s signed address', () => {
  const playback = { url: '/v/a?sig=1', expiresAt: '2026-11-24T01:00:00Z', poster: '/p.jpg' };

  it('counts as expired shortly before its end', () => {
    const end = Date.parse(playback.expiresAt);
    expect(isExpired(playback.expiresAt, end - 60_000)).toBe(false);
    expect(isExpired(playback.expiresAt, end - 10_000)).toBe(true);
    expect(isExpired('nonsense', 0)).toBe(true);
  });

  it('is renewed after a playback error only once it has expired', async () => {
    let now = Date.parse(playback.expiresAt) - 600_000;
    const asked: string[] = [];
    const player = createVideoPlayer({ id: 'a', playback }, async (id) => (asked.push(id), { url: '/v/a?sig=2', expiresAt: '2026-11-24T02:00:00Z', poster: null }), () => now);
    expect(await player.renewIfExpired()).toBe(false);
    now += 600_000;
    expect(await player.renewIfExpired()).toBe(true);
    expect(asked).toEqual(['a']);
    expect(player.$player.get()).toEqual({ src: '/v/a?sig=2', poster: '/p.jpg' });
  });
});
