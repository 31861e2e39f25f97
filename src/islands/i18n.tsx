import i18next, { type i18n as I18n } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { Suspense, type ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { guardedReload } from '../lib/reload-guard.ts';

type ServerI18n = (locale: string) => I18n;

let clientInstance: I18n | undefined;

/**
 * The browser's i18next: messages come from `/_i18n/{locale}/messages.json` through
 * i18next-http-backend (cached 24 h by the browser); a failed load reloads the page once.
 */
function clientI18n(locale: string): I18n {
  if (!clientInstance) {
    clientInstance = i18next.createInstance();
    void clientInstance
      .use(HttpBackend)
      .use(initReactI18next)
      .init({
        lng: locale,
        fallbackLng: false,
        supportedLngs: ['en-US', 'zh-CN'],
        load: 'currentOnly',
        interpolation: { escapeValue: false },
        backend: { loadPath: '/_i18n/{{lng}}/messages.json' },
        react: { useSuspense: true },
      });
    clientInstance.on('failedLoading', () => guardedReload());
  }
  return clientInstance;
}

/**
 * Wrap every island in this. On the server it uses the bundled messages (no request); in the
 * browser it loads them over HTTP and keeps the server's HTML visible until they arrive.
 */
export function I18nProvider({ locale, children }: { locale: string; children: ReactNode }) {
  const server = (globalThis as { __copperhubI18n?: ServerI18n }).__copperhubI18n;
  const instance = import.meta.env.SSR && server ? server(locale) : clientI18n(locale);
  return (
    <I18nextProvider i18n={instance}>
      <Suspense fallback={null}>{children}</Suspense>
    </I18nextProvider>
  );
}
