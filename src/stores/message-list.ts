import { map } from 'nanostores';
import { apiCall } from '../lib/api-client.ts';
import type { MessageItem, MessagePage } from '../lib/conversation-types.ts';
import { fail, say, type Notice } from '../lib/notice.ts';
import { setUnread } from './messages.ts';

export interface MessageListState {
  page: MessagePage;
  unreadOnly: boolean;
  /** A page is loading or all messages are being marked read. */
  busy: boolean;
  error: Notice | null;
  /** Announced politely (screen readers). */
  status: Notice | null;
}

/** The address of a page of the list (`?filter=unread&page=2`), as the server renders it too. */
export function pageHref(page: number, unreadOnly: boolean): string {
  const params = new URLSearchParams();
  if (unreadOnly) params.set('filter', 'unread');
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '?';
}

/** The page once message `id` is read and `unread` are left. */
export function withRead(page: MessagePage, id: number, unread: number): MessagePage {
  return { ...page, unread, list: page.list.map((item) => (item.id === id ? { ...item, read: true } : item)) };
}

/** The page once every message is read. */
export function withAllRead(page: MessagePage): MessagePage {
  return { ...page, unread: 0, list: page.list.map((item) => ({ ...item, read: true })) };
}

/**
 * The owner's message list: pages and the unread filter without reloading (the address follows),
 * marking one or all read; every change of the unread count goes to `$messages` at once, so the
 * header and tab badges agree.
 */
export function createMessageList(initial: MessagePage, unreadOnly: boolean) {
  const $list = map<MessageListState>({ page: initial, unreadOnly, busy: false, error: null, status: null });

  /** Shows page `page` of all or only the unread messages. Ignored while busy. */
  async function show(page: number, onlyUnread: boolean): Promise<void> {
    if ($list.get().busy) return;
    $list.set({ ...$list.get(), busy: true, error: null });
    try {
      const result = await apiCall<MessagePage>('message/list', { page, pageSize: $list.get().page.pageSize, unreadOnly: onlyUnread });
      $list.set({ ...$list.get(), page: result, unreadOnly: onlyUnread, busy: false });
      setUnread(result.unread);
      window.history.replaceState(null, '', pageHref(page, onlyUnread));
    } catch (error) {
      $list.set({ ...$list.get(), busy: false, error: fail(error) });
    }
  }

  /**
   * Marks one message read. When the reader is following its link away, the request is sent with
   * `keepalive` so it finishes after the page is gone.
   */
  async function markRead(message: MessageItem, leaving = false): Promise<void> {
    if (message.read) return;
    if (leaving) {
      void apiCall('message/read', { id: message.id }, { keepalive: true }).catch(() => undefined);
      return;
    }
    try {
      const result = await apiCall<{ id: number; unread?: number }>('message/read', { id: message.id });
      const unread = result.unread ?? Math.max(0, $list.get().page.unread - 1);
      setUnread(unread);
      $list.setKey('page', withRead($list.get().page, message.id, unread));
      // The button goes away: keep keyboard focus on the message.
      requestAnimationFrame(() => document.getElementById(`message-${message.id}`)?.focus());
    } catch (error) {
      $list.setKey('error', fail(error));
    }
  }

  async function markAllRead(): Promise<void> {
    $list.set({ ...$list.get(), busy: true, error: null });
    try {
      await apiCall<{ updated: number }>('message/allRead');
      $list.set({ ...$list.get(), page: withAllRead($list.get().page), busy: false, status: say('messages.allRead') });
      setUnread(0);
    } catch (error) {
      $list.set({ ...$list.get(), busy: false, error: fail(error) });
    }
  }

  /** The page the server rendered is the newest count: every badge takes it. */
  function start(): void {
    setUnread(initial.unread);
  }

  return { $list, show, markRead, markAllRead, start };
}
