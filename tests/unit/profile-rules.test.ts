import { describe, expect, it } from 'vitest';
import { customUrlProblem, isWebsiteAllowed, nicknameProblem, slugFromNickname } from '../../src/lib/profile-rules.ts';

describe('customUrlProblem', () => {
  it('accepts 3–30 lowercase letters, digits and single inner dashes', () => {
    for (const url of ['ada', 'ada-lovelace', 'maker-42', 'a1b', 'x'.repeat(30)]) expect(customUrlProblem(url)).toBeNull();
  });

  it('refuses the wrong length, characters or dashes', () => {
    expect(customUrlProblem('ab')).toBe('url_length');
    expect(customUrlProblem('x'.repeat(31))).toBe('url_length');
    for (const url of ['Ada', 'ada_l', 'ada.l', '-ada', 'ada-', 'ad--a', 'ada l', '开源硬件x']) expect(customUrlProblem(url)).toBe('url_format');
  });

  it('refuses reserved words that would shadow routes or roles', () => {
    for (const url of ['api', 'sso', 'admin', 'user', 'create', 'search', 'new', 'edit', 'settings', 'logout']) {
      expect(customUrlProblem(url)).toBe('url_reserved');
    }
  });
});

describe('slugFromNickname', () => {
  it('turns a Latin nickname into an ASCII slug', () => {
    expect(slugFromNickname('Ada Lovelace')).toBe('ada-lovelace');
    expect(slugFromNickname('  Zoë   Müller!! ')).toBe('zoe-muller');
    expect(slugFromNickname('R2_D2 (droid)')).toBe('r2-d2-droid');
  });

  it('gives nothing usable for nicknames without enough ASCII (the caller uses maker-xxxx)', () => {
    expect(slugFromNickname('开源硬件爱好者')).toBe('');
    expect(slugFromNickname('王a')).toBe('');
  });

  it('keeps slugs short enough for a suffix', () => {
    expect(slugFromNickname('a very long nickname that goes on and on').length).toBeLessThanOrEqual(20);
    expect(slugFromNickname('a very long nickname that goes on and on').endsWith('-')).toBe(false);
  });
});

describe('isWebsiteAllowed and nicknameProblem', () => {
  it('allows only http(s) websites', () => {
    expect(isWebsiteAllowed('')).toBe(true);
    expect(isWebsiteAllowed('https://example.com/me')).toBe(true);
    expect(isWebsiteAllowed('http://example.com')).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com', 'example.com', 'https://']) expect(isWebsiteAllowed(bad)).toBe(false);
  });

  it('wants a visible nickname of at most 40 characters', () => {
    expect(nicknameProblem('Ada')).toBeNull();
    expect(nicknameProblem('开源硬件爱好者')).toBeNull();
    expect(nicknameProblem('   ')).toBe('required');
    expect(nicknameProblem('x'.repeat(41))).toBe('too_big');
    expect(nicknameProblem('Ada\u202eevil')).toBe('invalid');
  });
});
