/**
 * Turns the bytes of a BOM or placement file into text. CAD tools and spreadsheets write these
 * tables in several encodings: UTF-8 with or without a byte-order mark, UTF-16 (EasyEDA exports
 * UTF-16LE), and the Windows code page of the machine that saved them (GB18030 when Excel saves a
 * CSV on a Chinese system, Windows-1252 on a Western one).
 */

/** Share of control characters (other than tab, CR, LF) above which bytes are not a text table. */
const MAX_CONTROL_SHARE = 0.01;

function tryDecode(encoding: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** UTF-16 without a byte-order mark shows itself by a zero byte in every other position. */
function utf16WithoutMark(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length - (bytes.length % 2), 512);
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.9 && evenZeros === 0) return 'utf-16le';
  if (evenZeros > pairs * 0.9 && oddZeros === 0) return 'utf-16be';
  return null;
}

/**
 * The text of a table file, or null when the bytes are not text (binary, or mostly control
 * characters). Never throws.
 */
export function decodeTableText(bytes: Uint8Array): string | null {
  let text: string | null;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) text = tryDecode('utf-8', bytes.subarray(3));
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) text = tryDecode('utf-16le', bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = tryDecode('utf-16be', bytes.subarray(2));
  else {
    const utf16 = utf16WithoutMark(bytes);
    text = utf16 ? tryDecode(utf16, bytes) : (tryDecode('utf-8', bytes) ?? tryDecode('gb18030', bytes) ?? tryDecode('windows-1252', bytes));
  }
  if (text === null) return null;
  text = text.replace(/^\uFEFF/, '');
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 9 && code !== 10 && code !== 13) || code === 0x7f || code === 0xfffd) controls++;
  }
  return controls > text.length * MAX_CONTROL_SHARE ? null : text;
}
