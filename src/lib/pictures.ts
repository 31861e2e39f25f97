/** Pictures the upload endpoint takes (it checks their content again): every picture picker's `accept`. */
export const PICTURE_TYPES = 'image/jpeg,image/png,image/webp,image/gif';
/** The largest picture the upload endpoint takes; a larger one is refused before it is sent. */
export const PICTURE_MAX_BYTES = 10 * 1024 * 1024;
