/**
 * Downloads of stored files: the services find what may be downloaded and how it is counted
 * (`StoredDownload`); this answers it over HTTP, from the disk or as a presigned address of the
 * bucket, with headers that keep a browser from rendering what it saves.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { findAttachmentDownload, downloadName, type StoredDownload } from '../services/media/index.ts';
import { findVersionFileDownload } from '../services/projects/index.ts';
import { getStorage } from '../storage/index.ts';
import { DOWNLOAD_LINK_SECONDS } from '../storage/s3.ts';
import { contentDisposition } from './content-disposition.ts';
import { AppError } from './errors.ts';

/**
 * Answers a stored file as a download named `file.name` (with its stored extension), counting it
 * once the file is known to be there: a presigned address from a bucket, or the bytes.
 */
export async function answerDownload(file: StoredDownload): Promise<Response> {
  const storage = getStorage();
  const filename = downloadName(file.name, file.storageKey);
  if (storage.driver === 's3') {
    // From a bucket the browser downloads straight from it (a presigned address naming the file):
    // no instance relays up to 50 MB, and the bucket's origin never renders what it sends.
    if ((await storage.size(file.storageKey)) === null) throw new AppError('not_found');
    await file.count();
    const location = await storage.signedUrl(file.storageKey, {
      expiresIn: DOWNLOAD_LINK_SECONDS,
      disposition: contentDisposition(filename),
      contentType: file.mime || 'application/octet-stream',
    });
    return new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-store' } });
  }
  const size = await storage.size(file.storageKey);
  const stream = size === null ? null : await storage.read(file.storageKey);
  if (!stream || size === null) throw new AppError('not_found');
  // The first bytes read before the answer starts: a file gone since it was measured (or a
  // disk that fails to read it) is a 404 for this request, not a response cut after its headers.
  try {
    await once(stream, 'readable');
  } catch {
    stream.destroy();
    throw new AppError('not_found');
  }
  await file.count();
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    status: 200,
    headers: {
      'content-type': file.mime || 'application/octet-stream',
      'content-length': String(size),
      'content-disposition': contentDisposition(filename),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    },
  });
}

/** `GET /api/attachment/download`: an attachment as a download, counted unless `count` is false. */
export async function downloadAttachment(attachmentId: string, viewerId: number | null, count: boolean): Promise<Response> {
  return answerDownload(await findAttachmentDownload(attachmentId, viewerId, count));
}

/** `GET /api/version/download`: a file a version keeps as a download, counted unless `count` is false. */
export async function downloadVersionFile(fileId: string, viewerId: number | null, count: boolean): Promise<Response> {
  return answerDownload(await findVersionFileDownload(fileId, viewerId, count));
}
