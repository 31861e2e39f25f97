import { describe, expect, it } from 'vitest';
import { collectImageUrls, htmlToText, imagesInHtml, renderMarkdown } from '../../src/server/services/core/index.ts';

const render = (source: string) => renderMarkdown(source);

describe('renderMarkdown', () => {
  it('renders ordinary Markdown: headings, lists, code, tables with alignment', () => {
    const html = render('## Power\n\n- 5 V in\n- 3.3 V out\n\n```c\nint x;\n```\n\n| a | b |\n|:-|-:|\n| 1 | 2 |');
    expect(html).toContain('<h2>Power</h2>');
    expect(html).toContain('<li>5 V in</li>');
    expect(html).toContain('<code class="language-c">int x;');
    expect(html).toContain('<td style="text-align:right">2</td>');
  });

  it('removes scripts, styles, frames, objects, forms and SVG, with their content', () => {
    const html = render(
      [
        '<script>alert(1)</script>',
        '<style>body{display:none}</style>',
        '<iframe src="https://evil.example"></iframe>',
        '<object data="x.swf"></object><embed src="x.swf">',
        '<form action="/steal"><input name="p"><button>go</button></form>',
        '<svg onload="alert(1)"><circle r="1"/></svg>',
        '<math><mi>x</mi></math>',
      ].join('\n\n'),
    );
    for (const bad of ['<script', 'alert(1)', '<style', 'display:none', '<iframe', '<object', '<embed', '<form', '<input', '<button', '<svg', 'onload', '<math']) {
      expect(html).not.toContain(bad);
    }
  });

  it('strips event handlers and dangerous URLs', () => {
    const html = render(
      [
        '<img src=x onerror="alert(1)">',
        '[x](javascript:alert(1))',
        '<a href="javascript:alert(2)">js</a>',
        '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgzKTwvc2NyaXB0Pg==">data</a>',
        '![pixel](data:image/png;base64,iVBORw0KGgo=)',
        '<a href="//evil.example/x">proto-relative</a>',
        '<p onclick="alert(4)" style="color:red">styled</p>',
        '<a href="JaVaScRiPt:alert(5)">mixed case</a>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/onerror|onclick|onload/i);
    // no live javascript: URL anywhere (a refused Markdown link stays as inert text)
    expect(html).not.toMatch(/(href|src)="\s*javascript:/i);
    expect(html).toContain('<p>[x](javascript:alert(1))</p>');
    expect(html).toContain('<p><a>js</a></p>');
    expect(html).not.toContain('href="data:');
    expect(html).not.toContain('src="data:');
    expect(html).not.toContain('//evil.example');
    expect(html).not.toContain('style="color');
    // the image survives without its handler; an image left without a source is dropped
    expect(html).toContain('<img src="x" loading="lazy" decoding="async" />');
    expect(html).not.toContain('alt="pixel"');
  });

  it('marks external links nofollow ugc noopener and leaves internal ones alone', () => {
    const html = render('[ext](https://example.com/a) [int](/d-abc) <a href="https://x.example" rel="opener">raw</a>');
    expect(html).toContain('<a href="https://example.com/a" rel="nofollow ugc noopener">ext</a>');
    expect(html).toContain('<a href="/d-abc">int</a>');
    expect(html).toContain('<a href="https://x.example" rel="nofollow ugc noopener">raw</a>');
  });

  it('lazy-loads images and gives known ones their size', () => {
    const sizes = new Map([['/files/images/a.webp', { width: 800, height: 600 }]]);
    const html = renderMarkdown('![board](/files/images/a.webp) ![other](https://example.com/b.png)', sizes);
    expect(html).toContain('<img src="/files/images/a.webp" alt="board" loading="lazy" decoding="async" width="800" height="600" />');
    expect(html).toContain('<img src="https://example.com/b.png" alt="other" loading="lazy" decoding="async" />');
  });

  it('collects image URLs from Markdown and from stored HTML, and extracts plain text', () => {
    const source = '![a](/files/a.webp)\n\n<img src="/files/b.webp" alt="">\n\nText & <b>bold</b>';
    expect(collectImageUrls(source)).toEqual(['/files/a.webp', '/files/b.webp']);
    const html = render(source);
    expect(imagesInHtml(html)).toEqual([
      { src: '/files/a.webp', width: null },
      { src: '/files/b.webp', width: null },
    ]);
    const sized = renderMarkdown('![a](/files/images/a.webp) ![a again](/files/images/a.webp)', new Map([['/files/images/a.webp', { width: 800, height: 600 }]]));
    expect(imagesInHtml(sized)).toEqual([{ src: '/files/images/a.webp', width: 800 }]);
    expect(htmlToText(render('# Title\n\nFirst paragraph.\n\n- item one\n- item two'))).toBe('Title First paragraph. item one item two');
  });
});
