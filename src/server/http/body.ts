import { AppError } from './errors.ts';

/**
 * The bytes of a request body, never holding more than `limit` of them: a larger declared
 * `Content-Length` is refused before reading, a body that grows past `limit` while streaming is
 * cut off. Both are a 413 `too_large`.
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Buffer<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new AppError('too_large');
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
