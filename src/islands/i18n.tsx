import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';

type ServerI18n = (locale: string) => I18n;

let clientInstance: I18n | undefined;
/** The message sets already added, read once each though an island renders many times. */
const added = new Set<IslandMessages>();

/**
 * The browser's i18next, one per page and shared by its islands. It starts synchronously with no
 * messages; each island adds the part of the locale file it came with (`islandMessages`), so
 * nothing is downloaded and nothing waits.
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
  if (messages && !added.has(messages)) {
    added.add(messages);
    clientInstance.addResourceBundle(locale, 'translation', JSON.parse(messages) as Record<string, unknown>, true, false);
  }
  return clientInstance;
}

/**
 * Wrap every island in this, with the messages the server picked for it (in its props). On the
 * server it translates from the bundled locale files; in the browser from those messages, ready
 * before the first render, so hydration never waits and an early click is never dropped.
 */
export function I18nProvider({ locale, messages, children }: { locale: string; messages?: IslandMessages | undefined; children: ReactNode }) {
  const server = (globalThis as { __copperhubI18n?: ServerI18n }).__copperhubI18n;
  const instance = import.meta.env.SSR && server ? server(locale) : clientI18n(locale, messages);
  return <I18nextProvider i18n={instance}>{children}</I18nextProvider>;
}
