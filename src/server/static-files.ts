import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { contentTypeOf } from '../lib/mime.ts';
import { getStorage } from './storage/index.ts';

interface StaticEntry {
  file: string;
  size: number;
  type: string;
  etag: string;
  immutable: boolean;
}

async function walk(dir: string, base = dir, out: Map<string, StaticEntry> = new Map()): Promise<Map<string, StaticEntry>> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, base, out);
    else {
      const info = await stat(full);
      const urlPath = `/${path.relative(base, full).split(path.sep).join('/')}`;
      out.set(urlPath, {
        file: full,
        size: info.size,
        type: contentTypeOf(entry.name),
        etag: `"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`,
        immutable: urlPath.startsWith('/_astro/'),
      });
    }
  }
  return out;
}

/**
 * The built client assets, indexed once at start so no request touches the disk to learn
 * whether it is a static file. Hashed `/_astro/` files are cached for a year.
 */
export async function createStaticFiles(clientDir: string) {
  const files = await walk(clientDir);
  return {
    serve(pathname: string, req: http.IncomingMessage, res: http.ServerResponse): boolean {
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return false;
      }
      const entry = files.get(decoded);
      if (!entry) return false;
      if (req.headers['if-none-match'] === entry.etag) {
        res.writeHead(304, { etag: entry.etag });
        res.end();
        return true;
      }
      res.writeHead(200, {
        'content-type': entry.type,
        'content-length': entry.size,
        etag: entry.etag,
        'cache-control': entry.immutable
          ? 'public, max-age=31536000, immutable'
          : pathname.startsWith('/_build/')
            ? 'no-cache'
            : 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(entry.file).pipe(res);
      return true;
    },
  };
}

/**
 * Stored files (`/files/<key>`): long-lived cache headers (keys never change content),
 * the content type from the key's extension, and HTTP Range for video seeking.
 */
export async function serveStoredFile(key: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const storage = getStorage();
  const notFound = () => {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('404 Not Found\n');
  };
  let size: number | null;
  try {
    size = await storage.size(key);
  } catch {
    return notFound();
  }
  if (size === null) return notFound();
  const headers: http.OutgoingHttpHeaders = {
    'content-type': contentTypeOf(key),
    'cache-control': 'public, max-age=31536000, immutable',
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
  };
  const range = req.headers.range?.match(/^bytes=(\d*)-(\d*)$/);
  if (req.headers.range && range) {
    let start = range[1] ? Number(range[1]) : NaN;
    let end = range[2] ? Number(range[2]) : size - 1;
    if (Number.isNaN(start)) {
      start = Math.max(0, size - end); // suffix range: the last N bytes
      end = size - 1;
    }
    end = Math.min(end, size - 1);
    if (start > end || start >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` });
      res.end();
      return;
    }
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    if (req.method === 'HEAD') return void res.end();
    (await storage.read(key, { start, end }))?.pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': size });
  if (req.method === 'HEAD') return void res.end();
  (await storage.read(key))?.pipe(res);
}
