/**
 * The tus endpoint for video bytes (`/api/video/upload`): resumable uploads with `@tus/server`
 * on the local disk, outside the served files. A client creates an upload with the token of
 * `video/getVideoToken` in its `Upload-Metadata` (no cookie needed: apps and scripts upload the
 * same way), then sends the bytes in as many PATCH requests as its connection allows; after a
 * drop it asks where the upload stands (HEAD) and goes on from there.
 */
import type http from 'node:http';
import { Server } from '@tus/server';
import { VIDEO_MAX_BYTES } from '../../lib/contract/video.ts';
import { claimUploadToken, isOpenUpload, markUploadFinished, TusRefusal, TUS_PATH } from '../services/video-uploads.ts';
import { tusStore } from '../storage/tus-store.ts';

let server: Server | undefined;

/** The refusal as the tus client shows it: our error envelope's key, as JSON. */
function refusal(status: number, key: string): { status_code: number; body: string } {
  return { status_code: status, body: JSON.stringify({ retCode: status, errorKey: key, message: key }) };
}

function tusServer(): Server {
  server ??= new Server({
    path: TUS_PATH,
    datastore: tusStore(),
    maxSize: VIDEO_MAX_BYTES,
    relativeLocation: true,
    // A finished upload belongs to its video: only the job removes it.
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(_req, upload) {
      if (upload.sizeIsDeferred) throw refusal(400, 'validation');
      try {
        await claimUploadToken(upload.metadata?.uploadToken, upload.id, upload.size);
      } catch (error) {
        if (error instanceof TusRefusal) throw refusal(error.status, error.key);
        throw error;
      }
      return {};
    },
    async onIncomingRequest(req, uploadId) {
      // Bytes go only to an upload whose token is not spent (a saved video's upload is closed).
      if (req.method !== 'POST' && !(await isOpenUpload(uploadId))) throw refusal(404, 'upload_not_found');
    },
    async onUploadFinish(_req, upload) {
      await markUploadFinished(upload.id);
      return {};
    },
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
