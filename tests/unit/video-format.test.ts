import { describe, expect, it } from 'vitest';
import { formatDuration, formatSpeed, isoDuration, splitSeconds } from '../../src/lib/video-format.ts';

describe('video times and speeds', () => {
  it('writes durations as clocks and as ISO 8601', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65.4)).toBe('1:05');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(null)).toBe('');
    expect(isoDuration(65.4)).toBe('PT1M5S');
    expect(isoDuration(3600)).toBe('PT1H');
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(null)).toBeUndefined();
  });

  it('writes speeds in MB/s and splits the time left', () => {
    expect(formatSpeed(2.5 * 1024 * 1024, 'en-US')).toBe('2.5');
    expect(splitSeconds(125.2)).toEqual({ minutes: 2, seconds: 6 });
  });
});
