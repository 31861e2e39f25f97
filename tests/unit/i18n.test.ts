import { describe, expect, it } from 'vitest';
import { getT, resolveHeaderLocale, resolveLocale, serverI18nFor } from '../../src/lib/i18n.ts';

describe('resolveLocale', () => {
  it('prefers the i18n_redirected cookie', () => {
    expect(resolveLocale('zh-CN', 'en-US,en;q=0.9')).toBe('zh-CN');
    expect(resolveLocale('en-US', 'zh-CN')).toBe('en-US');
  });

  it('reads the bare codes the specification’s other clients write in the cookie', () => {
    expect(resolveLocale('zh', 'en-US,en;q=0.9')).toBe('zh-CN');
    expect(resolveLocale('en', 'zh-CN')).toBe('en-US');
    expect(resolveHeaderLocale(new Headers({ cookie: 'i18n_redirected=zh', 'accept-language': 'en' }))).toBe('zh-CN');
    // Other codes still name nothing: the browser's languages decide.
    expect(resolveLocale('fr', 'zh-CN')).toBe('zh-CN');
  });

  it('falls back to Accept-Language by quality', () => {
    expect(resolveLocale(undefined, 'zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(resolveLocale(undefined, 'fr-FR;q=1, zh-TW;q=0.8, en;q=0.9')).toBe('en-US');
    expect(resolveLocale('xx', 'zh')).toBe('zh-CN');
  });

  it('maps regional and script variants to the supported locale of their language', () => {
    expect(resolveLocale(undefined, 'zh')).toBe('zh-CN');
    expect(resolveLocale(undefined, 'zh-Hans-CN')).toBe('zh-CN');
    expect(resolveLocale(undefined, 'zh-TW')).toBe('zh-CN');
    expect(resolveLocale(undefined, 'en-GB,zh;q=0.5')).toBe('en-US');
    expect(resolveLocale(undefined, 'ZH-cn')).toBe('zh-CN');
  });

  it('reads the language cookie from raw request headers (the tus endpoint), then Accept-Language', () => {
    const headers = (entries: Record<string, string>) => new Headers(entries);
    expect(resolveHeaderLocale(headers({ cookie: 'token=abc; i18n_redirected=zh-CN', 'accept-language': 'en' }))).toBe('zh-CN');
    expect(resolveHeaderLocale(headers({ cookie: 'i18n_redirected=xx; other=1', 'accept-language': 'zh' }))).toBe('zh-CN');
    expect(resolveHeaderLocale(headers({ cookie: 'i18n_redirected=%E0%A4%A', 'accept-language': 'en-GB' }))).toBe('en-US');
    expect(resolveHeaderLocale(headers({}))).toBe('en-US');
  });

  it('follows quality values, ignores q=0 and tolerates spaces', () => {
    expect(resolveLocale(undefined, 'en;q=0.2, zh-Hans-CN;q=0.7')).toBe('zh-CN');
    expect(resolveLocale(undefined, 'zh;q=0, en-GB;q=0.1')).toBe('en-US');
    expect(resolveLocale(undefined, 'zh-CN;q=0')).toBe('en-US');
    expect(resolveLocale(undefined, ' fr , zh ; q=0.4 ')).toBe('zh-CN');
  });

  it('takes the first supported language when a wildcard or a tie decides', () => {
    expect(resolveLocale(undefined, '*')).toBe('en-US');
    expect(resolveLocale(undefined, 'de, *;q=0.5')).toBe('en-US');
    expect(resolveLocale(undefined, 'zh-CN, en-US')).toBe('zh-CN');
  });

  it('defaults to en-US', () => {
    expect(resolveLocale(undefined, '')).toBe('en-US');
    expect(resolveLocale(undefined, ';;;,q=1')).toBe('en-US');
    expect(resolveLocale(undefined, undefined)).toBe('en-US');
    expect(resolveLocale(undefined, 'fr-FR, de;q=0.5')).toBe('en-US');
  });
});

describe('getT', () => {
  it('translates per locale without mixing languages', () => {
    const en = getT('en-US');
    const zh = getT('zh-CN');
    expect(en('nav.home')).toBe('Home');
    expect(zh('nav.home')).toBe('首页');
    expect(en('errors.notFound.message', { path: '/x' })).toBe('Page Not Found: /x');
  });

  it('answers a remembered lookup as i18next does, for each key and each set of values', () => {
    const en = getT('en-US');
    for (let round = 0; round < 2; round += 1) {
      expect(en('comments.likeCount', { count: 1 })).toBe('1 like');
      expect(en('comments.likeCount', { count: 2 })).toBe('2 likes');
      expect(en('comments.replyingTo', { name: 'Ada' })).toBe('In reply to Ada');
      expect(en('comments.replyingTo', { name: 'Grace' })).toBe('In reply to Grace');
      expect(getT('zh-CN')('nav.home')).toBe('首页');
    }
  });
});

describe('serverI18nFor', () => {
  it("hands the islands one fixed T per language, namespace and prefix, answering as i18next's own", () => {
    // Called as react-i18next's useTranslation calls it (a key prefix and `scopeNs`, which i18next's types leave out).
    type FixedT = (key: string, options?: Record<string, unknown>) => string;
    const fixedTOf = (locale: 'en-US' | 'zh-CN', ...args: unknown[]) => (serverI18nFor(locale).getFixedT as unknown as (...args: unknown[]) => FixedT)(...args);
    const first = fixedTOf('en-US', 'en-US', 'translation', undefined, { scopeNs: ['translation'] });
    expect(fixedTOf('en-US', 'en-US', 'translation', undefined, { scopeNs: ['translation'] })).toBe(first);
    expect(fixedTOf('en-US', 'en-US', 'translation', 'comments')).not.toBe(first);
    for (let round = 0; round < 2; round += 1) {
      expect(first('nav.home')).toBe('Home');
      expect(first('comments.likeCount', { count: 3 })).toBe('3 likes');
      expect(fixedTOf('en-US', 'en-US', 'translation', 'comments')('likeCount', { count: 1 })).toBe('1 like');
      expect(fixedTOf('zh-CN', 'zh-CN', 'translation')('nav.home')).toBe('首页');
    }
  });
});
