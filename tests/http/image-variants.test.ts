import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { getDb } from '../../src/server/db/client.ts';
import { banners } from '../../src/server/db/schema/index.ts';
import { stopJobWorkers, startJobWorkers } from '../../src/server/jobs/workers.ts';
import { variantKey, variantWidths } from '../../src/server/media/image-variants.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { renderDescription } from '../../src/server/services/core/index.ts';
import { queueImageVariants, storeUpload } from '../../src/server/services/media/index.ts';
import { fileUrl, getStorage } from '../../src/server/storage/index.ts';
import { PHONE_UA, useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

/**
 * Uploaded pictures are shown through AVIF and WebP variants the job queue makes after the
 * upload: never wider than the original, named in the page before they exist, and until then a
 * redirect to the original.
 */
const app = useApp();

/** A picture with some detail (a gradient and stripes), as a phone photo would have. */
async function photo(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#0f5a2a"/><stop offset="1" stop-color="#d9b45a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${Array.from({ length: 30 }, (_, i) => `<rect x="${i * 40}" y="0" width="12" height="${height}" fill="#${(i * 8).toString(16).padStart(2, '0')}3040"/>`).join('')}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

const keyOf = (url: string) => url.slice(fileUrl('').length);
const allVariants = (key: string, width: number) => variantWidths(width).flatMap((w) => [variantKey(key, w, 'avif'), variantKey(key, w, 'webp')]);

async function waitForFiles(keys: string[], timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const sizes = await Promise.all(keys.map((key) => getStorage().size(key)));
    if (sizes.every((size) => size !== null)) return;
    if (Date.now() > until) throw new Error(`variants missing: ${keys.filter((_, i) => sizes[i] === null).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function fetchBytes(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${app.origin()}${path}`, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

let cover = { url: '', key: '' };
let inText = { url: '', key: '' };
let projectId = '';

/** Pictures from before the uploads, queued first. */
const backlog: string[] = [];

beforeAll(async () => {
  for (let i = 0; i < 8; i++) {
    const id = newPublicId(16);
    backlog.push(`images/${id.slice(0, 2)}/${id}.webp`);
    await getStorage().put(backlog[i]!, await sharp(await photo(640, 480)).webp().toBuffer());
    await queueImageVariants(backlog[i]!);
  }
  const { user } = await createUser();
  const coverUpload = await storeUpload(user.id, 'cover', { name: 'cover.jpg', bytes: await photo(1200, 900) });
  const textUpload = await storeUpload(user.id, 'image', { name: 'detail.jpg', bytes: await photo(700, 525) });
  cover = { url: coverUpload.url, key: keyOf(coverUpload.url) };
  inText = { url: textUpload.url, key: keyOf(textUpload.url) };
  const description = await renderDescription(`## Pictures\n\n![the detail](${inText.url})`);
  const project = await createProject(user.id, { title: 'Variant board', cover: cover.url, descriptionMd: '', descriptionHtml: description.html });
  projectId = project.publicId;
  await getDb().insert(banners).values({ image: cover.url, link: `/d-${projectId}`, titleEn: 'Variants', titleZh: '变体', sort: 0 });
});
afterAll(() => stopJobWorkers());

describe('an uploaded picture', () => {
  it('gets AVIF and WebP variants from the job queue, none wider than the original, served with their types', async () => {
    // the upload answered before anything was resized: the variants come from the queue
    expect(await getStorage().size(variantKey(cover.key, 640, 'avif'))).toBeNull();
    await startJobWorkers();
    await waitForFiles([...allVariants(cover.key, 1200), ...allVariants(inText.key, 700)]);
    // the older pictures queued before them (as after the demo seed) did not hold the uploads back
    expect(await getStorage().size(variantKey(backlog.at(-1)!, 160, 'avif'))).toBeNull();
    await waitForFiles(backlog.map((key) => variantKey(key, 640, 'webp')));

    for (const [key, original] of [[cover.key, 1200], [inText.key, 700]] as const) {
      expect(variantWidths(original).at(-1)).toBe(original);
      for (const width of variantWidths(original)) {
        for (const [format, type, sharpFormat] of [['avif', 'image/avif', 'heif'], ['webp', 'image/webp', 'webp']] as const) {
          const response = await fetchBytes(fileUrl(variantKey(key, width, format)));
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe(type);
          expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
          const meta = await sharp(response.bytes).metadata();
          expect([meta.format, meta.width, meta.height]).toEqual([sharpFormat, width, Math.round((width * 3) / 4)]);
        }
      }
      // nothing wider than the original was made, and AVIF is what saves the bytes
      expect(await getStorage().size(variantKey(key, 1600, 'avif'))).toBeNull();
      const [avif, webp, stored] = await Promise.all([variantKey(key, 320, 'avif'), variantKey(key, 320, 'webp'), key].map((k) => getStorage().size(k)));
      expect(avif!).toBeLessThan(webp!);
      expect(webp!).toBeLessThan(stored!);
    }
  });

  it('whose variants are not made yet redirects to the original, uncached, and has them made', async () => {
    // an image stored before variants existed: no job was ever sent for it
    const id = newPublicId(16);
    const key = `images/${id.slice(0, 2)}/${id}.webp`;
    await getStorage().put(key, await sharp(await photo(500, 375)).webp().toBuffer());
    await startJobWorkers();
    const missing = await fetchBytes(fileUrl(variantKey(key, 320, 'avif')));
    expect(missing.status).toBe(302);
    expect(missing.headers.get('location')).toBe(fileUrl(key));
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect((await fetchBytes(missing.headers.get('location')!)).headers.get('content-type')).toBe('image/webp');
    // the request sent its job: the variant comes, and is then served itself
    await waitForFiles([variantKey(key, 320, 'avif'), variantKey(key, 500, 'webp')]);
    const made = await fetchBytes(fileUrl(variantKey(key, 320, 'avif')));
    expect([made.status, made.headers.get('content-type')]).toEqual([200, 'image/avif']);
    // a width the original does not reach is never made: it stays a redirect
    expect((await fetchBytes(fileUrl(variantKey(key, 960, 'webp')))).status).toBe(302);
    // a variant of no image at all is not found
    expect((await fetchBytes(fileUrl(variantKey('images/zz/zz00000000000000.webp', 320, 'avif')))).status).toBe(404);
  });
});

/** Every `<tag …>` of `html` with its attributes. */
function tags(html: string, name: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map(([, attributes]) =>
    Object.fromEntries([...attributes!.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].map(([, key, value]) => [key!, (value ?? '').replace(/&amp;/g, '&')])),
  );
}

const candidates = (srcset: string) => srcset.split(',').map((entry) => entry.trim().split(/\s+/)[0]!);

describe('the project page', () => {
  for (const [label, path, userAgent] of [['desktop', () => `/d-${projectId}`, undefined], ['phone', () => `/m/d-${projectId}`, PHONE_UA]] as const) {
    it(`(${label}) shows pictures through AVIF and WebP sources, keeps their space, and preloads the largest`, async () => {
      const page = await app.request(path(), userAgent ? { headers: { 'user-agent': userAgent } } : {});
      expect(page.status).toBe(200);
      const html = page.body;

      // the gallery's main picture: the cover, AVIF first, its space kept, loaded first
      const main = tags(html, 'img').find((img) => 'data-gallery-main' in img)!;
      expect(main).toMatchObject({ src: cover.url, width: '800', height: '600', loading: 'eager', fetchpriority: 'high' });
      const sources = tags(html, 'source');
      const coverSources = sources.filter((source) => source.srcset!.includes(cover.key.replace('.webp', '.w')));
      expect(coverSources.map((source) => source.type).slice(0, 2)).toEqual(['image/avif', 'image/webp']);
      expect(candidates(coverSources[0]!.srcset!)).toContain(fileUrl(variantKey(cover.key, 1200, 'avif')));
      expect(candidates(coverSources[1]!.srcset!)).toContain(fileUrl(variantKey(cover.key, 640, 'webp')));
      // the picture in the description has its own sources among the thumbnails
      expect(sources.some((source) => source.srcset!.includes(variantKey(inText.key, 160, 'avif')))).toBe(true);

      // no layout shift: every image has its width and height
      for (const img of tags(html, 'img')) {
        expect(img.width, img.src).toMatch(/^\d+$/);
        expect(img.height, img.src).toMatch(/^\d+$/);
      }

      // the largest picture is preloaded with the same candidates the page's picture offers
      const [preload] = tags(html, 'link').filter((link) => link.rel === 'preload' && link.as === 'image');
      expect(preload).toMatchObject({ type: 'image/avif', imagesrcset: coverSources[0]!.srcset, imagesizes: coverSources[0]!.sizes, fetchpriority: 'high' });
      expect(html.indexOf('rel="preload"')).toBeLessThan(html.indexOf('</head>'));

      // nothing the page asks for comes from outside the policy: every picture is the site's own,
      // which `img-src 'self'` allows, and each one it names (the queue has made them by now) answers
      const policy = page.headers['content-security-policy'] as string;
      expect(policy).toMatch(/img-src 'self'/);
      const urls = new Set([
        ...tags(html, 'img').map((img) => img.src!),
        ...sources.flatMap((source) => candidates(source.srcset!)),
        ...candidates(preload!.imagesrcset!),
      ]);
      for (const url of urls) {
        if (url.startsWith('data:')) continue; // avatars without a picture: allowed by `img-src data:`
        expect(url, url).toMatch(/^\/(?!\/)/);
        const response = await fetchBytes(url);
        expect(response.status, url).toBe(200);
        expect(response.headers.get('content-type'), url).toMatch(/^image\//);
      }
    });
  }

  it('the home page preloads its first banner through the same sources as its picture', async () => {
    const page = await app.request('/');
    const [preload] = tags(page.body, 'link').filter((link) => link.rel === 'preload' && link.as === 'image');
    expect(candidates(preload!.imagesrcset!)).toContain(fileUrl(variantKey(cover.key, 1200, 'avif')));
    const banner = tags(page.body, 'source').find((source) => source.srcset === preload!.imagesrcset);
    expect(banner).toMatchObject({ type: 'image/avif', sizes: preload!.imagesizes });
  });
});
