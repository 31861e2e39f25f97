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

/**
 * The locale a language cookie names: ours (`zh-CN`, `en-US`) or the bare codes the
 * specification's other clients write (`zh`, `en`); anything else names none.
 */
export function cookieLocale(cookieValue: string | undefined): Locale | null {
  if (isLocale(cookieValue)) return cookieValue;
  return cookieValue === 'zh' || cookieValue === 'en' ? OFFERED[cookieValue]! : null;
}

/** Cookie first, then `Accept-Language` in quality order, then en-US. */
export function resolveLocale(cookieValue: string | undefined, acceptLanguage: string | null | undefined): Locale {
  const chosen = cookieLocale(cookieValue);
  if (chosen) return chosen;
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
 * A fixed T per locale whose lookups are remembered: a page makes hundreds of them and i18next
 * resolves each one afresh (≈ 15 % of a page's CPU time). Messages never change while the
 * process runs.
 */
function memoizedT(locale: Locale): Translate {
  return rememberLookups(instance.getFixedT(locale));
}

/** Answers remembered per fixed T; past this many, it starts again (names and numbers vary without end). */
const REMEMBERED_ANSWERS = 5000;

/**
 * Options whose answer depends on nothing else: a plain object of strings, numbers and booleans
 * (`{ count: 3 }`, `{ name: 'Ada' }`), as almost every interpolated lookup passes.
 */
function isPlainValues(options: unknown): options is Record<string, string | number | boolean> {
  if (typeof options !== 'object' || options === null || Object.getPrototypeOf(options) !== Object.prototype) return false;
  for (const value of Object.values(options)) {
    const type = typeof value;
    if (type !== 'string' && type !== 'number' && type !== 'boolean') return false;
  }
  return true;
}

/**
 * `fixed`, remembering its string answers to a key alone (`t('key')`) and to a key with plain
 * values (`t('comments.likeCount', { count: 3 })`): the same question always has the same answer.
 */
function rememberLookups(fixed: TFunction): Translate {
  const call = fixed as unknown as (...args: unknown[]) => unknown;
  const answers = new Map<string, string>();
  const t = (key: unknown, ...rest: unknown[]) => {
    if (typeof key !== 'string' || rest.length > 1) return call(key, ...rest);
    const options = rest[0];
    let question: string;
    if (rest.length === 0) question = key;
    else if (isPlainValues(options)) question = `${key}\u0000${JSON.stringify(options)}`;
    else return call(key, ...rest);
    let answer = answers.get(question);
    if (answer === undefined) {
      const found = call(key, ...rest);
      if (typeof found !== 'string') return found;
      if (answers.size >= REMEMBERED_ANSWERS) answers.clear();
      answers.set(question, found);
      answer = found;
    }
    return answer;
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
    rememberFixedTs(clone);
    islandInstances.set(locale, clone);
  }
  return clone;
}
(globalThis as { __copperhubI18n?: typeof serverI18nFor }).__copperhubI18n = serverI18nFor;

/**
 * The islands' `useTranslation` asks their instance for a fixed T on each render and looks up
 * every message through it; i18next copies its options for each lookup (about 6 % of a member's
 * project page). So the instance hands out one fixed T per language, namespace and key prefix,
 * which remembers its answers as `getT`'s do.
 */
function rememberFixedTs(clone: ReturnType<typeof instance.cloneInstance>): void {
  const original = clone.getFixedT.bind(clone) as (...args: unknown[]) => TFunction;
  const made = new Map<string, Translate>();
  clone.getFixedT = ((lng: unknown, ns: unknown, keyPrefix: unknown, fixedOpts?: { scopeNs?: unknown }, ...rest: unknown[]) => {
    const plainOptions = fixedOpts === undefined || Object.keys(fixedOpts).every((name) => name === 'scopeNs');
    if (typeof keyPrefix === 'function' || !plainOptions || rest.length > 0) return original(lng, ns, keyPrefix, fixedOpts, ...rest);
    const key = JSON.stringify([lng ?? null, ns ?? null, keyPrefix ?? null, fixedOpts?.scopeNs ?? null]);
    let t = made.get(key);
    if (!t) {
      t = rememberLookups(original(lng, ns, keyPrefix, fixedOpts));
      made.set(key, t);
    }
    return t;
  }) as typeof clone.getFixedT;
}
