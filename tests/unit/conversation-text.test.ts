import { describe, expect, it } from 'vitest';
import { splitLinks } from '../../src/lib/linkify.ts';
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
