import type { Translate } from './i18n.ts';

const MM_PER_INCH = 25.4;

/** A board's size in millimetres and inches, as the electronics page and the project page show it: `65.0 × 56.5 mm (2.56 × 2.22 in)`. */
export function boardSizeText(widthMm: number, heightMm: number, t: Translate): string {
  return t('eda.facts.sizeValue', {
    width: widthMm.toFixed(1),
    height: heightMm.toFixed(1),
    widthIn: (widthMm / MM_PER_INCH).toFixed(2),
    heightIn: (heightMm / MM_PER_INCH).toFixed(2),
  });
}
