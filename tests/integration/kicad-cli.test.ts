import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KICAD_LIMITS, kicadCliPath, kicadCliVersion, runKicadCli } from '../../src/server/electronics/kicad-cli.ts';
import { identifyLayers } from '../../src/server/electronics/layers.ts';
import { processGerberSet } from '../../src/server/electronics/process-board.ts';
import { ToolTimeout } from '../../src/server/media/run-tool.ts';

/**
 * `kicad-cli` on members' design sources: the real KiCad 9 (`scripts/install-kicad.sh`) on a real
 * public board, and the box every run is in, tried with a stand-in program that does what a
 * hostile file could make KiCad do (read the environment, loop, write without end, hang).
 */
const SOURCE = path.resolve(import.meta.dirname, '../fixtures/eda/kicad-sources/rrf-kicad6');
const scratches: string[] = [];

/** A scratch folder as the job makes one, with the source's files copied in. */
function scratchWith(files: string | null): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'copperhub-kicad-test-'));
  scratches.push(folder);
  if (files) cpSync(files, folder, { recursive: true });
  return folder;
}

/** A program standing in for kicad-cli: a shell script that runs `body`. */
function standIn(body: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'copperhub-kicad-standin-'));
  scratches.push(folder);
  chmodSync(folder, 0o755);
  const file = path.join(folder, 'kicad-cli');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

afterEach(() => {
  for (const folder of scratches.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('KiCad 9’s documentation layers', () => {
  it('are named as what they are (courtyard, fab, adhesive, margin, user), on their side, beside paste and copper', async () => {
    const scratch = scratchWith(SOURCE);
    const board = path.join(scratch, 'rrf_rpi_skr_adapter.kicad_pcb');
    const layers = 'F.Cu,B.Cu,F.Paste,B.Paste,F.Courtyard,B.Courtyard,F.Fab,B.Fab,F.Adhesive,Margin,User.1,User.Drawings,User.Comments,User.Eco1,Edge.Cuts';
    expect((await runKicadCli(['pcb', 'export', 'gerbers', '-o', 'fab/', '-l', layers, board], scratch)).code).toBe(0);
    const fab = path.join(scratch, 'fab');
    const files = readdirSync(fab).map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(fab, name))) }));
    const named = Object.fromEntries(identifyLayers(files).layers.map((layer) => [layer.filename.replace('rrf_rpi_skr_adapter-', ''), [layer.type, layer.side, layer.purpose]]));
    expect(named).toMatchObject({
      'F_Cu.gtl': ['copper', 'top', null],
      'F_Paste.gtp': ['solderpaste', 'top', null],
      'B_Paste.gbp': ['solderpaste', 'bottom', null],
      'F_Courtyard.gbr': ['drawing', 'top', 'courtyard'],
      'B_Courtyard.gbr': ['drawing', 'bottom', 'courtyard'],
      'F_Fab.gbr': ['drawing', 'top', 'fab'],
      'B_Fab.gbr': ['drawing', 'bottom', 'fab'],
      'F_Adhesive.gta': ['drawing', 'top', 'adhesive'],
      'Margin.gbr': ['drawing', 'all', 'margin'],
      'User_1.gbr': ['drawing', 'all', 'user'],
      'User_Drawings.gbr': ['drawing', 'all', 'drawings'],
      'User_Comments.gbr': ['drawing', 'all', 'comments'],
      'User_Eco1.gbr': ['drawing', 'all', 'eco'],
      'Edge_Cuts.gm1': ['outline', 'all', null],
    });
  });
});

describe('kicad-cli on a KiCad design source', () => {
  it('is installed, version 9 or later', async () => {
    expect(kicadCliPath()).not.toBeNull();
    const version = await kicadCliVersion(scratchWith(null));
    expect(Number(version?.split('.')[0])).toBeGreaterThanOrEqual(9);
  });

  it('makes Gerbers and a drill file that render as the same board as its KiCad 6 export, and the schematic as SVG, inside the scratch folder', async () => {
    const scratch = scratchWith(SOURCE);
    const board = path.join(scratch, 'rrf_rpi_skr_adapter.kicad_pcb');
    expect((await runKicadCli(['pcb', 'export', 'gerbers', '-o', 'fab/', board], scratch)).code).toBe(0);
    expect((await runKicadCli(['pcb', 'export', 'drill', '-o', 'fab/', board], scratch)).code).toBe(0);
    expect((await runKicadCli(['sch', 'export', 'svg', '-o', 'sheets/', 'rrf_rpi_skr_adapter.kicad_sch'], scratch)).code).toBe(0);

    const fab = path.join(scratch, 'fab');
    const files = readdirSync(fab).map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(fab, name))) }));
    const rendered = await processGerberSet({ files });
    expect(rendered.layerCount).toBe(2);
    expect(Math.abs(rendered.widthMm - 17.53)).toBeLessThan(0.1);
    expect(Math.abs(rendered.heightMm - 13.72)).toBeLessThan(0.1);
    expect(readdirSync(path.join(scratch, 'sheets'))).toEqual(['rrf_rpi_skr_adapter.svg']);
    expect(readFileSync(path.join(scratch, 'sheets', 'rrf_rpi_skr_adapter.svg'), 'utf8')).toMatch(/^<\?xml[\s\S]*<svg/);
    // KiCad kept its settings in the scratch folder's own HOME, not the site's.
    expect(existsSync(path.join(scratch, '.home'))).toBe(true);
  });
});

/** What `kicad-cli` 9.0.8 measures on each design-source fixture (tests/fixtures/eda/SOURCES.md). */
const FIXTURES = [
  { folder: 'rrf-kicad6', base: 'rrf_rpi_skr_adapter', saved: 6, sheets: 1, copper: 2, sizeMm: [17.626, 13.816], bomLines: 7, erc: [1, 25], drc: [0, 24] },
  { folder: 'bitaxe-ultra-kicad7', base: 'bitaxeUltra', saved: 7, sheets: 5, copper: 4, sizeMm: [56.643, 99.862], bomLines: 87, erc: [37, 770], drc: [3, 2] },
  { folder: 'ferrit-m8-kicad8', base: 'sxa', saved: 8, sheets: 1, copper: 4, sizeMm: [27.8, 72.05], bomLines: 30, erc: [9, 89], drc: [0, 30] },
  // kicad-cli 9.0.8 crashes on this board's DRC with schematic parity (SOURCES.md): the crash must come back as a failed run.
  { folder: 'primecam-bias-kicad9', base: 'primecamLNABiasPotVreg_2ch', saved: 9, sheets: 3, copper: 4, sizeMm: [26.87, 119.58], bomLines: 70, erc: [14, 104], drc: null },
] as const;

type Report = { violations?: { severity: string }[]; unconnected_items?: { severity: string }[]; schematic_parity?: { severity: string }[]; sheets?: { violations: { severity: string }[] }[] };
/** Errors and warnings of a DRC or ERC report, as KiCad counts them. */
function countBySeverity(report: Report): [number, number] {
  const items = [...(report.violations ?? []), ...(report.unconnected_items ?? []), ...(report.schematic_parity ?? []), ...(report.sheets ?? []).flatMap((sheet) => sheet.violations)];
  return [items.filter((item) => item.severity === 'error').length, items.filter((item) => item.severity === 'warning').length];
}

describe.each(FIXTURES)('a design source saved by KiCad $saved ($folder)', (fixture) => {
  it('becomes its board, every schematic sheet, its BOM and its design checks', async () => {
    const scratch = scratchWith(path.resolve(import.meta.dirname, '../fixtures/eda/kicad-sources', fixture.folder));
    const board = `${fixture.base}.kicad_pcb`;
    const schematic = `${fixture.base}.kicad_sch`;
    expect((await runKicadCli(['pcb', 'export', 'gerbers', '-o', 'fab/', board], scratch)).code).toBe(0);
    expect((await runKicadCli(['pcb', 'export', 'drill', '-o', 'fab/', board], scratch)).code).toBe(0);
    const fab = path.join(scratch, 'fab');
    const rendered = await processGerberSet({ files: readdirSync(fab).map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(fab, name))) })) });
    expect(rendered.layerCount).toBe(fixture.copper);
    // The job file's size includes the outline's line width (0.05 to 0.2 mm); the render measures inside it.
    expect(fixture.sizeMm[0] - rendered.widthMm).toBeGreaterThanOrEqual(0);
    expect(fixture.sizeMm[0] - rendered.widthMm).toBeLessThan(0.25);
    expect(fixture.sizeMm[1] - rendered.heightMm).toBeGreaterThanOrEqual(0);
    expect(fixture.sizeMm[1] - rendered.heightMm).toBeLessThan(0.25);

    expect((await runKicadCli(['sch', 'export', 'svg', '-o', 'sheets/', schematic], scratch)).code).toBe(0);
    expect(readdirSync(path.join(scratch, 'sheets')).filter((name) => name.endsWith('.svg'))).toHaveLength(fixture.sheets);
    expect((await runKicadCli(['sch', 'export', 'bom', '-o', 'bom.csv', schematic], scratch)).code).toBe(0);
    expect(readFileSync(path.join(scratch, 'bom.csv'), 'utf8').trim().split('\n').length - 1).toBe(fixture.bomLines);

    expect((await runKicadCli(['sch', 'erc', '--format', 'json', '-o', 'erc.json', schematic], scratch)).code).toBe(0);
    expect(countBySeverity(JSON.parse(readFileSync(path.join(scratch, 'erc.json'), 'utf8')) as Report)).toEqual(fixture.erc);
    const drc = await runKicadCli(['pcb', 'drc', '--format', 'json', '--schematic-parity', '-o', 'drc.json', board], scratch);
    if (fixture.drc) {
      expect(drc.code).toBe(0);
      expect(countBySeverity(JSON.parse(readFileSync(path.join(scratch, 'drc.json'), 'utf8')) as Report)).toEqual(fixture.drc);
    } else {
      expect(drc).toMatchObject({ code: null, signal: 'SIGSEGV' });
      expect(existsSync(path.join(scratch, 'drc.json'))).toBe(false);
    }
  }, 60_000);
});

describe('the box every kicad-cli run is in', () => {
  it('gives the run none of the site’s environment, an empty HOME in the scratch folder, and the scratch folder as its working folder', async () => {
    process.env.COPPERHUB_TEST_SECRET = 'must-not-leak';
    const scratch = scratchWith(null);
    const result = await runKicadCli([], scratch, { command: standIn('env; echo "cwd=$(pwd)"; ls -A "$HOME" | wc -l') });
    delete process.env.COPPERHUB_TEST_SECRET;
    expect(result.stdout).not.toContain('must-not-leak');
    expect(result.stdout).not.toMatch(/DATABASE_URL|S3_|SECRET/);
    expect(result.stdout).toContain(`HOME=${path.join(scratch, '.home')}`);
    expect(result.stdout).toContain(`cwd=${scratch}`);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('0');
  });

  it('runs under the kernel limits, and as an unprivileged user when the site runs as root', async () => {
    const result = await runKicadCli([], scratchWith(null), { command: standIn('id -u; ulimit -t; ulimit -v; ulimit -f; ulimit -n') });
    const [uid, cpu, memoryKb, fileBlocks, files] = result.stdout.trim().split('\n');
    if (process.getuid?.() === 0) expect(uid).not.toBe('0');
    expect(Number(cpu)).toBe(KICAD_LIMITS.cpuSeconds);
    expect(Number(memoryKb) * 1024).toBe(KICAD_LIMITS.addressSpaceBytes);
    // `ulimit -f` counts 512-byte blocks in dash.
    expect(Number(fileBlocks) * 512).toBe(KICAD_LIMITS.fileSizeBytes);
    expect(Number(files)).toBe(KICAD_LIMITS.openFiles);
  });

  it('cannot write outside its scratch folder when the site runs as root', async () => {
    if (process.getuid?.() !== 0) return;
    const outside = mkdtempSync(path.join(os.tmpdir(), 'copperhub-kicad-outside-'));
    scratches.push(outside);
    chmodSync(outside, 0o755);
    const scratch = scratchWith(null);
    const result = await runKicadCli([], scratch, { command: standIn(`echo inside > inside.txt; echo outside > ${outside}/outside.txt`) });
    expect(result.code).not.toBe(0);
    expect(existsSync(path.join(scratch, 'inside.txt'))).toBe(true);
    expect(existsSync(path.join(outside, 'outside.txt'))).toBe(false);
  });

  it('kills a run that hangs past its time', async () => {
    const started = Date.now();
    await expect(runKicadCli([], scratchWith(null), { command: standIn('exec sleep 30'), timeoutMs: 500 })).rejects.toBeInstanceOf(ToolTimeout);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops a file that grows past its size limit', async () => {
    const scratch = scratchWith(null);
    const limit = KICAD_LIMITS.fileSizeBytes!;
    const result = await runKicadCli([], scratch, { command: standIn(`head -c ${limit + 1024 * 1024} /dev/zero > big.bin`) });
    expect(result.code === 0 && result.signal === null).toBe(false);
    expect(readFileSync(path.join(scratch, 'big.bin')).byteLength).toBeLessThanOrEqual(limit);
  });
});
