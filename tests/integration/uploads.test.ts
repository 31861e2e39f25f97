import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { useTestDatabase } from '../helpers/db.ts';
import { createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { uploads } from '../../src/server/db/schema/index.ts';
import { IMAGE_MAX_BYTES, safeFileName, storeUpload } from '../../src/server/services/media/index.ts';
import { readUploadForm } from '../../src/server/http/upload-form.ts';

const { dataDir } = useTestDatabase();

const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#14532d' } });
const storedFile = (url: string) => path.join(dataDir(), 'files', url.replace(/^\/files\//, ''));
const filesOnDisk = () => {
  const root = path.join(dataDir(), 'files');
  return existsSync(root) ? readdirSync(root, { recursive: true }).filter((entry) => String(entry).endsWith('.webp')).length : 0;
};

describe('image uploads', () => {
  it('re-encodes a large PNG to WebP at most 2000 px on the longest side and stores it', async () => {
    const { user } = await createUser();
    const png = await image(3000, 1200).png().toBuffer();
    const result = await storeUpload(user.id, 'image', { name: 'C:\\boards\\main board.png', bytes: png });
    expect(result).toMatchObject({ name: 'main board.webp', mime: 'image/webp' });
    expect(result.url).toMatch(/^\/files\/images\/[a-z0-9]{2}\/[a-z0-9]{16}\.webp$/);
    const meta = await sharp(storedFile(result.url)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 2000, 800]);
    const [row] = await getDb().select().from(uploads).where(eq(uploads.id, result.id));
    expect(row).toMatchObject({ ownerId: user.id, purpose: 'image', width: 2000, height: 800, size: result.size });
  });

  it('makes avatars 512x512 squares', async () => {
    const { user } = await createUser();
    const result = await storeUpload(user.id, 'avatar', { name: 'me.jpg', bytes: await image(900, 600).jpeg().toBuffer() });
    const meta = await sharp(storedFile(result.url)).metadata();
    expect([meta.width, meta.height]).toEqual([512, 512]);
  });

  it('turns photos upright by EXIF and strips their metadata', async () => {
    const { user } = await createUser();
    const rotated = await image(400, 200).jpeg().withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret camera owner' } } }).toBuffer();
    expect((await sharp(rotated).metadata()).exif).toBeDefined();
    const result = await storeUpload(user.id, 'cover', { name: 'photo.jpg', bytes: rotated });
    const meta = await sharp(storedFile(result.url)).metadata();
    expect([meta.width, meta.height]).toEqual([200, 400]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('accepts WebP and GIF', async () => {
    const { user } = await createUser();
    await expect(storeUpload(user.id, 'image', { name: 'a.webp', bytes: await image(50, 50).webp().toBuffer() })).resolves.toMatchObject({ mime: 'image/webp' });
    await expect(storeUpload(user.id, 'image', { name: 'a.gif', bytes: await image(50, 50).gif().toBuffer() })).resolves.toMatchObject({ mime: 'image/webp' });
  });

  it('judges by content, not by name: anything else is 415 and nothing is stored', async () => {
    const { user } = await createUser();
    const before = filesOnDisk();
    const rows = async () => (await getDb().select().from(uploads).where(eq(uploads.ownerId, user.id))).length;
    const tiff = await image(20, 20).tiff().toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF');
    const truncatedPng = (await image(100, 100).png().toBuffer()).subarray(0, 60);
    for (const [name, bytes] of [
      ['avatar.png', Buffer.from('just some text pretending to be a picture')],
      ['avatar.png', svg],
      ['scan.tiff', tiff],
      ['doc.pdf', pdf],
      ['broken.png', truncatedPng],
    ] as const) {
      await expect(storeUpload(user.id, 'avatar', { name, bytes })).rejects.toMatchObject({ status: 415, errorKey: 'unsupported_type' });
    }
    expect(await rows()).toBe(0);
    expect(filesOnDisk()).toBe(before);
  });

  it('refuses a decompression bomb (a tiny file of a huge picture) with 413 and stores nothing', async () => {
    const { user } = await createUser();
    // 10,000 x 10,000 black pixels compress to a few hundred kilobytes of PNG.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000' }, limitInputPixels: false }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(IMAGE_MAX_BYTES);
    await expect(storeUpload(user.id, 'image', { name: 'bomb.png', bytes: bomb })).rejects.toMatchObject({ status: 413, errorKey: 'too_large' });
    expect((await getDb().select().from(uploads).where(eq(uploads.ownerId, user.id))).length).toBe(0);
  });

  it('keeps only the picture of a polyglot (a GIF that is also a script): the stored file is a fresh WebP', async () => {
    const { user } = await createUser();
    const gif = await image(8, 8).gif().toBuffer();
    const polyglot = Buffer.concat([gif, Buffer.from('\n/*<script>alert(1)</script>*/=alert(1);')]);
    const result = await storeUpload(user.id, 'image', { name: 'funny.gif.html', bytes: polyglot });
    expect(result).toMatchObject({ mime: 'image/webp', name: 'funny.gif.webp' });
    const stored = (await import('node:fs')).readFileSync(storedFile(result.url));
    expect(stored.includes(Buffer.from('<script>'))).toBe(false);
    expect(stored.includes(Buffer.from('alert('))).toBe(false);
  });

  it('refuses files over the size limit with 413, unknown purposes and empty files', async () => {
    const { user } = await createUser();
    const big = Buffer.concat([await image(10, 10).png().toBuffer(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    await expect(storeUpload(user.id, 'image', { name: 'big.png', bytes: big })).rejects.toMatchObject({ status: 413, errorKey: 'too_large' });
    await expect(storeUpload(user.id, 'banner', { name: 'x.png', bytes: Buffer.from('x') })).rejects.toMatchObject({ status: 400, fields: { purpose: 'invalid_value' } });
    await expect(storeUpload(user.id, 'image', { name: 'x.png', bytes: new Uint8Array() })).rejects.toMatchObject({ status: 400, fields: { file: 'required' } });
  });
});

describe('reading the multipart request', () => {
  const form = (bytes: Uint8Array<ArrayBuffer>, purpose = 'avatar') => {
    const body = new FormData();
    body.append('purpose', purpose);
    body.append('file', new Blob([bytes]), 'me.png');
    return body;
  };

  it('reads the file and the purpose', async () => {
    const request = new Request('http://copperhub.test/api/upload', { method: 'POST', body: form(new Uint8Array([1, 2, 3])) });
    const { purpose, file } = await readUploadForm(request);
    expect(purpose).toBe('avatar');
    expect(file.name).toBe('me.png');
    expect([...file.bytes]).toEqual([1, 2, 3]);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(16));
      },
    });
    const request = new Request('http://copperhub.test/api/upload', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(100 * 1024 * 1024) },
      duplex: 'half',
    } as RequestInit);
    await expect(readUploadForm(request, 1024)).rejects.toMatchObject({ status: 413, errorKey: 'too_large' });
    expect(request.bodyUsed).toBe(false);
    await request.body?.cancel();
  });

  it('stops reading a body that grows past the limit without a Content-Length', async () => {
    // Streamed in chunks like the server hands over a chunked upload.
    const encoded = new Response(form(new Uint8Array(64 * 1024)));
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    let sent = 0;
    async function* chunks() {
      for (let offset = 0; offset < bytes.length; offset += 1024) {
        sent += 1024;
        yield bytes.subarray(offset, offset + 1024);
      }
    }
    const request = new Request('http://copperhub.test/api/upload', {
      method: 'POST',
      body: chunks() as unknown as BodyInit,
      headers: { 'content-type': encoded.headers.get('content-type')! },
      duplex: 'half',
    } as RequestInit);
    await expect(readUploadForm(request, 4096)).rejects.toMatchObject({ status: 413 });
    expect(sent).toBeLessThan(bytes.length / 2);
  });

  it('wants multipart with a file and a purpose', async () => {
    const json = new Request('http://copperhub.test/api/upload', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await expect(readUploadForm(json)).rejects.toMatchObject({ status: 415 });
    const noFile = new FormData();
    noFile.append('purpose', 'avatar');
    await expect(readUploadForm(new Request('http://copperhub.test/api/upload', { method: 'POST', body: noFile }))).rejects.toMatchObject({ fields: { file: 'required' } });
  });
});

describe('safeFileName', () => {
  it('keeps a readable name without paths or control characters', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('a\u0000b<c>.png', 'webp')).toBe('abc.webp');
    expect(safeFileName('.hidden', 'webp', 'image')).toBe('image.webp');
    expect(safeFileName('开源 板子.jpg', 'webp')).toBe('开源 板子.webp');
  });
});
