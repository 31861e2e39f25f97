import { describe, expect, it } from 'vitest';
import { getT, resolveHeaderLocale, resolveLocale } from '../../src/lib/i18n.ts';

describe('resolveLocale', () => {
  it('prefers the i18n_redirected cookie', () => {
    expect(resolveLocale('zh-CN', 'en-US,en;q=0.9')).toBe('zh-CN');
    expect(resolveLocale('en-US', 'zh-CN')).toBe('en-US');
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
});
