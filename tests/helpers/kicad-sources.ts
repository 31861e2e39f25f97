import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeZip } from './board-fixtures.ts';

/** The public KiCad design sources of the tests (see tests/fixtures/eda/SOURCES.md). */
export const KICAD_SOURCES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/eda/kicad-sources');

/** Every file of a fixture project, by its path inside the project folder. */
export function projectFiles(name: string): { name: string; bytes: Uint8Array }[] {
  const folder = path.join(KICAD_SOURCES, name);
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(path.join(folder, file)).isFile())
    .sort()
    .map((file) => ({ name: file, bytes: new Uint8Array(readFileSync(path.join(folder, file))) }));
}

/** The project folder zipped as a member would: inside a folder of its own, `folder/…`. */
export const zipProject = (name: string, folder = name) => makeZip(projectFiles(name).map((file) => ({ name: `${folder}/${file.name}`, bytes: file.bytes })));

/**
 * The board's size from its `.kicad_pcb` itself: the box around every point (start, mid, end) of
 * the lines, arcs and rectangles drawn on Edge.Cuts — read independently of kicad-cli.
 */
export function outlineOf(pcb: string): { widthMm: number; heightMm: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const shape of pcb.matchAll(/\(gr_(?:line|arc|rect)\s((?:(?!\(gr_)[\s\S])*?)\(layer "Edge\.Cuts"\)/g)) {
    for (const point of shape[1]!.matchAll(/\((?:start|mid|end) (-?[\d.]+) (-?[\d.]+)\)/g)) {
      xs.push(Number(point[1]));
      ys.push(Number(point[2]));
    }
  }
  return { widthMm: Math.max(...xs) - Math.min(...xs), heightMm: Math.max(...ys) - Math.min(...ys) };
}
