import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $messages, initMessages, watchUnread } from '../stores/messages.ts';

/**
 * The unread message count for an island the server rendered with `initial`: seeded once from
 * it (so hydration matches and nothing flashes), then kept fresh (tab visible again, every
 * minute) and updated at once when messages are read. On the server, `initial` as is.
 */
export function useUnread(initial: number): number {
  if (!import.meta.env.SSR) initMessages(initial);
  const state = useStore($messages);
  useEffect(() => watchUnread(), []);
  return import.meta.env.SSR ? initial : state.unread;
}
