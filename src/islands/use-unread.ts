import { useStore } from '@nanostores/react';
import { $messages, initMessages } from '../stores/messages.ts';

/**
 * The unread message count for an island the server rendered with `initial`: seeded once from
 * it (so hydration matches and nothing flashes); subscribing keeps `$messages` fresh while the
 * island is shown. On the server, `initial` as is.
 */
export function useUnread(initial: number): number {
  if (!import.meta.env.SSR) initMessages(initial);
  const state = useStore($messages);
  return import.meta.env.SSR ? initial : state.unread;
}
