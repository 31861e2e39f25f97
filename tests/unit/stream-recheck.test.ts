import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { cutWhenRefused } from '../../src/server/http/recheck.ts';

/**
 * A long response (a film read through one request) checked again while it is sent: what a
 * browser reading it gets when the check turns to no, and when it stays yes.
 */
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server sending 256 MB made as it is read (backpressure holds it while the reader pauses), checked every 50 ms. */
async function serveFilm(mayGoOn: () => Promise<boolean>): Promise<{ origin: string; checks: () => number; closed: Promise<void> }> {
  let checks = 0;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const server = http.createServer((_req, res) => {
    let sent = 0;
    const film = new Readable({
      read() {
        sent += 64 * 1024;
        this.push(sent > 256 * 1024 * 1024 ? null : Buffer.alloc(64 * 1024, 7));
      },
    });
    cutWhenRefused(res, () => ((checks += 1), mayGoOn()), 50);
    res.once('close', markClosed);
    res.writeHead(200, { 'content-type': 'video/mp4' });
    film.pipe(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, checks: () => checks, closed };
}

/**
 * Opens the response, reads its first bytes and stops reading, as a browser with enough buffered;
 * `readOn` reads the rest and answers whether it came whole or cut short.
 */
function openAndPause(origin: string): Promise<{ readOn: () => Promise<'cut' | 'complete'>; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(origin, (res) => {
      const ended = new Promise<'cut' | 'complete'>((settle) => {
        res.once('error', () => settle('cut'));
        res.once('close', () => settle(res.complete ? 'complete' : 'cut'));
      });
      res.once('data', () => {
        res.pause();
        resolve({
          readOn: () => {
            res.on('data', () => undefined);
            res.resume();
            return ended;
          },
          stop: () => req.destroy(),
        });
      });
    });
    req.on('error', (error) => reject(error));
  });
}

describe('a response checked again while it is sent', () => {
  it('is cut once the check says no, while its reader has paused', async () => {
    let allowed = true;
    const film = await serveFilm(async () => allowed);
    const reader = await openAndPause(film.origin);
    await new Promise((resolve) => setTimeout(resolve, 200));
    allowed = false;
    await film.closed;
    // Reading on, the rest never comes: the browser asks again (and is refused).
    expect(await reader.readOn()).toBe('cut');
  });

  it('goes on while the check says yes or cannot answer, and is no longer checked once closed', async () => {
    let calls = 0;
    const film = await serveFilm(async () => {
      calls += 1;
      if (calls % 2 === 0) throw new Error('database out of reach');
      return true;
    });
    const reader = await openAndPause(film.origin);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(film.checks()).toBeGreaterThanOrEqual(4);
    let closedByServer = false;
    void film.closed.then(() => (closedByServer = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedByServer).toBe(false);
    reader.stop();
    await film.closed;
    const checked = film.checks();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(film.checks()).toBe(checked);
  });
});
