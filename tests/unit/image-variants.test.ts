import { describe, expect, it } from 'vitest';
import { imageSlot } from '../../src/lib/image-slots.ts';
import { describePicture, parseVariantKey, variantKey, variantWidths } from '../../src/server/media/image-variants.ts';

describe('image variants', () => {
  it('are never wider than the original, and include the widest a page shows of it', () => {
    expect(variantWidths(2000)).toEqual([160, 320, 640, 960, 1280, 1600]);
    expect(variantWidths(1200)).toEqual([160, 320, 640, 960, 1200]);
    expect(variantWidths(800)).toEqual([160, 320, 640, 800]);
    // a 960 beside a 1000 would be an encode that saves nothing
    expect(variantWidths(1000)).toEqual([160, 320, 640, 1000]);
    expect(variantWidths(120)).toEqual([120]);
    expect(variantWidths(0)).toEqual([]);
  });

  it('are named after their original, and only originals of ours have them', () => {
    expect(variantKey('images/ab/ab12cd.webp', 640, 'avif')).toBe('images/ab/ab12cd.w640.avif');
    expect(parseVariantKey('images/ab/ab12cd.w640.avif')).toEqual({ original: 'images/ab/ab12cd.webp', width: 640, format: 'avif' });
    expect(parseVariantKey('images/ab/ab12cd.webp')).toBeNull();
    expect(parseVariantKey('boards/ab/preview.w640.avif')).toBeNull();
    expect(parseVariantKey('images/ab/../x.w640.avif')).toBeNull();
    expect(() => variantKey('boards/1/preview.webp', 640, 'webp')).toThrow();
  });

  it('give a stored picture AVIF and WebP sources for its box, and anything else none', () => {
    const card = imageSlot('card', 'desktop');
    const picture = describePicture('/files/images/ab/ab12cd.webp', 1200, card);
    expect(picture).toMatchObject({ src: '/files/images/ab/ab12cd.webp', width: 400, height: 300, sizes: card.sizes });
    expect(picture.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp']);
    // a 400 px box wants at most 1200 device pixels: the candidates stop at the first that covers it
    expect(picture.sources[0]!.srcset).toBe(
      '/files/images/ab/ab12cd.w160.avif 160w, /files/images/ab/ab12cd.w320.avif 320w, /files/images/ab/ab12cd.w640.avif 640w, /files/images/ab/ab12cd.w960.avif 960w, /files/images/ab/ab12cd.w1200.avif 1200w',
    );
    expect(describePicture('/files/images/ab/ab12cd.webp', 1200, imageSlot('galleryThumb', 'desktop')).sources[1]!.srcset).toBe(
      '/files/images/ab/ab12cd.w160.webp 160w, /files/images/ab/ab12cd.w320.webp 320w',
    );
    for (const other of ['/banners/one.webp', 'https://example.com/a.png', '/files/boards/1/preview.webp']) {
      expect(describePicture(other, 800, card).sources).toEqual([]);
    }
    // a width nobody knows: shown as stored rather than naming variants that may never exist
    expect(describePicture('/files/images/ab/ab12cd.webp', null, card).sources).toEqual([]);
  });
});
