import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticFiles } from '../../src/server/static-files.ts';
import { getStorage } from '../../src/server/storage/index.ts';
import { useApp } from '../helpers/app.ts';

const app = useApp();

// 1,000 bytes whose values tell their position, so a range's body can be checked byte by byte.
const clip = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  await getStorage().put('test/clip.mp4', clip);
});

describe('built assets', () => {
  const name = readdirSync('dist/client/_astro').find((file) => file.endsWith('.js'))!;
  const asset = `/_astro/${name}`;

  it('are served with their type, a year of immutable caching and validators', async () => {
    const response = await app.request(asset);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(response.headers['content-length'])).toBe(statSync(`dist/client/_astro/${name}`).size);
    expect(response.headers.etag).toBeTruthy();
    const again = await app.request(asset, { headers: { 'if-none-match': response.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('go out compressed as the browser accepts, from the copies the build wrote', async () => {
    const compressed = readdirSync('dist/client/_astro').find((file) => file.endsWith('.js.br'))!.slice(0, -'.br'.length);
    const raw = readFileSync(`dist/client/_astro/${compressed}`);
    const fetchRaw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const { hostname, port } = new URL(app.origin());
        http
          .get({ host: hostname, port, path: `/_astro/${compressed}`, headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const br = await fetchRaw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);
    expect(br.body.length).toBeLessThan(raw.length / 2);
    const gz = await fetchRaw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(raw)).toBe(true);
    const plain = await fetchRaw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(raw)).toBe(true);
  });

  it('keep a short cache outside the hashed folder, and answer HEAD without a body', async () => {
    const favicon = await app.request('/favicon.svg', { method: 'HEAD' });
    expect(favicon.status).toBe(200);
    expect(favicon.headers['content-type']).toBe('image/svg+xml');
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');
    expect(Number(favicon.headers['content-length'])).toBeGreaterThan(0);
    expect(favicon.body).toBe('');
  });
});

describe('stored files (/files/…)', () => {
  it('are served whole with long caching, byte ranges and a policy that runs nothing', async () => {
    const response = await app.request('/files/test/clip.mp4');
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': '1000',
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
    });
  });

  it('answer byte ranges for video seeking, and 416 past the end', async () => {
    const rangeOf = (range: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${app.origin()}/files/test/clip.mp4`, { headers: { range } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const middle = await rangeOf('bytes=10-19');
    expect(middle.status).toBe(206);
    expect(middle.headers['content-range']).toBe('bytes 10-19/1000');
    expect(middle.body.equals(clip.subarray(10, 20))).toBe(true);
    const tail = await rangeOf('bytes=-100');
    expect(tail.headers['content-range']).toBe('bytes 900-999/1000');
    expect(tail.body.equals(clip.subarray(900))).toBe(true);
    const open = await rangeOf('bytes=995-');
    expect(open.body.equals(clip.subarray(995))).toBe(true);
    const past = await rangeOf('bytes=5000-');
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */1000');
  });

  it('answer a matching ETag with 304', async () => {
    const first = await app.request('/files/test/clip.mp4', { method: 'HEAD' });
    const second = await app.request('/files/test/clip.mp4', { headers: { 'if-none-match': first.headers.etag! } });
    expect(second.status).toBe(304);
  });

  it('answer 404 for missing files, folders and keys that would leave the storage', async () => {
    for (const missing of ['/files/test/none.mp4', '/files/test', '/files/test/', '/files/../package.json', '/files/%2e%2e/package.json', '/files/.env']) {
      const response = await app.request(missing);
      expect(response.status, missing).toBe(404);
      expect(response.headers['content-type'], missing).toBe('text/plain; charset=utf-8');
    }
  });

  it('answer 404 once a file is deleted, and go on serving the others', async () => {
    await getStorage().put('test/short-lived.webp', Buffer.from('RIFF....WEBP'));
    expect((await app.request('/files/test/short-lived.webp')).status).toBe(200);
    await getStorage().delete('test/short-lived.webp');
    expect((await app.request('/files/test/short-lived.webp')).status).toBe(404);
    expect((await app.request('/files/test/clip.mp4')).status).toBe(200);
  });
});

describe('a built asset that vanished after start', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-static-'));
  let server: http.Server;
  let origin = '';

  beforeAll(async () => {
    mkdirSync(path.join(dir, '_astro'));
    writeFileSync(path.join(dir, '_astro', 'gone.abc123.js'), 'export {};\n');
    writeFileSync(path.join(dir, '_astro', 'kept.def456.js'), 'export {};\n');
    const files = await createStaticFiles(dir); // indexes both
    rmSync(path.join(dir, '_astro', 'gone.abc123.js'));
    server = http.createServer((req, res) => {
      if (!files.serve(req.url!, req, res)) {
        res.writeHead(418);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 404 for that request only; the server keeps serving', async () => {
    const gone = await fetch(`${origin}/_astro/gone.abc123.js`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe('404 Not Found\n');
    const kept = await fetch(`${origin}/_astro/kept.def456.js`);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${origin}/_astro/never-built.js`)).status).toBe(418); // not ours: handed on
  });
});

describe('/healthz', () => {
  it('reports the database', async () => {
    const response = await app.request('/healthz');
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: 'up' });
  });
});
