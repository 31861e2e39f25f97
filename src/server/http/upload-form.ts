/**
 * The multipart form of `POST /api/upload`, read within the largest upload allowed: what it holds
 * is then checked and stored by the media services (`storeUpload`).
 */
import { maxUploadRequestBytes, type IncomingFile } from '../services/media/index.ts';
import { readLimitedBody } from './body.ts';
import { AppError } from './errors.ts';

/**
 * Reads a multipart upload request (`file`, `purpose`) without ever holding more than `limit`
 * bytes: a larger `Content-Length` is refused before reading, a body that grows past it while
 * streaming is cut off. Both are a 413 `too_large`.
 */
export async function readUploadForm(request: Request, limit = maxUploadRequestBytes()): Promise<{ purpose: string; file: IncomingFile }> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) throw new AppError('unsupported_type');
  if (!request.body) throw new AppError('validation', { file: 'required' });
  const body = await readLimitedBody(request, limit);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('bad_request');
  }
  const file = form.get('file');
  const purpose = form.get('purpose');
  if (!file || typeof file === 'string') throw new AppError('validation', { file: 'required' });
  if (typeof purpose !== 'string' || !purpose) throw new AppError('validation', { purpose: 'required' });
  return { purpose, file: { name: file.name || 'file', bytes: new Uint8Array(await file.arrayBuffer()) } };
}
