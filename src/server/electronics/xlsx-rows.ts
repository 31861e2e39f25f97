/**
 * The rows of the first sheet of an XLSX workbook, as strings, read with read-excel-file. An
 * XLSX file is a zip: before anything is inflated, the archive's own directory must promise a
 * reasonable number of entries and uncompressed bytes, so a small workbook cannot unpack into
 * gigabytes (a zip bomb posing as a BOM).
 */
import { readSheet } from 'read-excel-file/node';

/**
 * Entries and uncompressed bytes a BOM workbook may declare: a 5,000-line BOM is a few MB of XML,
 * and the sheet is parsed on the job worker's main thread, so a larger one would hold it up.
 */
const MAX_ENTRIES = 500;
const MAX_UNCOMPRESSED_BYTES = 8 * 1024 * 1024;

/** True when the bytes start like a zip archive (XLSX, ODS). */
export function isZipArchive(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * Whether the zip's central directory stays within the limits: entry count, the sum of declared
 * uncompressed sizes, and no ZIP64 (whose sizes do not fit these fields; no BOM needs it).
 */
export function zipWithinLimits(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return false;
  const entries = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || offset === 0xffffffff || entries > MAX_ENTRIES) return false;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) return false;
    const size = view.getUint32(offset + 24, true);
    if (size === 0xffffffff) return false;
    total += size;
    if (total > MAX_UNCOMPRESSED_BYTES) return false;
    offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return true;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  return String(value);
}

/** The first sheet's rows as strings; null when the workbook is refused or does not read. */
export async function readXlsxRows(bytes: Uint8Array, maxRows: number, maxColumns: number): Promise<string[][] | null> {
  if (!zipWithinLimits(bytes)) return null;
  try {
    const data = await readSheet(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return data.slice(0, maxRows).map((row) => row.slice(0, maxColumns).map(cellText));
  } catch {
    return null;
  }
}
