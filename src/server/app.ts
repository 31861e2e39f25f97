import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkDatabase } from './db/client.ts';
import { applySecurityHeaders } from './http/security-headers.ts';
import { StandardReasonResponse } from './standard-reason.ts';
import { createStaticFiles, serveStoredFile } from './static-files.ts';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse, next?: () => void) => Promise<void>;

/**
 * The site's HTTP server, not yet listening: `/healthz`, built assets, stored files (`/files/…`)
 * and Astro's built handler (`@astrojs/node` in middleware mode, from `distDir`) for everything
 * else. Every response starts with the site's security headers; a page replaces the fallback
 * Content-Security-Policy with its own. The database must be reachable through `DATABASE_URL`. The server entry listens on the
 * configured port; tests listen on a free one in their own process.
 */
export async function createAppServer(options: { distDir: string }): Promise<http.Server> {
  const entry = pathToFileURL(path.join(options.distDir, 'server', 'entry.mjs')).href;
  const { handler } = (await import(entry)) as { handler: NodeHandler };
  const staticFiles = await createStaticFiles(path.join(options.distDir, 'client'));

  return http.createServer({ ServerResponse: StandardReasonResponse }, (req, res) => {
    applySecurityHeaders(res);
    const pathname = (req.url ?? '/').split('?')[0]!;
    if (pathname === '/healthz') {
      void checkDatabase().then((up) => {
        res.writeHead(up ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down', uptime: Math.round(process.uptime()) }));
      });
      return;
    }
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && staticFiles.serve(pathname, req, res)) return;
    if (read && pathname.startsWith('/files/')) return serveStoredFile(pathname.slice('/files/'.length), req, res);
    void handler(req, res);
  });
}
