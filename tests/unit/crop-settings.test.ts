import { describe, expect, it } from 'vitest';
import {
  cropOutputSize,
  downscaleSize,
  initialCropBox,
  isCropChangeAllowed,
  normalizeCropOptions,
} from '../../src/lib/crop-settings.ts';

describe('normalizeCropOptions', () => {
  it('applies the specification defaults: JPEG at quality 1, square, 10 px minimum, no auto size', () => {
    expect(normalizeCropOptions()).toEqual({
      outputType: 'jpeg',
      mime: 'image/jpeg',
      outputQuality: 1,
      aspectRatio: 1,
      autoCropSize: null,
      minCropSize: { width: 10, height: 10 },
    });
  });

  it('takes a minimum size as one number for both sides or as a pair, never below 0', () => {
    expect(normalizeCropOptions({ minCropSize: 40 }).minCropSize).toEqual({ width: 40, height: 40 });
    expect(normalizeCropOptions({ minCropSize: { width: 120, height: 30 } }).minCropSize).toEqual({ width: 120, height: 30 });
    expect(normalizeCropOptions({ minCropSize: 0 }).minCropSize).toEqual({ width: 0, height: 0 });
    expect(normalizeCropOptions({ minCropSize: -5 }).minCropSize).toEqual({ width: 0, height: 0 });
    expect(normalizeCropOptions({ minCropSize: { width: -1, height: Number.NaN } }).minCropSize).toEqual({ width: 0, height: 10 });
  });

  it('keeps a free ratio free and refuses unusable ratios, qualities and sizes', () => {
    expect(normalizeCropOptions({ aspectRatio: null }).aspectRatio).toBeNull();
    expect(normalizeCropOptions({ aspectRatio: 16 / 9 }).aspectRatio).toBeCloseTo(16 / 9);
    expect(normalizeCropOptions({ aspectRatio: 0 }).aspectRatio).toBeNull();
    expect(normalizeCropOptions({ outputQuality: 3 }).outputQuality).toBe(1);
    expect(normalizeCropOptions({ outputQuality: -1 }).outputQuality).toBe(0);
    expect(normalizeCropOptions({ outputQuality: 0.8 }).outputQuality).toBe(0.8);
    expect(normalizeCropOptions({ outputType: 'webp' }).mime).toBe('image/webp');
    expect(normalizeCropOptions({ outputType: 'png' }).mime).toBe('image/png');
    expect(normalizeCropOptions({ autoCropSize: { width: 0, height: 20 } }).autoCropSize).toBeNull();
    expect(normalizeCropOptions({ autoCropSize: { width: 300, height: 200 } }).autoCropSize).toEqual({ width: 300, height: 200 });
  });
});

describe('downscaleSize', () => {
  it('leaves images up to 2000 px on the longest side alone', () => {
    expect(downscaleSize(2000, 1200)).toEqual({ width: 2000, height: 1200, scaled: false });
    expect(downscaleSize(640, 480)).toEqual({ width: 640, height: 480, scaled: false });
  });

  it('scales larger images down to 2000 px on the longest side, keeping the proportions', () => {
    expect(downscaleSize(4000, 3000)).toEqual({ width: 2000, height: 1500, scaled: true });
    expect(downscaleSize(1000, 5000)).toEqual({ width: 400, height: 2000, scaled: true });
    expect(downscaleSize(30000, 10)).toEqual({ width: 2000, height: 1, scaled: true });
  });
});

describe('initialCropBox', () => {
  const view = { x: 50, y: 20, width: 600, height: 400 };
  const defaults = normalizeCropOptions();

  it('covers 80 % of the image in view with a free ratio, centred', () => {
    const box = initialCropBox(view, { ...defaults, aspectRatio: null });
    expect(box).toEqual({ x: 50 + 60, y: 20 + 40, width: 480, height: 320 });
  });

  it('keeps a fixed ratio inside 80 % of the view', () => {
    const square = initialCropBox(view, defaults);
    expect(square.width).toBe(320);
    expect(square.height).toBe(320);
    expect(square.x + square.width / 2).toBe(view.x + view.width / 2);
    const wide = initialCropBox(view, { ...defaults, aspectRatio: 16 / 9 });
    expect(wide.width / wide.height).toBeCloseTo(16 / 9);
    expect(wide.width).toBeCloseTo(480);
  });

  it('uses the automatic crop size when given, shrunk to fit the view and the ratio', () => {
    expect(initialCropBox(view, { ...defaults, aspectRatio: null, autoCropSize: { width: 200, height: 100 } })).toMatchObject({ width: 200, height: 100 });
    expect(initialCropBox(view, { ...defaults, autoCropSize: { width: 300, height: 200 } })).toMatchObject({ width: 200, height: 200 });
    const huge = initialCropBox(view, { ...defaults, autoCropSize: { width: 5000, height: 5000 } });
    expect(huge).toMatchObject({ width: 400, height: 400, x: 150, y: 20 });
  });

  it('never starts below the minimum size when the image allows it', () => {
    const tiny = { x: 0, y: 0, width: 40, height: 40 };
    expect(initialCropBox(tiny, { ...defaults, minCropSize: { width: 36, height: 36 } })).toMatchObject({ width: 36, height: 36 });
    expect(initialCropBox(tiny, { ...defaults, minCropSize: { width: 100, height: 100 } })).toMatchObject({ width: 40, height: 40 });
  });
});

describe('isCropChangeAllowed', () => {
  const bounds = { x: 0, y: 0, width: 500, height: 300 };
  const min = { width: 10, height: 10 };
  const inside = { x: 100, y: 50, width: 100, height: 100 };

  it('allows boxes inside the image and at least the minimum size', () => {
    expect(isCropChangeAllowed(inside, { ...inside, x: 120 }, bounds, min)).toBe(true);
    expect(isCropChangeAllowed(null, { x: 0, y: 0, width: 500, height: 300 }, bounds, min)).toBe(true);
  });

  it('refuses boxes below the minimum size', () => {
    expect(isCropChangeAllowed(inside, { ...inside, width: 9 }, bounds, min)).toBe(false);
    expect(isCropChangeAllowed(inside, { ...inside, width: 30, height: 20 }, bounds, { width: 40, height: 10 })).toBe(false);
  });

  it('refuses moving or resizing a box out of the image', () => {
    expect(isCropChangeAllowed(inside, { ...inside, x: -20 }, bounds, min)).toBe(false);
    expect(isCropChangeAllowed(inside, { ...inside, width: 450 }, bounds, min)).toBe(false);
    expect(isCropChangeAllowed(null, { x: 450, y: 0, width: 100, height: 100 }, bounds, min)).toBe(false);
  });

  it('lets a box left outside (after zooming out) come back, but not go further out', () => {
    const outside = { x: -50, y: 0, width: 100, height: 100 };
    expect(isCropChangeAllowed(outside, { ...outside, x: -30 }, bounds, min)).toBe(true);
    expect(isCropChangeAllowed(outside, { ...outside, x: -60 }, bounds, min)).toBe(false);
  });
});

describe('cropOutputSize', () => {
  it('crops at the image resolution: view pixels divided by the display scale', () => {
    expect(cropOutputSize({ width: 300, height: 300 }, 0.5)).toEqual({ width: 600, height: 600 });
    expect(cropOutputSize({ width: 300, height: 150 }, 1)).toEqual({ width: 300, height: 150 });
  });

  it('never exceeds 2000 px on the longest side nor falls below 1 px', () => {
    expect(cropOutputSize({ width: 400, height: 200 }, 0.1)).toEqual({ width: 2000, height: 1000 });
    expect(cropOutputSize({ width: 0.2, height: 0.2 }, 1)).toEqual({ width: 1, height: 1 });
    expect(cropOutputSize({ width: 100, height: 100 }, 0)).toEqual({ width: 100, height: 100 });
  });
});
