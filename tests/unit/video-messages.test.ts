import { describe, expect, it } from 'vitest';
import { VIDEO_ERROR_KEYS, VIDEO_STATUSES } from '../../src/lib/contract/video.ts';
import { getT, LOCALES } from '../../src/lib/i18n.ts';

/** Every key the video pages build from a contract value. */
const keys = [...VIDEO_ERROR_KEYS.map((key) => `video.errors.${key}`), ...VIDEO_STATUSES.map((status) => `video.status.${status}`)];

describe('the video messages', () => {
  it.each(LOCALES)('word every reason a video failed and every state in %s', (locale) => {
    const t = getT(locale);
    expect(keys.filter((key) => t(key) === key)).toEqual([]);
  });

  it('count videos and seconds left with plurals', () => {
    expect(getT('en-US')('video.projectVideosCount', { count: 1 })).toBe('1 video');
    expect(getT('en-US')('video.upload.leftSeconds', { count: 5 })).toBe('5 seconds left');
    expect(getT('zh-CN')('video.upload.leftSeconds', { count: 5 })).toBe('剩余 5 秒');
  });
});
