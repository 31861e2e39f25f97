import { describe, expect, it } from 'vitest';
import { findLinks, splitLinks } from '../../src/lib/linkify.ts';
import { splitText } from '../../src/lib/text-links.ts';
import { countCharacters, excerptOf, normalizePlainText } from '../../src/lib/text.ts';

describe('splitLinks', () => {
  it('turns http(s), bare domains and e-mail addresses into links and leaves the rest as text', () => {
    expect(splitLinks('see https://example.com/a?b=1, and github.com/kicad too')).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { type: 'text', text: ', and ' },
      { type: 'link', text: 'github.com/kicad', href: 'http://github.com/kicad' },
      { type: 'text', text: ' too' },
    ]);
    expect(splitLinks('mail me@example.org')[1]).toEqual({ type: 'link', text: 'me@example.org', href: 'mailto:me@example.org' });
  });

  it('finds links written right after Chinese text', () => {
    expect(splitLinks('原理图见https://example.com/sch。谢谢')).toEqual([
      { type: 'text', text: '原理图见' },
      { type: 'link', text: 'https://example.com/sch', href: 'https://example.com/sch' },
      { type: 'text', text: '。谢谢' },
    ]);
  });

  it('never links script or data URLs and keeps markup as plain text', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<script>x</script>', '<a href="https://x.org">x</a> <img onerror=alert(1)>']) {
      const parts = splitLinks(text);
      expect(parts.filter((part) => part.type === 'link').every((part) => part.type === 'link' && /^https?:|^mailto:/.test(part.href))).toBe(true);
      expect(parts.map((part) => part.text).join('')).toBe(text);
    }
  });
});

describe('splitText', () => {
  it('cuts text at the links the server found, as splitLinks does', () => {
    for (const text of ['see https://example.com/a?b=1, and github.com/kicad too', '原理图见https://example.com/sch。谢谢', 'no links', '']) {
      expect(splitText(text, findLinks(text))).toEqual(splitLinks(text));
    }
  });

  it('keeps links out of order, out of the text or to other schemes as plain text', () => {
    const text = 'abc def ghi';
    expect(splitText(text, [{ start: 4, end: 7, href: 'javascript:alert(1)' }])).toEqual([{ type: 'text', text }]);
    expect(splitText(text, [{ start: 8, end: 99, href: 'https://x.org/' }])).toEqual([{ type: 'text', text }]);
    expect(
      splitText(text, [
        { start: 4, end: 7, href: 'https://x.org/' },
        { start: 0, end: 3, href: 'https://y.org/' },
      ]),
    ).toEqual([
      { type: 'text', text: 'abc ' },
      { type: 'link', text: 'def', href: 'https://x.org/' },
      { type: 'text', text: ' ghi' },
    ]);
  });
});

describe('plain text helpers', () => {
  it('counts characters as readers see them', () => {
    expect(countCharacters('👍🏽')).toBe(1);
    expect(countCharacters('e\u0301')).toBe(1);
    expect(countCharacters('开源硬件')).toBe(4);
    expect(countCharacters('👨‍👩‍👧')).toBe(1);
  });

  it('normalizes line ends and blank runs, and trims', () => {
    expect(normalizePlainText('  a  \r\nb\r\n\r\n\r\n\r\n\r\nc \n')).toBe('a\nb\n\n\nc');
  });

  it('makes one-line excerpts with an ellipsis', () => {
    expect(excerptOf('one\ntwo   three', 50)).toBe('one two three');
    expect(excerptOf('abcdefghij', 5)).toBe('abcd…');
    expect(excerptOf('abcde', 5)).toBe('abcde');
  });
});
