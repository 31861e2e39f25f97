import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KICAD_LIMITS, kicadCliPath, kicadCliVersion, runKicadCli } from '../../src/server/electronics/kicad-cli.ts';
import { processGerberSet } from '../../src/server/electronics/process-board.ts';
import { ToolTimeout } from '../../src/server/media/run-tool.ts';

/**
 * `kicad-cli` on members' design sources: the real KiCad 9 (`scripts/install-kicad.sh`) on a real
 * public board, and the box every run is in, tried with a stand-in program that does what a
 * hostile file could make KiCad do (read the environment, loop, write without end, hang).
 */
const SOURCE = path.resolve(import.meta.dirname, '../fixtures/eda/kicad-rrf-source');
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

  it('checks the design: DRC with schematic parity reports the violations KiCad finds', async () => {
    const scratch = scratchWith(SOURCE);
    const result = await runKicadCli(['pcb', 'drc', '--format', 'json', '--schematic-parity', '-o', 'drc.json', 'rrf_rpi_skr_adapter.kicad_pcb'], scratch);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(path.join(scratch, 'drc.json'), 'utf8')) as { violations: { severity: string; type: string }[]; schematic_parity: unknown[] };
    // tests/fixtures/eda/SOURCES.md: 21 violations and 3 parity issues with kicad-cli 9.0.8.
    expect(report.violations).toHaveLength(21);
    expect(report.schematic_parity).toHaveLength(3);
    expect(report.violations.map((violation) => violation.type)).toContain('silk_edge_clearance');
  });
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
