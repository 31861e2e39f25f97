import { getDb } from '../../src/server/db/client.ts';
import { uploads, type UploadPurpose } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { fileUrl, getStorage } from '../../src/server/storage/index.ts';

/** Stores `data` and inserts its `uploads` row, as `POST /api/upload` would. */
export async function createUpload(
  ownerId: number,
  options: { purpose?: UploadPurpose; name?: string; mime?: string; data?: Buffer | string; width?: number; height?: number } = {},
) {
  const id = newPublicId();
  const name = options.name ?? 'board.zip';
  const data = Buffer.from(options.data ?? 'PK\u0003\u0004 test');
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '';
  const storageKey = `test/${id}${extension}`;
  await getStorage().put(storageKey, data);
  const [row] = await getDb()
    .insert(uploads)
    .values({
      id,
      ownerId,
      purpose: options.purpose ?? 'attachment',
      storageKey,
      name,
      mime: options.mime ?? 'application/zip',
      size: data.length,
      width: options.width ?? null,
      height: options.height ?? null,
    })
    .returning();
  return { ...row!, url: fileUrl(storageKey) };
}
