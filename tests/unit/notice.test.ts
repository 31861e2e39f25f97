import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/api-client.ts';
import { getT } from '../../src/lib/i18n.ts';
import { fail, invalid, isAlert, noticeText, say, warn } from '../../src/lib/notice.ts';

const en = getT('en-US');
const zh = getT('zh-CN');

describe('notices', () => {
  it('word an island’s own message in the reader’s language', () => {
    expect(noticeText(say('comments.posted'), en)).toBe('Your comment is posted.');
    expect(noticeText(say('comments.posted'), zh)).toBe(zh('comments.posted'));
    expect(noticeText(warn('comments.composer.tooLong', { max: '2,000' }), en)).toBe('A comment can have at most 2,000 characters.');
  });

  it('word a failed call by its error key, alone or as the reason of a sentence', () => {
    const limited = new ApiError(429, 'rate_limited', 'x');
    expect(noticeText(fail(limited), en)).toBe('Too many requests. Please wait a moment and try again.');
    expect(noticeText(fail(limited, 'reactions.likeFailed'), en)).toBe(`Could not change your like: ${en('errors.rate_limited')}`);
    expect(noticeText(fail(new Error('boom')), zh)).toBe(zh('errors.internal'));
  });

  it('word a field error by its validation key, or the island’s more precise words when it has them', () => {
    expect(noticeText(invalid('url_reserved'), en)).toBe('This address is reserved. Choose another one.');
    expect(noticeText(invalid('required', 'form.errors.title.required'), en)).toBe('Give your project a title.');
    expect(noticeText(invalid('too_big', 'form.errors.summary.too_big'), en)).toBe('This is too long.');
    expect(noticeText(invalid('no_such_rule'), en)).toBe('This value is not valid.');
  });

  it('tell problems (shown as alerts) from news', () => {
    expect(isAlert(say('comments.posted'))).toBe(false);
    expect(isAlert(warn('form.fixErrors'))).toBe(true);
    expect(isAlert(fail(new Error('x')))).toBe(true);
    expect(isAlert(invalid('required'))).toBe(true);
    expect(isAlert(null)).toBe(false);
  });
});
