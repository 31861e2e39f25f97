import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import send from 'send';
import { contentTypeOf } from '../lib/mime.ts';
import { HIDDEN_TAKES_EFFECT_SECONDS } from '../lib/contract/video.ts';
import { preferredEncoding } from './http/encoding.ts';
import { applySecurityHeaders } from './http/security-headers.ts';
import { parseVariantKey } from './media/image-variants.ts';
import { logUnqueuedVariants, queueImageVariants } from './services/media/index.ts';
import { assertSafeKey, fileUrl, getStorage, UPLOADS_FOLDER } from './storage/index.ts';
import { DOWNLOAD_LINK_SECONDS, type BucketStorage } from './storage/s3.ts';
import { contentDisposition } from './http/content-disposition.ts';
import { cutWhenRefused } from './http/recheck.ts';
import { log } from './log.ts';
import { AppError, isAppError } from './http/errors.ts';
import { errorEnvelope } from './http/envelope.ts';
import { getT, resolveHeaderLocale } from '../lib/i18n.ts';

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
      if (status >= 500) log.error({ component: 'static', err: error }, 'file could not be read');
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

function plainNotFound(res: http.ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`404 ${http.STATUS_CODES[404]}\n`);
}

/** A `Date` from an HTTP date header, or undefined (an unreadable one is ignored, as `send` does). */
function httpDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * One stored file from the bucket, relayed: the request's Range and conditional headers go to
 * the bucket, which answers 200/206/304/412/416 itself; its ETag and Last-Modified come back.
 * A request with several ranges or an `If-Range` gets the whole file (S3 answers one range and
 * has no `If-Range`; a server may always ignore Range). A failure answers this request alone.
 */
function relayFromBucket(storage: BucketStorage, key: string, req: http.IncomingMessage, res: http.ServerResponse, headers: http.OutgoingHttpHeaders): void {
  const range = req.headers.range;
  const oneRange = range && !range.includes(',') && !req.headers['if-range'] ? range : undefined;
  storage
    .readForHttp(key, {
      method: req.method === 'HEAD' ? 'HEAD' : 'GET',
      range: oneRange,
      ifNoneMatch: req.headers['if-none-match'],
      ifModifiedSince: req.headers['if-none-match'] ? undefined : httpDate(req.headers['if-modified-since']),
      ifMatch: req.headers['if-match'],
      ifUnmodifiedSince: httpDate(req.headers['if-unmodified-since']),
    })
    .then((answer) => {
      if (!answer) return plainNotFound(res);
      const validators = {
        ...(answer.etag ? { etag: answer.etag } : {}),
        ...(answer.lastModified ? { 'last-modified': answer.lastModified.toUTCString() } : {}),
      };
      if (answer.status === 304) return void res.writeHead(304, { ...validators, 'cache-control': headers['cache-control'] }).end();
      if (answer.status === 412 || answer.status === 416) {
        const body = `${answer.status} ${http.STATUS_CODES[answer.status]}\n`;
        res.writeHead(answer.status, {
          ...(answer.status === 416 && answer.size !== undefined ? { 'content-range': `bytes */${answer.size}` } : {}),
          'content-type': 'text/plain; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'cache-control': 'no-store',
        });
        return void res.end(body);
      }
      res.writeHead(answer.status, {
        ...headers,
        ...validators,
        'accept-ranges': 'bytes',
        ...(answer.contentLength !== undefined ? { 'content-length': answer.contentLength } : {}),
        ...(answer.contentRange ? { 'content-range': answer.contentRange } : {}),
      });
      if (!answer.body || req.method === 'HEAD') {
        answer.body?.destroy();
        return void res.end();
      }
      // A read that fails midway cuts this response; the bucket's stream is closed with a client that leaves.
      answer.body.on('error', () => res.destroy());
      res.on('close', () => answer.body?.destroy());
      answer.body.pipe(res);
    })
    .catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (isAppError(error) && error.errorKey === 'storage_unavailable') return storageUnavailable(req, res, error);
      log.error({ component: 'static', err: error, url: req.url }, 'stored file could not be read');
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`502 ${http.STATUS_CODES[502]}\n`);
    });
}

/** The bucket out of reach: 503 with the envelope, in the reader's language, to be tried again. */
function storageUnavailable(req: http.IncomingMessage, res: http.ServerResponse, error: AppError): void {
  log.warn({ component: 'static', err: error, url: req.url }, 'the bucket is out of reach');
  const body = JSON.stringify(errorEnvelope(error, getT(resolveHeaderLocale({ get: (name) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : null) }))));
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', 'retry-after': String(error.retryAfterSeconds ?? 5) });
  res.end(body);
}

/**
 * Sends the browser to a presigned address of the bucket for `expiresIn` seconds. The redirect
 * itself is never cached: each address is signed anew and stops working when it expires.
 */
function redirectToBucket(storage: BucketStorage, key: string, res: http.ServerResponse, options: { expiresIn: number; disposition?: string; contentType: string }): void {
  storage
    .signedUrl(key, options)
    .then((location) => {
      res.writeHead(302, { location, 'cache-control': 'private, no-store', 'content-length': 0 });
      res.end();
    })
    .catch((error: unknown) => {
      log.error({ component: 'static', err: error, key }, 'presigning failed');
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`502 ${http.STATUS_CODES[502]}\n`);
    });
}

/**
 * A stored video, for a request whose signed address was checked: Range for seeking, cached by
 * the browser for `cacheSeconds` (the file under it never changes; how long is the caller's, see
 * `HIDDEN_TAKES_EFFECT_SECONDS`). From a bucket, the browser is sent to a presigned address valid
 * as long (at least a minute, so a slow redirect still lands): the bucket answers every range of
 * a large file, which this server would otherwise relay byte by byte. From the disk, a response
 * still being sent asks `mayGoOn` again every `HIDDEN_TAKES_EFFECT_SECONDS` and is cut when the
 * address no longer plays (`cutWhenRefused`).
 */
export function serveStoredVideo(
  key: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  access: { cacheSeconds: number; mayGoOn: () => Promise<boolean> },
): void {
  const storage = getStorage();
  try {
    assertSafeKey(key);
  } catch {
    return plainNotFound(res);
  }
  if (storage.driver === 's3') return redirectToBucket(storage, key, res, { expiresIn: Math.max(60, Math.floor(access.cacheSeconds)), contentType: 'video/mp4' });
  cutWhenRefused(res, access.mayGoOn, HIDDEN_TAKES_EFFECT_SECONDS * 1000);
  sendFile(req, res, storage.localFile(key), {
    'content-type': 'video/mp4',
    'cache-control': `private, max-age=${Math.max(0, Math.floor(access.cacheSeconds))}, immutable`,
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
 *
 * From a bucket, by kind: an attachment (a download of up to 50 MB, never shown in a page) is a
 * redirect to a presigned address that downloads it, so no instance relays its bytes and the
 * bucket's origin never renders it; everything else (images, posters, board renders — small,
 * shown in pages) is relayed under its one stable `/files/` address, which browsers and a CDN
 * cache for a year and pages' `img-src 'self'` already allows, with the bucket's ETag and Range.
 */
export function serveStoredFile(key: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  // Videos play only through their signed, expiring addresses (`/video/stream/…`); uploads in
  // progress are never served.
  if (key.startsWith('videos/') || key.startsWith(UPLOADS_FOLDER)) return void plainNotFound(res);
  const variant = parseVariantKey(key);
  if (variant) {
    return void serveImageVariant(key, variant.original, req, res).catch((error: unknown) => {
      log.error({ component: 'static', err: error, url: req.url }, 'image variant could not be served');
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        res.end(`500 ${http.STATUS_CODES[500]}\n`);
      }
      else res.destroy();
    });
  }
  sendStoredFile(key, req, res);
}

function sendStoredFile(key: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  try {
    assertSafeKey(key);
  } catch {
    return plainNotFound(res);
  }
  const storage = getStorage();
  const headers = {
    'content-type': contentTypeOf(key),
    'cache-control': IMMUTABLE,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
  };
  if (storage.driver === 'filesystem') return sendFile(req, res, storage.localFile(key), headers);
  if (key.startsWith('attachments/')) {
    return redirectToBucket(storage, key, res, { expiresIn: DOWNLOAD_LINK_SECONDS, disposition: contentDisposition(path.basename(key)), contentType: 'application/octet-stream' });
  }
  relayFromBucket(storage, key, req, res, headers);
}
