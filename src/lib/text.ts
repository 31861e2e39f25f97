/** Plain-text helpers shared by the server and the islands. */

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/**
 * The number of characters as a reader counts them (grapheme clusters): `👍🏽` and `é` written as
 * `e` + accent are one character each, a Chinese character is one.
 */
export function countCharacters(text: string): number {
  if (!segmenter) return [...text].length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}

/**
 * User-written plain text as it is stored: Windows and old Mac line ends become `\n`, trailing
 * spaces on lines and runs of more than two blank lines go, and so does surrounding whitespace.
 */
export function normalizePlainText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{4,}/g, '\n\n\n')
    .trim();
}

/** A one-line excerpt of at most `max` characters (graphemes), with an ellipsis when cut. */
export function excerptOf(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!segmenter) {
    const chars = [...flat];
    return chars.length > max ? `${chars.slice(0, max - 1).join('').trimEnd()}…` : flat;
  }
  let out = '';
  let count = 0;
  for (const { segment } of segmenter.segment(flat)) {
    if (count === max - 1) {
      return countCharacters(flat) > max ? `${out.trimEnd()}…` : flat;
    }
    out += segment;
    count += 1;
  }
  return out;
}
