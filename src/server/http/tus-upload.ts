/**
 * The tus endpoint for video bytes (`/api/video/upload`): resumable uploads with `@tus/server`,
 * kept in storage where every instance and worker reaches them (`storage/tus-store.ts`). A client creates an upload with the token of
 * `video/getVideoToken` in its `Upload-Metadata` (no cookie needed: apps and scripts upload the
 * same way), then sends the bytes in as many PATCH requests as its connection allows; after a
 * drop it asks where the upload stands (HEAD) and goes on from there.
 */
import type http from 'node:http';
import { Server } from '@tus/server';
import { VIDEO_MAX_BYTES } from '../../lib/contract/video.ts';
import { getT, resolveHeaderLocale } from '../../lib/i18n.ts';
import { claimUploadToken, isOpenUpload, isSavedUpload, markUploadFinished, TusRefusal, TUS_PATH } from '../services/media/index.ts';
import { tusStore } from '../storage/tus-store.ts';
import { errorEnvelope } from './envelope.ts';
import { AppError, type ErrorKey } from './errors.ts';
import { log } from '../log.ts';

/** The key of a refusal tus makes by itself (a wrong offset, a file it no longer has), by status. */
function keyOfStatus(status: number): ErrorKey {
  if (status >= 500) return 'internal';
  if (status === 413) return 'too_large';
  if (status === 404 || status === 410) return 'upload_not_found';
  if (status === 403) return 'forbidden';
  if (status === 409) return 'conflict';
  return 'bad_request';
}

/**
 * Every refusal as the rest of the API answers: the `{ retCode, message, errorKey }` envelope with
 * the message in the request's language (cookie, then Accept-Language), so an app shows it as it
 * is. The status stays tus's, which clients act on (retry, start over).
 */
async function refusalBody(req: Request, error: Error | { status_code: number; body: string }): Promise<{ status_code: number; body: string }> {
  let status: number;
  let key: ErrorKey;
  if (error instanceof TusRefusal) {
    status = error.status;
    key = error.key;
  } else {
    status = 'status_code' in error && typeof error.status_code === 'number' ? error.status_code : 500;
    key = keyOfStatus(status);
    if (status >= 500) log.error({ component: 'tus', err: error }, 'unexpected upload error');
  }
  return { status_code: status, body: JSON.stringify(errorEnvelope(new AppError(key), getT(resolveHeaderLocale(req.headers)), status)) };
}

/** tus's server, whose refusals say they are JSON (tus writes its bodies as bare text). */
class EnvelopeServer extends Server {
  override write(...args: Parameters<Server['write']>): ReturnType<Server['write']> {
    const [, headers, , body] = args;
    if (body?.startsWith('{"retCode"')) headers.set('content-type', 'application/json; charset=utf-8');
    return super.write(...args);
  }
}

let server: Server | undefined;

function tusServer(): Server {
  server ??= new EnvelopeServer({
    path: TUS_PATH,
    datastore: tusStore(),
    maxSize: VIDEO_MAX_BYTES,
    relativeLocation: true,
    // A finished upload belongs to its video: only the job removes it.
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(_req, upload) {
      if (upload.sizeIsDeferred) throw new TusRefusal(400, 'validation');
      const { uploadToken, ...metadata } = upload.metadata ?? {};
      await claimUploadToken(uploadToken, upload.id, upload.size);
      // The token has done its work: it is not kept beside the bytes.
      return { metadata };
    },
    async onIncomingRequest(req, uploadId) {
      if (req.method === 'POST') return;
      // The bytes of an upload are never served back (README: tus files are never served).
      if (req.method === 'GET') throw new TusRefusal(404, 'upload_not_found');
      // Bytes go to an upload still arriving or not yet saved; a saved video's finished upload is closed.
      if (!(await isOpenUpload(uploadId))) throw new TusRefusal(404, 'upload_not_found');
      // A saved video's bytes go with the video (`video/del`), not by a client's termination.
      if (req.method === 'DELETE' && (await isSavedUpload(uploadId))) throw new TusRefusal(409, 'upload_used');
    },
    async onUploadFinish(_req, upload) {
      await markUploadFinished(upload.id);
      return {};
    },
    onResponseError: refusalBody,
  });
  return server;
}

/** Whether `pathname` is the tus endpoint or one of its uploads. */
export function isTusPath(pathname: string): boolean {
  return pathname === TUS_PATH || pathname.startsWith(`${TUS_PATH}/`);
}

/** Answers a tus request (creation, HEAD, PATCH, OPTIONS, DELETE). */
export function handleTusRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  return tusServer().handle(req, res);
}
