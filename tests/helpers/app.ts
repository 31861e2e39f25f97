import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createAppServer } from '../../src/server/app.ts';
import type { PageCacheOptions } from '../../src/server/page-cache/page-cache.ts';
import { useTestDatabase } from './db.ts';

/** A desktop browser's user agent: without one the site would take the client for a crawler. */
export const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';
export const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36';
export const TABLET_UA = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1';
export const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export interface AppResponse {
  status: number;
  /** The reason phrase of the status line, as sent. */
  statusMessage: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A JSON body (sent as `application/json`) or raw text. */
  body?: unknown;
  /** A session token, sent as the `token` cookie as a signed-in browser would. */
  token?: string;
}

/**
 * The built site (`npm run build` first) served in this test process on a free port of
 * 127.0.0.1, on this file's own database (see `useTestDatabase`). Redirects are not followed.
 * The guest page cache is off unless `pageCache` is given: these tests write rows straight into
 * the database between requests, which no purge announces (the site's own writes go through the
 * services, which purge; `tests/http/page-cache.test.ts` and the end-to-end tests run with it).
 */
export function useApp(options: { pageCache?: Partial<PageCacheOptions> } = {}) {
  const database = useTestDatabase();
  const distDir = path.resolve('dist');
  let server: http.Server | undefined;
  let origin = '';

  beforeAll(async () => {
    if (!existsSync(path.join(distDir, 'server', 'entry.mjs'))) throw new Error('tests/http need the built site: run `npm run build` first');
    server = await createAppServer({ distDir, pageCache: options.pageCache ?? false });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  function request(pathname: string, options: RequestOptions = {}): Promise<AppResponse> {
    const headers: Record<string, string> = { 'user-agent': DESKTOP_UA, ...options.headers };
    if (options.token) headers.cookie = [headers.cookie, `token=${options.token}`].filter(Boolean).join('; ');
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return new Promise((resolve, reject) => {
      // The path goes out as written (a URL would resolve `..` before sending).
      const { hostname, port } = new URL(origin);
      const req = http.request({ host: hostname, port, path: pathname, method: options.method ?? 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            headers: res.headers,
            body,
            json: <T>() => JSON.parse(body) as T,
          });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  return { request, origin: () => origin, dataDir: database.dataDir };
}
