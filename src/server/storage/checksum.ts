import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

/** The size and SHA-256 (hex) of a stream's bytes, read once and never held whole. */
export async function digestStream(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    hash.update(bytes);
  }
  return { size, sha256: hash.digest('hex') };
}

/** The size and SHA-256 of a file on this machine's disk. */
export function digestFile(file: string): Promise<{ size: number; sha256: string }> {
  return digestStream(createReadStream(file));
}

/** The SHA-256 of bytes in memory. */
export function digestBytes(data: Buffer | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
