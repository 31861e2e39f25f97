/**
 * How an island finds its messages in the page, shared by the server that writes them
 * (`island-messages.ts`) and the browser that reads them (`islands/i18n.tsx`); nothing here
 * imports the locale files, so the browser's bundle holds none of them.
 */

/** The attribute a block of messages is known by: `data-island-messages="en-US:errors"`. */
export const MESSAGES_ATTRIBUTE = 'data-island-messages';

/** An island's `messages` prop read: its language and the namespaces it reads (`en-US:follow,errors`). */
export function readMessagesRef(ref: string): { locale: string; namespaces: string[] } {
  const colon = ref.indexOf(':');
  return { locale: ref.slice(0, colon), namespaces: ref.slice(colon + 1).split(',').filter(Boolean) };
}
