import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPageCache, type PageCacheOptions } from '../../src/server/page-cache/page-cache.ts';
import { apiBodyKey, cacheableRequest, fillableRequest } from '../../src/server/page-cache/key.ts';
import { purgePages } from '../../src/server/page-cache/tags.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';

/** A page renderer standing in for Astro: counts its renders and answers what `page` says. */
type Answer = { status?: number; headers?: Record<string, string>; body: string; delayMs?: number };

function renderer(page: (path: string, n: number) => Answer) {
  let renders = 0;
  const render = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    renders += 1;
    const answer = page(req.url ?? '/', renders);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    res.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...answer.headers });
    res.write(answer.body.slice(0, 5));
    res.end(answer.body.slice(5));
  };
  return { render, count: () => renders };
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(render: Parameters<typeof createPageCache>[0], options: Partial<PageCacheOptions> = {}) {
  const cache = createPageCache(render, { maxBytes: 1024 * 1024, freshMs: 60_000, staleMs: 60_000, ...options });
  const server = http.createServer((req, res) => {
    const request = cache.match(req);
    if (request) void cache.serve(req, res, request);
    else void render(req, res);
  });
  servers.push(server);
  server.on('close', () => cache.close());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(origin + path, { redirect: 'manual', headers: { 'user-agent': BROWSER, ...headers } });
    return { status: response.status, state: response.headers.get('x-page-cache'), body: await response.text(), headers: response.headers };
  };
  return { get, cache };
}

describe('cache keys', () => {
  it('take the path with its query sorted, the language and the kind of client; sessions and acting parameters skip the cache', () => {
    const headers = { host: 'example.test', 'user-agent': BROWSER, 'accept-language': 'zh-CN' };
    expect(cacheableRequest('GET', '/newest?page=2&tag=esp32', headers)?.key).toBe(cacheableRequest('GET', '/newest?tag=esp32&page=2', headers)?.key);
    expect(cacheableRequest('GET', '/', headers)?.locale).toBe('zh-CN');
    expect(cacheableRequest('GET', '/', { ...headers, cookie: 'i18n_redirected=en-US' })?.locale).toBe('en-US');
    expect(cacheableRequest('GET', '/', { ...headers, cookie: 'token=abc' })).toBeNull();
    expect(cacheableRequest('GET', '/', { ...headers, authorization: 'Bearer abc' })).toBeNull();
    expect(cacheableRequest('POST', '/', headers)).toBeNull();
    expect(cacheableRequest('GET', '/?code=xyz', headers)).toBeNull();
    expect(cacheableRequest('GET', '/preview?id=1', headers)).toBeNull();
    expect(cacheableRequest('GET', '/m/sso/login', headers)).toBeNull();
    // The API: only the public reads, by GET or same-site POST; a member only where the answer ignores them.
    expect(cacheableRequest('GET', '/api/message/list', headers)).toBeNull();
    expect(cacheableRequest('GET', '/api/project/list?sort=hot&page=2', headers)?.key).toBe(cacheableRequest('GET', '/api/project/list?page=2&sort=hot', headers)?.key);
    expect(cacheableRequest('GET', '/api/project/list', headers)?.key).not.toBe(cacheableRequest('POST', '/api/project/list', headers)?.key);
    expect(cacheableRequest('GET', '/api/project/list', { ...headers, cookie: 'token=abc' })?.kind).toBe('api');
    expect(cacheableRequest('GET', '/api/comment/list?id=x', { ...headers, cookie: 'token=abc' })).toBeNull();
    expect(cacheableRequest('GET', '/api/comment/list?id=x', { ...headers, authorization: 'Bearer abc' })).toBeNull();
    expect(cacheableRequest('POST', '/api/project/list', { ...headers, origin: 'https://elsewhere.test' })).toBeNull();
    expect(cacheableRequest('POST', '/api/project/list', { ...headers, 'sec-fetch-site': 'cross-site' })).toBeNull();
    expect(cacheableRequest('POST', '/api/project/list', { ...headers, origin: 'http://example.test', 'sec-fetch-site': 'same-origin' })?.kind).toBe('api');
    expect(cacheableRequest('DELETE', '/api/project/list', headers)).toBeNull();
    expect(apiBodyKey(Buffer.from('{"b":1,"a":{"d":2,"c":3}}'))).toBe(apiBodyKey(Buffer.from('{"a":{"c":3,"d":2},"b":1}')));
    expect(apiBodyKey(Buffer.from('{"page":'))).toBeNull();
    const phone = { ...headers, 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile Safari/537.36' };
    expect(cacheableRequest('GET', '/d-abc', phone)?.client).toBe('phone');
    expect(cacheableRequest('GET', '/m/d-abc', phone)?.client).toBe('browser');
    expect(cacheableRequest('GET', '/d-abc', { ...phone, cookie: 'prefer_desktop=1' })?.client).toBe('browser');
    expect(cacheableRequest('GET', '/d-abc', { ...headers, 'user-agent': 'Googlebot/2.1' })?.client).toBe('crawler');
  });

  it("answer a member's page or own API read under the guest's key with their token; anything else is theirs alone", () => {
    const headers = { host: 'example.test', 'user-agent': BROWSER, 'accept-language': 'en-US' };
    const member = { ...headers, cookie: 'i18n_redirected=zh-CN; token=abc' };
    const page = fillableRequest('GET', '/newest?page=2', member);
    expect(page).toMatchObject({ key: cacheableRequest('GET', '/newest?page=2', { ...headers, cookie: 'i18n_redirected=zh-CN' })?.key, token: 'abc', locale: 'zh-CN' });
    // A comment list holds their likes: kept for them, by GET or POST, under the guests' key.
    for (const method of ['GET', 'POST']) {
      const read = fillableRequest(method, '/api/comment/list?id=x', member);
      expect(read).toMatchObject({ kind: 'api', token: 'abc', key: cacheableRequest(method, '/api/comment/list?id=x', { ...headers, cookie: 'i18n_redirected=zh-CN' })?.key });
    }
    expect(fillableRequest('POST', '/newest', member)).toBeNull();
    expect(fillableRequest('GET', '/feed', member)).toBeNull();
    expect(fillableRequest('GET', '/api/message/list', member)).toBeNull();
    // An `anyone` read is answered from the guests' copy itself (`cacheableRequest`), not kept for them.
    expect(fillableRequest('GET', '/api/project/list', member)).toBeNull();
    expect(fillableRequest('GET', '/api/comment/list?id=x', { ...headers, authorization: 'Bearer abc' })).toBeNull();
    expect(fillableRequest('GET', '/api/comment/list?id=x', headers)).toBeNull();
    expect(fillableRequest('POST', '/api/comment/list', { ...member, origin: 'https://elsewhere.test' })).toBeNull();
  });
});

describe('the page cache', () => {
  it('renders a page once for everyone who asks at the same time', async () => {
    const pages = renderer(() => ({ body: '<p>same for all</p>', delayMs: 50 }));
    const { get } = await serve(pages.render);
    const answers = await Promise.all(Array.from({ length: 8 }, () => get('/newest')));
    expect(pages.count()).toBe(1);
    for (const answer of answers) expect(answer.body).toBe('<p>same for all</p>');
  });

  it('serves an old page while one background render replaces it', async () => {
    const pages = renderer((_path, n) => ({ body: `<p>render ${n}</p>`, delayMs: n > 1 ? 30 : 0 }));
    const { get } = await serve(pages.render, { freshMs: 0, staleMs: 60_000 });
    expect((await get('/')).body).toBe('<p>render 1</p>');
    const during = await Promise.all(Array.from({ length: 5 }, () => get('/')));
    for (const answer of during) {
      expect(answer.state).toBe('stale');
      expect(answer.body).toBe('<p>render 1</p>');
    }
    await expect.poll(async () => (await get('/')).body).toBe('<p>render 2</p>');
    expect(pages.count()).toBeLessThanOrEqual(3);
  });

  it('keeps within its memory, dropping the pages least recently used', async () => {
    const pages = renderer((path) => ({ body: `<p>${path}</p>${'x'.repeat(3000)}` }));
    const { get } = await serve(pages.render, { maxBytes: 12_000 });
    for (const path of ['/a', '/b', '/c', '/d', '/e']) await get(path);
    expect((await get('/e')).state).toBe('hit');
    expect((await get('/a')).state).toBe('miss');
  });

  it('never keeps what sets a cookie, a private page, an error or a redirect', async () => {
    const pages = renderer((path): Answer => {
      if (path === '/cookie') return { body: '<p>hello</p>', headers: { 'set-cookie': 'a=1; Path=/' } };
      if (path === '/private') return { body: '<p>mine</p>', headers: { 'cache-control': 'private, no-store' } };
      if (path === '/broken') return { status: 500, body: '<p>oops</p>' };
      return { status: 302, body: '', headers: { location: '/elsewhere' } };
    });
    const { get } = await serve(pages.render);
    for (const path of ['/cookie', '/private', '/broken', '/redirect']) {
      const first = await get(path);
      const second = await get(path);
      expect(second.state, path).toBeNull();
      if (path === '/cookie') expect(second.headers.get('set-cookie')).toBe('a=1; Path=/');
      expect(first.status).toBe(second.status);
    }
    expect(pages.count()).toBe(8);
  });

  it('drops the pages of a purged tag, and does not keep a page rendered while its tag was purged', async () => {
    let purgeDuringRender = false;
    const pages = renderer((path, n) => {
      if (purgeDuringRender) {
        purgeDuringRender = false;
        purgePages('project:p1');
      }
      return { body: `<p>${path} ${n}</p>`, headers: { 'x-page-tags': path === '/d-p1' ? 'project:p1 user:u1' : 'lists' } };
    });
    const { get } = await serve(pages.render);
    await get('/d-p1');
    await get('/newest');
    purgePages('user:u1');
    expect((await get('/d-p1')).state).toBe('miss');
    expect((await get('/newest')).state).toBe('hit');
    purgePages('project:p1');
    purgeDuringRender = true;
    expect((await get('/d-p1')).state).toBe('miss');
    expect((await get('/d-p1')).state).toBe('miss');
    expect((await get('/d-p1')).state).toBe('hit');
    const tagged = await get('/d-p1');
    expect(tagged.headers.get('x-page-tags')).toBeNull();
  });

  it('never gives a visitor who asks after a purge a render that began before it', async () => {
    const pages = renderer((path, n) => ({ body: `<p>${path} render ${n}</p>`, headers: { 'x-page-tags': 'project:p1' }, delayMs: n === 1 ? 300 : 0 }));
    const { get } = await serve(pages.render);
    const early = get('/d-p1'); // render 1 starts, slowly
    await new Promise((resolve) => setTimeout(resolve, 50));
    purgePages('project:p1'); // a comment lands while it runs
    const late = await get('/d-p1');
    expect(late.body).toContain('render 2');
    expect((await early).body).toContain('render 1');
    // and what the early render made is not kept: the next visitor gets the later one
    expect((await get('/d-p1')).body).toContain('render 2');
  });
});
