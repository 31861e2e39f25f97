/**
 * The four real boards of the demo projects in `seed/demo/eda/` (see its SOURCES.md) as Gerber sets, and
 * zips made from sets in memory, for the electronics tests and the board bench.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { SourceFile } from '../../src/server/electronics/errors.ts';

export const BOARD_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../seed/demo/eda');

export const BOARD_NAMES = ['altium-bga24', 'eagle-snapper', 'kicad-rrf', 'kicad-sanga04'] as const;
export type BoardName = (typeof BOARD_NAMES)[number];

/** The files of a fixture board, named as in its folder. */
export function loadBoard(name: BoardName): SourceFile[] {
  const folder = path.join(BOARD_FIXTURES, name);
  return readdirSync(folder)
    .sort()
    .map((file) => ({ name: file, bytes: new Uint8Array(readFileSync(path.join(folder, file))) }));
}

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
  mode?: number;
  /** False stores the entry as is (no deflate): a large entry whose ratio is no reason to refuse it. */
  compress?: boolean;
}

/** A zip of `entries`, built in memory with yazl (deflated unless an entry says otherwise). */
export function makeZip(entries: ZipEntry[], directories: string[] = []): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const directory of directories) zip.addEmptyDirectory(directory);
  for (const entry of entries) {
    zip.addBuffer(Buffer.from(entry.bytes), entry.name, { ...(entry.mode === undefined ? {} : { mode: entry.mode }), ...(entry.compress === undefined ? {} : { compress: entry.compress }) });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
  });
}

/**
 * Rewrites every occurrence of an entry name in a zip's headers (local and central) with another
 * of the same length: how hostile names that yazl refuses to write (`../x`, `/x`) are made.
 */
export function renameInZip(zip: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error('names must have the same length');
  const bytes = Buffer.from(zip);
  const needle = Buffer.from(from);
  for (let index = bytes.indexOf(needle); index >= 0; index = bytes.indexOf(needle, index + 1)) Buffer.from(to).copy(bytes, index);
  return new Uint8Array(bytes);
}

/**
 * Visits each entry of a zip with the offsets of its central-directory record and its local
 * header (found through the end-of-central-directory record), so tests can forge header fields.
 */
export function eachZipEntry(zip: Uint8Array, visit: (view: DataView, central: number, local: number) => void) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('no end of central directory');
  const count = view.getUint16(end + 10, true);
  let central = view.getUint32(end + 16, true);
  for (let index = 0; index < count; index += 1) {
    const local = view.getUint32(central + 42, true);
    visit(view, central, local);
    central += 46 + view.getUint16(central + 28, true) + view.getUint16(central + 30, true) + view.getUint16(central + 32, true);
  }
}

/** The entry names of a zip, in its order (read with yauzl, as the site reads zips). */
export function zipEntryNames(zip: Uint8Array): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(zip), { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/** A fixture board zipped as a maker would upload it, every file under `folder/` (a nested zip). */
export function zipBoard(name: BoardName, folder = 'gerbers', keep: (file: string) => boolean = () => true): Promise<Uint8Array> {
  return makeZip(
    loadBoard(name)
      .filter((file) => keep(file.name))
      .map((file) => ({ name: `${folder}/${file.name}`, bytes: file.bytes })),
  );
}
