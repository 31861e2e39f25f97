import { describe, expect, it } from 'vitest';
import { islandMessageBlocks } from '../../src/lib/island-messages.ts';
import { keepFirstMessageBlocks } from '../../src/server/page-cache/messages.ts';

const names = (html: string) => [...html.matchAll(/data-island-messages="([^"]+)"/g)].map(([, name]) => name);

describe('blocks of islands’ messages on a page the cache keeps', () => {
  it('are kept once each, the first, which comes before every island reading it', () => {
    const page = [
      '<main>',
      islandMessageBlocks('en-US', 'FollowButton'),
      '<astro-island data-i="follow"></astro-island>',
      islandMessageBlocks('en-US', 'ReportButton'),
      '<astro-island data-i="report"></astro-island>',
      islandMessageBlocks('en-US', 'FollowButton'),
      '<astro-island data-i="follow-again"></astro-island>',
      '</main>',
    ].join('');
    const kept = keepFirstMessageBlocks(page);
    expect(names(kept)).toEqual(['en-US:follow', 'en-US:errors', 'en-US:report', 'en-US:common', 'en-US:validation']);
    // Every island is still there, and every block it reads comes before it.
    for (const [island, reads] of [['follow', ['follow', 'errors']], ['report', ['report', 'common', 'errors', 'validation']], ['follow-again', ['follow', 'errors']]] as const) {
      const at = kept.indexOf(`data-i="${island}"`);
      expect(at).toBeGreaterThan(-1);
      for (const namespace of reads) expect(kept.indexOf(`data-island-messages="en-US:${namespace}"`)).toBeLessThan(at);
    }
    // Nothing else of the page is touched.
    expect(kept.replace(/<script type="application\/json"[\s\S]*?<\/script>/g, '')).toBe(page.replace(/<script type="application\/json"[\s\S]*?<\/script>/g, ''));
    // The page's bytes give the same bytes, never decoded: Chinese messages (several bytes a
    // character) included.
    const zh = `<p>电路板</p>${islandMessageBlocks('zh-CN', 'ReportButton')}<astro-island></astro-island>${islandMessageBlocks('zh-CN', 'FollowButton')}`;
    expect(names(keepFirstMessageBlocks(zh))).toEqual(['zh-CN:report', 'zh-CN:common', 'zh-CN:errors', 'zh-CN:validation', 'zh-CN:follow']);
    for (const html of [page, zh]) expect(keepFirstMessageBlocks(Buffer.from(html)).equals(Buffer.from(keepFirstMessageBlocks(html)))).toBe(true);
  });

  it('of two languages are two blocks, and a page without any is left as it is', () => {
    const page = `${islandMessageBlocks('en-US', 'UnreadBadge')}${islandMessageBlocks('zh-CN', 'UnreadBadge')}${islandMessageBlocks('en-US', 'UnreadBadge')}`;
    expect(names(keepFirstMessageBlocks(page))).toEqual(['en-US:messages', 'zh-CN:messages']);
    const plain = '<p>no islands</p>';
    expect(keepFirstMessageBlocks(plain)).toBe(plain);
    const bytes = Buffer.from(plain);
    expect(keepFirstMessageBlocks(bytes)).toBe(bytes);
    expect(keepFirstMessageBlocks(Buffer.from(page)).toString()).toBe(keepFirstMessageBlocks(page));
  });

  it('cut short at the end of a page are left as they are', () => {
    const block = islandMessageBlocks('en-US', 'UnreadBadge');
    const page = `${block}<p>x</p>${block.slice(0, 60)}`;
    expect(keepFirstMessageBlocks(page)).toBe(page);
  });
});
