/**
 * A "next version" of the demo Sangaboard for the version tests: the same Gerber set with some
 * top-copper pads moved 3 mm to the right (copper removed where they were, added where they
 * are), and its BOM edited (`tests/fixtures/eda/versions/`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOARD_FIXTURES, loadBoard, makeZip, zipBoard } from './board-fixtures.ts';

const VERSION_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/eda/versions');

/** Pads (flashes) of the top copper moved, out of its first flashes. */
const MOVED_PADS = 24;
/** 3 mm in the file's format (`%FSLAX46Y46*%`, mm: six decimals). */
const SHIFT = 3_000_000;

/** The Sangaboard v0.4 Gerbers as a zip (`v1`). */
export const sangaboardZip = () => zipBoard('kicad-sanga04');

/** The Sangaboard with `MOVED_PADS` top-copper pads moved right, as a zip (`v1.1`). */
export async function sangaboardMovedPadsZip(): Promise<Uint8Array> {
  const files = loadBoard('kicad-sanga04').map((file) => {
    if (!file.name.endsWith('F_Cu.gtl')) return file;
    let moved = 0;
    const text = Buffer.from(file.bytes)
      .toString('latin1')
      .replace(/^X(-?\d+)Y(-?\d+)D03\*$/gm, (line, x: string, y: string) => (moved++ < MOVED_PADS ? `X${Number(x) + SHIFT}Y${y}D03*` : line));
    return { name: file.name, bytes: new Uint8Array(Buffer.from(text, 'latin1')) };
  });
  return makeZip(files.map((file) => ({ name: `gerbers/${file.name}`, bytes: file.bytes })));
}

/** The Sangaboard's JLC BOM (`v1`) and its edited next version (`v1.1`). */
export const sangaBom = () => new Uint8Array(readFileSync(path.join(BOARD_FIXTURES, 'bom/sanga-bom_jlc.csv')));
export const sangaBomNext = () => new Uint8Array(readFileSync(path.join(VERSION_FIXTURES, 'sanga-bom_jlc-v1.1.csv')));
