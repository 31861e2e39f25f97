import { describe, expect, it } from 'vitest';
import { getT, resolveLocale } from '../../src/lib/i18n.ts';

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

  it('defaults to en-US', () => {
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
