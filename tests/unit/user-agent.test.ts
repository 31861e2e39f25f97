import { describe, expect, it } from 'vitest';
import { isCrawler, isMobileBrowser } from '../../src/lib/user-agent.ts';

const DESKTOP_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID_PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1';

describe('isCrawler', () => {
  it('recognises search engines and link unfurlers', () => {
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)',
      'Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'TelegramBot (like TwitterBot)',
      'WhatsApp/2.23.20.0 A',
    ]) {
      expect(isCrawler(ua), ua).toBe(true);
    }
  });

  it('leaves people’s browsers alone', () => {
    for (const ua of [DESKTOP_CHROME, IPHONE, ANDROID_PHONE, IPAD]) expect(isCrawler(ua), ua).toBe(false);
    expect(isCrawler(null)).toBe(false);
    expect(isCrawler('')).toBe(false);
  });
});

describe('isMobileBrowser', () => {
  it('sends phones, not tablets or desktops, to the mobile site', () => {
    expect(isMobileBrowser(IPHONE)).toBe(true);
    expect(isMobileBrowser(ANDROID_PHONE)).toBe(true);
    expect(isMobileBrowser(IPAD)).toBe(false);
    expect(isMobileBrowser(DESKTOP_CHROME)).toBe(false);
    expect(isMobileBrowser(undefined)).toBe(false);
  });
});
