import { describe, expect, it } from 'vitest';
import type { MessagePage } from '../../src/lib/conversation-types.ts';
import { pageHref, withAllRead, withRead } from '../../src/stores/message-list.ts';
import { reacted } from '../../src/stores/reactions.ts';

describe('reactions', () => {
  const counts = { starred: false, liked: true, starCount: 4, likeCount: 1 };

  it('change at once by one, and only when the value changes', () => {
    expect(reacted(counts, 'star', true)).toEqual({ ...counts, starred: true, starCount: 5 });
    expect(reacted(counts, 'like', false)).toEqual({ ...counts, liked: false, likeCount: 0 });
    expect(reacted(counts, 'like', true)).toEqual(counts);
    expect(reacted({ ...counts, liked: true, likeCount: 0 }, 'like', false).likeCount).toBe(0);
  });
});

describe('the message list', () => {
  const message = (id: number, read: boolean) => ({ id, kind: 'comment' as const, actor: null, project: null, comment: null, body: null, path: null, read, createdAt: '2026-03-01T12:00:00.000Z' });
  const page: MessagePage = { list: [message(1, false), message(2, false)], total: 2, page: 1, pageSize: 20, unread: 2 };

  it('has the addresses the server renders for its pages and filter', () => {
    expect(pageHref(1, false)).toBe('?');
    expect(pageHref(2, false)).toBe('?page=2');
    expect(pageHref(3, true)).toBe('?filter=unread&page=3');
  });

  it('marks one message or all read', () => {
    expect(withRead(page, 2, 1)).toEqual({ ...page, unread: 1, list: [message(1, false), message(2, true)] });
    expect(withAllRead(page)).toEqual({ ...page, unread: 0, list: [message(1, true), message(2, true)] });
  });
});
