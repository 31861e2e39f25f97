import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { largeXmlAnswer } from '../../src/server/http/crawler-answers.ts';
import { MAX_PAGE_BYTES } from '../../src/server/page-cache/page-cache.ts';

const request = (acceptEncoding?: string) => new Request('http://example.test/sitemaps/projects-1.xml', { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
const urlset = (count: number) => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset>${'<url><loc>https://example.test/d-abcdefgh</loc><lastmod>2026-01-01T00:00:00Z</lastmod></url>\n'.repeat(count)}</urlset>\n`;

describe('a sitemap too large for the page cache', () => {
  it('goes out gzipped to a client that accepts it, a fraction of the bytes, and whole to one that does not', async () => {
    const body = urlset(50_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_PAGE_BYTES);
    const zipped = await largeXmlAnswer(body, request('gzip, deflate, br'), ['lists']);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(zipped.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(body.length / 10);
    expect(gunzipSync(bytes).toString()).toBe(body);

    const plain = await largeXmlAnswer(body, request(), ['lists']);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(body);
  });

  it('is left to the page cache, which compresses and keeps it, when it fits', async () => {
    const small = urlset(10);
    const answer = await largeXmlAnswer(small, request('gzip'), ['lists']);
    expect(answer.headers.get('content-encoding')).toBeNull();
    expect(answer.headers.get('x-page-tags')).toBe('lists');
    expect(await answer.text()).toBe(small);
  });
});
