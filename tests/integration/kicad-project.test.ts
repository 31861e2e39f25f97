import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runKicadCli } from '../../src/server/electronics/kicad-cli.ts';
import { layOutSource } from '../../src/server/electronics/kicad-project.ts';
import { makeZip, type ZipEntry } from '../helpers/board-fixtures.ts';

/**
 * A laid-out design source is one `kicad-cli` works in: the real KiCad 9 (scripts/install-kicad.sh)
 * run in the project's folder, with the paths `layOutSource` gives, as the design-source job runs it.
 */
const BITAXE = path.resolve(import.meta.dirname, '../fixtures/eda/kicad-sources/bitaxe-ultra-kicad7');
const scratches: string[] = [];

function scratchFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'copperhub-layout-kicad-'));
  scratches.push(folder);
  return folder;
}

function filesIn(folder: string, prefix = ''): ZipEntry[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesIn(path.join(folder, entry.name), `${prefix}${entry.name}/`) : [{ name: `${prefix}${entry.name}`, bytes: new Uint8Array(readFileSync(path.join(folder, entry.name))) }],
  );
}

afterEach(() => {
  for (const folder of scratches.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const svgs = (folder: string) => readdirSync(path.join(folder, 'sheets')).filter((name) => name.endsWith('.svg'));

describe('kicad-cli in a laid-out design source', () => {
  it('exports every sheet of the KiCad 7 hierarchy, zipped in nested folders with its project-local libraries', async () => {
    const zip = await makeZip(filesIn(BITAXE).map((file) => ({ name: `bitaxe-main/hardware/${file.name}`, bytes: file.bytes })));
    const project = await layOutSource({ zip, name: 'bitaxe-main.zip' }, scratchFolder());
    expect(project.sch).toBe('bitaxeUltra.kicad_sch');
    const result = await runKicadCli(['sch', 'export', 'svg', '-o', 'sheets/', project.sch!], project.folder);
    expect(result.code).toBe(0);
    // the root and its Power, ESP32, BM1366 and Fan sheets
    expect(svgs(project.folder)).toHaveLength(5);
  }, 60_000);

  it('exports a KiCad 5 schematic (.sch) and its sheet', async () => {
    const legacy = (sheets: string) =>
      new TextEncoder().encode(
        `EESchema Schematic File Version 4\nEELAYER 30 0\nEELAYER END\n$Descr A4 11693 8268\nencoding utf-8\nSheet 1 2\nTitle ""\nDate ""\nRev ""\nComp ""\nComment1 ""\nComment2 ""\nComment3 ""\nComment4 ""\n$EndDescr\n${sheets}Wire Wire Line\n\t1000 1000 2000 1000\n$EndSCHEMATC\n`,
      );
    const project = await layOutSource(
      {
        files: [
          { name: 'amp.sch', bytes: legacy('$Sheet\nS 2000 2000 1000 800 \nU 5F000001\nF0 "Power" 50\nF1 "power.sch" 50\n$EndSheet\n') },
          { name: 'power.sch', bytes: legacy('') },
        ],
      },
      scratchFolder(),
    );
    expect(project).toMatchObject({ sch: 'amp.sch', kicadVersion: '5' });
    expect((await runKicadCli(['sch', 'export', 'svg', '-o', 'sheets/', project.sch!], project.folder)).code).toBe(0);
    expect(svgs(project.folder).sort()).toEqual(['amp-Power.svg', 'amp.svg']);
  }, 60_000);
});
