import i18next, { type TFunction } from 'i18next';
import Negotiator from 'negotiator';
import enUS from '../../locales/en-US.json' with { type: 'json' };
import zhCN from '../../locales/zh-CN.json' with { type: 'json' };

export const LOCALES = ['en-US', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';
/** The cookie that remembers the chosen language (set by the language switcher for 365 days). */
export const LOCALE_COOKIE = 'i18n_redirected';

export const messagesByLocale: Record<Locale, Record<string, unknown>> = { 'en-US': enUS, 'zh-CN': zhCN };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The tags offered to the negotiation and the locale each stands for: every locale and its bare
 * language, so that `zh-TW`, `zh-Hans-CN` or `en-GB` (which match neither locale exactly) still
 * pick their language.
 */
const OFFERED: Record<string, Locale> = { 'en-US': 'en-US', 'zh-CN': 'zh-CN', en: 'en-US', zh: 'zh-CN' };
const OFFERED_TAGS = Object.keys(OFFERED);

/** Cookie first, then `Accept-Language` in quality order, then en-US. */
export function resolveLocale(cookieValue: string | undefined, acceptLanguage: string | null | undefined): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const [preferred] = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages(OFFERED_TAGS);
  return (preferred && OFFERED[preferred]) || DEFAULT_LOCALE;
}

/**
 * The locale of a request answered outside Astro's middleware (the tus endpoint): the language
 * cookie from its `Cookie` header, then `Accept-Language`, as `resolveLocale`.
 */
export function resolveHeaderLocale(headers: { get(name: string): string | null }): Locale {
  let chosen: string | undefined;
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.split('=');
    if (name?.trim() !== LOCALE_COOKIE) continue;
    try {
      chosen = decodeURIComponent(value.join('=').trim());
    } catch {
      chosen = undefined;
    }
  }
  return resolveLocale(chosen, headers.get('accept-language'));
}

// One instance holding both languages; each request takes getFixedT(locale) and never calls
// changeLanguage, so concurrent requests in different languages cannot mix.
const instance = i18next.createInstance();
void instance.init({
  resources: { 'en-US': { translation: enUS }, 'zh-CN': { translation: zhCN } },
  lng: DEFAULT_LOCALE,
  fallbackLng: false,
  supportedLngs: [...LOCALES],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export type Translate = TFunction;

/** The translation function for one locale. */
export function getT(locale: Locale): Translate {
  return fixedTs[locale];
}

/**
 * A fixed T per locale whose plain lookups (no options) are remembered: a page makes hundreds
 * of them and i18next resolves each one afresh (≈ 15 % of a page's CPU time). Messages never
 * change while the process runs.
 */
function memoizedT(locale: Locale): Translate {
  const fixed = instance.getFixedT(locale);
  const plain = new Map<string, string>();
  const t = (key: unknown, ...rest: unknown[]) => {
    if (rest.length === 0 && typeof key === 'string') {
      let value = plain.get(key);
      if (value === undefined) {
        value = (fixed as (k: string) => string)(key);
        plain.set(key, value);
      }
      return value;
    }
    return (fixed as unknown as (...args: unknown[]) => unknown)(key, ...rest);
  };
  return Object.assign(t, fixed) as unknown as Translate;
}

const fixedTs: Record<Locale, Translate> = { 'en-US': memoizedT('en-US'), 'zh-CN': memoizedT('zh-CN') };

const islandInstances = new Map<Locale, ReturnType<typeof instance.cloneInstance>>();

/**
 * Islands rendered on the server take their translations from this instance (see
 * islands/i18n.tsx): one clone per locale, made once (cloning per island render was costly), and
 * never switched to another language.
 */
export function serverI18nFor(locale: Locale) {
  let clone = islandInstances.get(locale);
  if (!clone) {
    clone = instance.cloneInstance({ lng: locale, initAsync: false });
    islandInstances.set(locale, clone);
  }
  return clone;
}
(globalThis as { __copperhubI18n?: typeof serverI18nFor }).__copperhubI18n = serverI18nFor;
