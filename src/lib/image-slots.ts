import type { Variant } from './paths.ts';

/** Where and how large an image is shown: the box's width and height (its ratio) and `sizes`. */
export interface ImageSlot {
  /** The box in CSS pixels at its largest: the `<img>`'s width and height, space kept before it loads. */
  width: number;
  height: number;
  /** The `sizes` attribute: the image's CSS width at each viewport width. */
  sizes: string;
}

/**
 * Every place a stored picture is shown, with the widths the CSS gives it (`global.css`,
 * `projects.css`, `mobile.css`), desktop and `/m` apart. A size a little too large only costs a
 * larger variant; one too small a blurry picture, so these round up. Keep them beside the CSS
 * they follow: a change there is a change here.
 */
const SLOTS = {
  /** `.grid` of cards: `minmax(250px, 1fr)` columns in a container of at most 1200 px; two columns on `/m`. */
  card: {
    width: 400,
    height: 300,
    desktop: '(max-width: 549px) calc(100vw - 2rem), (max-width: 817px) calc(50vw - 1.6rem), (max-width: 1085px) calc(33vw - 1.4rem), 290px',
    mobile: 'calc(50vw - 1.1rem)',
  },
  /** The project page's main picture: three quarters of the container beside the side card, all of it below 900 px. */
  galleryMain: {
    width: 800,
    height: 600,
    desktop: '(max-width: 900px) calc(100vw - 2rem), (max-width: 1232px) calc(75vw - 2.5rem), 882px',
    mobile: 'calc(100vw - 1.6rem)',
  },
  /** The gallery's thumbnails (88x66). */
  galleryThumb: { width: 88, height: 66, desktop: '88px', mobile: '88px' },
  /** The home page's banner: the container's width. */
  banner: {
    width: 1200,
    height: 360,
    desktop: '(max-width: 1232px) calc(100vw - 2rem), 1200px',
    mobile: 'calc(100vw - 1.6rem)',
  },
  /** A collection page's cover: 240 px, the card's width below 760 px. */
  collectionCover: { width: 240, height: 180, desktop: '(max-width: 760px) calc(100vw - 4rem), 240px', mobile: '(max-width: 760px) calc(100vw - 3.8rem), 240px' },
  /** The home page's collection cards (96x72). */
  collectionThumb: { width: 96, height: 72, desktop: '96px', mobile: '96px' },
  /** A make's photos: two or three side by side in a panel (`.make-photos-grid`), one per row below 560 px. */
  make: { width: 360, height: 270, desktop: '(max-width: 559px) calc(100vw - 4rem), 360px', mobile: 'calc(100vw - 3.6rem)' },
  /** The cover on the page after publishing. */
  successCover: { width: 320, height: 240, desktop: '320px', mobile: '320px' },
} as const;

export type ImageSlotName = keyof typeof SLOTS;

/** The slot `name` as the `variant` of a page lays it out. */
export function imageSlot(name: ImageSlotName, variant: Variant): ImageSlot {
  const slot = SLOTS[name];
  return { width: slot.width, height: slot.height, sizes: slot[variant] };
}
