import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import enUS from '../../locales/en-US.json' with { type: 'json' };
import zhCN from '../../locales/zh-CN.json' with { type: 'json' };

type Messages = Record<string, string>;

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }` (arrays and other values kept as they are, to be reported). */
function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.assign({}, ...Object.entries(value).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)));
  }
  return { [prefix]: value };
}

const locales = { 'en-US': flatten(enUS) as Messages, 'zh-CN': flatten(zhCN) as Messages };
type LocaleCode = keyof typeof locales;

// i18next picks `key_<category>` with the categories of Intl.PluralRules: one and other in English,
// only other in Chinese.
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const pluralCategories = (locale: LocaleCode) => new Intl.PluralRules(locale).resolvedOptions().pluralCategories.slice().sort();
const baseOf = (key: string) => key.replace(PLURAL_SUFFIX, '');
const isPluralForm = (key: string) => PLURAL_SUFFIX.test(key);
/** Keys with the plural forms folded into their base key, as code calls them: `t('list.total', { count })`. */
const callableKeys = (messages: Messages) => new Set(Object.keys(messages).map(baseOf));
const variables = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();

/** Every `t('key', { …count… })` in the source: a count always goes with a plural key. */
function countedKeysInSource(): { file: string; key: string }[] {
  const root = path.resolve(import.meta.dirname, '../../src');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(astro|tsx?|mjs)$/.test(name)) files.push(full);
    }
  };
  walk(root);
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/\bt\(\s*['"`]([\w.]+)['"`]\s*,\s*\{([^}]*)\}/g)]
      .filter((match) => /\bcount\b/.test(match[2]!))
      .map((match) => ({ file: path.relative(root, file), key: match[1]! }));
  });
}

describe('locale files', () => {
  it('translate every en-US message into zh-CN, and nothing else', () => {
    const en = callableKeys(locales['en-US']);
    const zh = callableKeys(locales['zh-CN']);
    expect([...en].filter((key) => !zh.has(key))).toEqual([]);
    expect([...zh].filter((key) => !en.has(key))).toEqual([]);
  });

  it('have no empty messages', () => {
    for (const messages of Object.values(locales)) {
      for (const [key, message] of Object.entries(messages)) {
        expect({ key, type: typeof message }).toEqual({ key, type: 'string' });
        expect({ key, empty: message.trim() === '' }).toEqual({ key, empty: false });
      }
    }
  });

  it('give every message with {{count}} the plural forms of its language, and only those', () => {
    for (const [locale, messages] of Object.entries(locales) as [LocaleCode, Messages][]) {
      const categories = pluralCategories(locale);
      for (const [key, message] of Object.entries(messages)) {
        if (message.includes('{{count}}')) expect({ locale, key, pluralForm: isPluralForm(key) }).toEqual({ locale, key, pluralForm: true });
      }
      const plurals = new Set(Object.keys(messages).filter(isPluralForm).map(baseOf));
      for (const base of plurals) {
        const forms = Object.keys(messages).filter((key) => isPluralForm(key) && baseOf(key) === base).map((key) => key.slice(base.length + 1)).sort();
        expect({ locale, key: base, forms }).toEqual({ locale, key: base, forms: categories });
      }
    }
  });

  it('use the same interpolation variables in both languages', () => {
    const en = locales['en-US'];
    const zh = locales['zh-CN'];
    for (const [key, message] of Object.entries(en)) {
      // Chinese has one form for every count, so each English form is compared with it.
      const zhKey = isPluralForm(key) ? `${baseOf(key)}_other` : key;
      expect({ key, vars: variables(zh[zhKey] ?? '') }).toEqual({ key, vars: variables(message) });
    }
  });

  it('have plural forms for every key the code calls with a count', () => {
    const en = locales['en-US'];
    const calls = countedKeysInSource();
    expect(calls.length).toBeGreaterThan(0);
    for (const { file, key } of calls) expect({ file, key, plural: `${key}_other` in en && `${key}_one` in en }).toEqual({ file, key, plural: true });
  });
});
