import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import send from 'send';
import { contentTypeOf } from '../lib/mime.ts';
import { preferredEncoding } from './http/encoding.ts';
import { applySecurityHeaders } from './http/security-headers.ts';
import { parseVariantKey } from './media/image-variants.ts';
import { logUnqueuedVariants, queueImageVariants } from './services/uploads.ts';
import { fileUrl, getStorage } from './storage/index.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Sends one file from the disk with `send`, which answers Range (206/416), conditional requests
 * (ETag and Last-Modified: 304/412) and HEAD; `headers` are added once the file is found.
 * A failure answers this request alone and never reaches the process: a plain 404 when the file
 * is missing (it may have vanished since it was indexed or stored), the status `send` chose for a
 * bad range or precondition, 500 for a read error; a response whose body had started is cut.
 */
function sendFile(req: http.IncomingMessage, res: http.ServerResponse, file: string, headers: http.OutgoingHttpHeaders): void {
  const fail = (status: number, extra: http.OutgoingHttpHeaders = {}) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // The file's own headers go; the ones every answer carries stay.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    applySecurityHeaders(res);
    const body = `${status} ${http.STATUS_CODES[status]}\n`;
    res.writeHead(status, { ...extra, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    res.end(body);
  };
  // The folder as root and the name URL-encoded: `send` decodes the path it is given, and nothing
  // above the file's own name is checked for dotfiles.
  send(req, `/${encodeURIComponent(path.basename(file))}`, { root: path.dirname(file), index: false, cacheControl: false })
    .on('headers', (response: http.ServerResponse) => {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) response.setHeader(name, value);
    })
    // A folder is not a file (send would redirect to the folder with a trailing slash).
    .on('directory', () => fail(404))
    .on('error', (error: Error & { status?: number; headers?: http.OutgoingHttpHeaders }) => {
      const status = error.status ?? 500;
      if (status >= 500) console.error(`[static] ${req.url}: ${error.message}`);
      fail(status, error.headers);
    })
    .pipe(res);
}

async function walk(dir: string, base = dir, out: Map<string, string> = new Map()): Promise<Map<string, string>> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, base, out);
    else out.set(`/${path.relative(base, full).split(path.sep).join('/')}`, full);
  }
  return out;
}

/**
 * The built client assets, indexed once at start so that no other request touches the disk to
 * learn whether it is a static file. Hashed `/_astro/` files are cached for a year.
 */
export async function createStaticFiles(clientDir: string) {
  const files = await walk(clientDir);
  return {
    /** Answers `pathname` when it is a built asset; false hands the request on. */
    serve(pathname: string, req: http.IncomingMessage, res: http.ServerResponse): boolean {
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return false;
      }
      const file = files.get(decoded);
      if (!file) return false;
      // The build wrote brotli and gzip copies of text assets (`precompress`): sent as the browser accepts.
      const br = files.get(`${decoded}.br`);
      const gz = files.get(`${decoded}.gz`);
      const encoding = br || gz ? preferredEncoding(req, [...(br ? ['br' as const] : []), ...(gz ? ['gzip' as const] : []), 'identity']) : 'identity';
      const chosen = encoding === 'br' ? br! : encoding === 'gzip' ? gz! : file;
      sendFile(req, res, chosen, {
        'content-type': contentTypeOf(file),
        'cache-control': decoded.startsWith('/_astro/') ? IMMUTABLE : decoded.startsWith('/_build/') ? 'no-cache' : 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
        ...(br || gz ? { vary: 'Accept-Encoding' } : {}),
        ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
      });
      return true;
    },
  };
}

function plainAnswer(res: http.ServerResponse, status: 404 | 500): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${status} ${http.STATUS_CODES[status]}\n`);
}

const plainNotFound = (res: http.ServerResponse) => plainAnswer(res, 404);

/**
 * A stored video, for a request whose signed address was checked: Range for seeking, cached by
 * the browser until its address expires (the file under it never changes).
 */
export function serveStoredVideo(key: string, req: http.IncomingMessage, res: http.ServerResponse, cacheSeconds: number): void {
  let file: string;
  try {
    file = getStorage().localPath(key);
  } catch {
    return plainNotFound(res);
  }
  sendFile(req, res, file, {
    'content-type': 'video/mp4',
    'cache-control': `private, max-age=${Math.max(0, Math.floor(cacheSeconds))}, immutable`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; media-src 'self'",
  });
}

/** Images whose variants a request found missing lately: their job is sent once in this time. */
const variantsAsked = new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });

/**
 * A variant of a stored image (`images/ab/<id>.w640.avif`). Pages name variants before the job
 * queue has made them (a new upload, an image from before variants existed): a missing one is a
 * redirect to the original, never kept (`no-store`), so the browser asks again next time and then
 * gets the variant; and it sends the image's job, once per image in ten minutes, in case none is
 * waiting. Nothing is encoded here. A variant of an image that does not exist is 404.
 */
async function serveImageVariant(key: string, original: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const storage = getStorage();
  if ((await storage.size(key)) !== null) return sendStoredFile(key, req, res);
  if ((await storage.size(original)) === null) return plainNotFound(res);
  if (!variantsAsked.has(original)) {
    variantsAsked.set(original, true);
    void queueImageVariants(original).catch(logUnqueuedVariants);
  }
  res.writeHead(302, { location: fileUrl(original), 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}

/**
 * Stored files (`/files/<key>`): long-lived cache headers (keys never change content), the
 * content type from the key's extension, HTTP Range for video seeking, and a policy that keeps
 * an uploaded file from running anything when opened directly.
 */
export function serveStoredFile(key: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  // Videos play only through their signed, expiring addresses (`/video/stream/…`).
  if (key.startsWith('videos/')) return void plainNotFound(res);
  const variant = parseVariantKey(key);
  if (variant) {
    return void serveImageVariant(key, variant.original, req, res).catch((error: unknown) => {
      console.error(`[static] ${req.url}:`, error instanceof Error ? error.message : error);
      if (!res.headersSent) plainAnswer(res, 500);
      else res.destroy();
    });
  }
  sendStoredFile(key, req, res);
}

function sendStoredFile(key: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  let file: string;
  try {
    file = getStorage().localPath(key);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`404 ${http.STATUS_CODES[404]}\n`);
    return;
  }
  sendFile(req, res, file, {
    'content-type': contentTypeOf(key),
    'cache-control': IMMUTABLE,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
  });
}
