import { readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { StandardReasonResponse } from '../../src/server/standard-reason.ts';
import { DESKTOP_UA, GOOGLEBOT_UA, useApp } from '../helpers/app.ts';

const app = useApp();

/** The first line the server writes back to a raw HTTP/1.1 request, e.g. `HTTP/1.1 404 Not Found`. */
function statusLine(origin: string, request: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n');
      if (end >= 0) {
        resolve(received.slice(0, end));
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

const get = (path: string, headers: Record<string, string> = {}) =>
  [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', `User-Agent: ${DESKTOP_UA}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), 'Connection: close', '', ''].join('\r\n');

describe('status lines', () => {
  it('carry the standard reason phrase of their status, on pages, the API and files', async () => {
    const asset = `/_astro/${readdirSync('dist/client/_astro').find((name) => name.endsWith('.js'))}`;
    const origin = app.origin();
    const cases: Array<[string, string]> = [
      [get('/'), 'HTTP/1.1 200 OK'],
      [get('/d-doesnotexist'), 'HTTP/1.1 404 Not Found'],
      [get('/m/d-doesnotexist'), 'HTTP/1.1 404 Not Found'],
      [get('/no/such/page'), 'HTTP/1.1 404 Not Found'],
      [get('/d-doesnotexist', { 'User-Agent': GOOGLEBOT_UA }), 'HTTP/1.1 404 Not Found'],
      [get('/api/nope'), 'HTTP/1.1 404 Not Found'],
      [get('/api/comment/submit'), 'HTTP/1.1 405 Method Not Allowed'],
      [get('/create/project'), 'HTTP/1.1 302 Found'],
      [get('/files/nothing/here.webp'), 'HTTP/1.1 404 Not Found'],
      [get(asset, { Range: 'bytes=0-9' }), 'HTTP/1.1 206 Partial Content'],
      [get('/healthz'), 'HTTP/1.1 200 OK'],
    ];
    for (const [request, expected] of cases) {
      expect(await statusLine(origin, request), request.split('\r\n')[0]).toBe(expected);
    }
  });

  it('replace whatever reason a handler set with the standard one, for every status', async () => {
    // Astro hands its `statusText` ("OK" unless a page set another) to the status line.
    const server = http.createServer({ ServerResponse: StandardReasonResponse }, (req, res) => {
      const status = Number(req.url!.slice(1));
      res.statusMessage = 'OK';
      if (status % 2) res.writeHead(status, 'Whatever', { 'content-length': 0 });
      else res.writeHead(status, { 'content-length': 0 });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const [code, reason] of Object.entries(http.STATUS_CODES)) {
        if (Number(code) < 200 || code === '204' || code === '304') continue; // no body, or interim
        expect(await statusLine(origin, get(`/${code}`))).toBe(`HTTP/1.1 ${code} ${reason}`);
      }
    } finally {
      server.close();
    }
  });
});
