import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { MESSAGES_ATTRIBUTE, readMessagesRef } from '../lib/messages-ref.ts';

type ServerI18n = (locale: string) => I18n;

let clientInstance: I18n | undefined;
/** The blocks of messages already added (`en-US:errors`), read once each though many islands name them. */
const added = new Set<string>();

/**
 * The browser's i18next, one per page and shared by its islands. It starts synchronously with no
 * messages; each island adds the namespaces it reads (its `messages` prop names them) from the
 * blocks the page holds before it (`islandMessageBlocks`), so nothing is downloaded and nothing
 * waits.
 */
function clientI18n(locale: string, messages: IslandMessages | undefined): I18n {
  if (!clientInstance) {
    clientInstance = i18next.createInstance();
    void clientInstance.use(initReactI18next).init({
      lng: locale,
      fallbackLng: false,
      supportedLngs: ['en-US', 'zh-CN'],
      load: 'currentOnly',
      resources: {},
      initAsync: false,
      returnNull: false,
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  }
  if (messages) {
    const ref = readMessagesRef(messages);
    for (const namespace of ref.namespaces) {
      const name = `${ref.locale}:${namespace}`;
      if (added.has(name)) continue;
      const block = document.querySelector(`script[${MESSAGES_ATTRIBUTE}="${name}"]`);
      if (!block?.textContent) continue;
      added.add(name);
      clientInstance.addResourceBundle(locale, 'translation', { [namespace]: JSON.parse(block.textContent) as unknown }, true, false);
    }
  }
  return clientInstance;
}

/**
 * Wrap every island in this, with the messages the server named for it (in its props). On the
 * server it translates from the bundled locale files; in the browser from the page's blocks of
 * those messages, ready before the first render, so hydration never waits and an early click is
 * never dropped.
 */
export function I18nProvider({ locale, messages, children }: { locale: string; messages?: IslandMessages | undefined; children: ReactNode }) {
  const server = (globalThis as { __copperhubI18n?: ServerI18n }).__copperhubI18n;
  const instance = import.meta.env.SSR && server ? server(locale) : clientI18n(locale, messages);
  return <I18nextProvider i18n={instance}>{children}</I18nextProvider>;
}
