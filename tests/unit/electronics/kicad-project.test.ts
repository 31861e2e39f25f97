import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KICAD_READS_UP_TO } from '../../../src/lib/contract/eda.ts';
import { layOutSource, MAX_SCHEMATIC_BYTES, MAX_SOURCE_FILES, SourceError, type SourceInput } from '../../../src/server/electronics/kicad-project.ts';
import { makeZip, renameInZip, type ZipEntry } from '../../helpers/board-fixtures.ts';

/**
 * Laying out members' KiCad design sources: the four real projects of tests/fixtures/eda/SOURCES.md
 * zipped and loose, small hand-written projects for the rules, and hostile sources. Each test lays
 * out into `scratch` inside a parent folder of its own, so anything written beside it shows.
 */
const SOURCES = path.resolve(import.meta.dirname, '../../fixtures/eda/kicad-sources');

const FIXTURES = [
  { folder: 'rrf-kicad6', name: 'rrf_rpi_skr_adapter', kicadVersion: '6' },
  { folder: 'bitaxe-ultra-kicad7', name: 'bitaxeUltra', kicadVersion: '7' },
  { folder: 'ferrit-m8-kicad8', name: 'sxa', kicadVersion: '8' },
  { folder: 'primecam-bias-kicad9', name: 'primecamLNABiasPotVreg_2ch', kicadVersion: '9' },
] as const;

let parent: string;
let scratch: string;

beforeEach(() => {
  parent = mkdtempSync(path.join(os.tmpdir(), 'copperhub-layout-'));
  scratch = path.join(parent, 'scratch');
});

afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
});

/** Every file under `folder`, named by its path inside it. */
function filesIn(folder: string, prefix = ''): ZipEntry[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) =>
      entry.isDirectory() ? filesIn(path.join(folder, entry.name), `${prefix}${entry.name}/`) : [{ name: `${prefix}${entry.name}`, bytes: new Uint8Array(readFileSync(path.join(folder, entry.name))) }],
    );
}

/** Every file and link under `folder`, with its size, by its path inside it. */
function written(folder: string): Array<{ name: string; size: number; link: boolean }> {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => ({ name, stat: lstatSync(path.join(folder, name)) }))
    .filter(({ stat }) => !stat.isDirectory())
    .map(({ name, stat }) => ({ name: name.split(path.sep).join('/'), size: stat.size, link: stat.isSymbolicLink() }));
}

async function refusal(input: SourceInput): Promise<SourceError> {
  const error = await layOutSource(input, scratch).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SourceError);
  // whatever the source held, nothing was written beside the scratch folder, and no link anywhere
  expect(readdirSync(parent).filter((name) => name !== 'scratch')).toEqual([]);
  expect(written(scratch).filter((file) => file.link)).toEqual([]);
  return error as SourceError;
}

const text = (value: string) => new TextEncoder().encode(value);

/** A schematic as KiCad 9 writes one, placing a sheet for each file name given. */
function schematic(sheets: string[] = [], version = 20250114, generator: string | null = '9.0'): Uint8Array {
  const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const placed = sheets.map(
    (file, index) =>
      `\t(sheet\n\t\t(at 50 ${50 + index * 30})\n\t\t(size 20 20)\n\t\t(uuid "00000000-0000-0000-0000-00000000000${index}")\n` +
      `\t\t(property "Sheetname" "Sheet${index}"\n\t\t\t(at 50 49 0)\n\t\t)\n\t\t(property "Sheetfile" ${quoted(file)}\n\t\t\t(at 50 71 0)\n\t\t)\n\t)\n`,
  );
  const generated = generator === null ? '' : `\t(generator_version ${quoted(generator)})\n`;
  return text(`(kicad_sch\n\t(version ${version})\n\t(generator "eeschema")\n${generated}\t(uuid "11111111-1111-1111-1111-111111111111")\n\t(paper "A4")\n\t(lib_symbols)\n${placed.join('')})\n`);
}

/** The head of a board as KiCad writes it (the rest is never read). */
function board(version: number, generator: string | null = null): Uint8Array {
  const host = version <= 20171130 ? ' (host pcbnew "(5.1.9)-1")' : ' (generator "pcbnew")';
  return text(`(kicad_pcb (version ${version})${host}${generator === null ? '' : ` (generator_version "${generator}")`}\n  (general\n    (thickness 1.6)\n  )\n)\n`);
}

/** A KiCad 5 schematic, placing a sheet for each file name given. */
function legacySchematic(sheets: string[] = []): Uint8Array {
  const placed = sheets.map((file, index) => `$Sheet\nS 2000 ${2000 + index * 1000} 1000 800 \nU 5F00000${index}\nF0 "Sub${index}" 50\nF1 "${file}" 50\n$EndSheet\n`);
  return text(`EESchema Schematic File Version 4\nEELAYER 30 0\nEELAYER END\n$Descr A4 11693 8268\nencoding utf-8\nSheet 1 1\nTitle ""\n$EndDescr\n${placed.join('')}Wire Wire Line\n\t1000 1000 2000 1000\n$EndSCHEMATC\n`);
}

const pro = text('{ "meta": { "filename": "x.kicad_pro", "version": 3 } }\n');

describe.each(FIXTURES)('a design source saved by KiCad $kicadVersion ($folder)', (fixture) => {
  const files = filesIn(path.join(SOURCES, fixture.folder));

  it('zipped inside nested folders, lands whole under the scratch folder, its project found in its own folder', async () => {
    const zip = await makeZip(
      [
        ...files.map((file) => ({ name: `uploads/${fixture.folder}/${file.name}`, bytes: file.bytes })),
        { name: `__MACOSX/uploads/${fixture.folder}/._${fixture.name}.kicad_pcb`, bytes: new Uint8Array([0, 5, 22, 7]) },
      ],
      ['uploads/', `uploads/${fixture.folder}/`],
    );
    const project = await layOutSource({ zip, name: `${fixture.folder}.zip` }, scratch);
    expect(project).toEqual({
      name: fixture.name,
      folder: path.join(scratch, 'uploads', fixture.folder),
      pcb: `${fixture.name}.kicad_pcb`,
      sch: `${fixture.name}.kicad_sch`,
      kicadVersion: fixture.kicadVersion,
    });
    // libraries and all, byte for byte; the zip's litter left out
    expect(written(scratch).map((file) => file.name).sort()).toEqual(files.map((file) => `uploads/${fixture.folder}/${file.name}`).sort());
    for (const file of files) expect(readFileSync(path.join(project.folder, file.name)).equals(Buffer.from(file.bytes))).toBe(true);
    expect(readdirSync(parent)).toEqual(['scratch']);
  });

  it('as loose files, lands side by side in the scratch folder itself', async () => {
    const loose = files.filter((file) => !file.name.includes('/'));
    const project = await layOutSource({ files: loose }, scratch);
    expect(project).toEqual({ name: fixture.name, folder: scratch, pcb: `${fixture.name}.kicad_pcb`, sch: `${fixture.name}.kicad_sch`, kicadVersion: fixture.kicadVersion });
    expect(written(scratch).map((file) => file.name).sort()).toEqual(loose.map((file) => file.name).sort());
  });
});

describe('finding the project', () => {
  it('keeps only the base name of a loose file, whatever folders its name carried', async () => {
    const project = await layOutSource(
      {
        files: [
          { name: 'C:\\Users\\maker\\amp\\amp.kicad_sch', bytes: schematic() },
          { name: '../../etc/amp.kicad_pcb', bytes: board(20241229, '9.0') },
          { name: '/home/maker/amp/amp.kicad_pro', bytes: pro },
        ],
      },
      scratch,
    );
    expect(project).toEqual({ name: 'amp', folder: scratch, pcb: 'amp.kicad_pcb', sch: 'amp.kicad_sch', kicadVersion: '9' });
    expect(written(scratch).map((file) => file.name).sort()).toEqual(['amp.kicad_pcb', 'amp.kicad_pro', 'amp.kicad_sch']);
  });

  it('takes the .kicad_pro nearest the root, ties by name, and passes over one with no design beside it', async () => {
    const zip = await makeZip([
      { name: 'repo/old/stray.kicad_pro', bytes: pro },
      { name: 'repo/hw/zeta/zeta.kicad_pro', bytes: pro },
      { name: 'repo/hw/zeta/zeta.kicad_pcb', bytes: board(20241229) },
      { name: 'repo/hw/alpha/alpha.kicad_pro', bytes: pro },
      { name: 'repo/hw/alpha/alpha.kicad_sch', bytes: schematic() },
      { name: 'repo/hw/alpha/alpha.kicad_pcb', bytes: board(20241229) },
      { name: 'repo/alpha-copy.kicad_pcb', bytes: board(20241229) },
    ]);
    const project = await layOutSource({ zip, name: 'repo.zip' }, scratch);
    expect(project).toEqual({ name: 'alpha', folder: path.join(scratch, 'repo/hw/alpha'), pcb: 'alpha.kicad_pcb', sch: 'alpha.kicad_sch', kicadVersion: '9' });
  });

  it('with no .kicad_pro, takes the board nearest the root and the schematic of its name', async () => {
    const zip = await makeZip([
      { name: 'b/deeper/other.kicad_pcb', bytes: board(20241229) },
      { name: 'a/amp.kicad_pcb', bytes: board(20240108, '8.0') },
      { name: 'a/amp.kicad_sch', bytes: schematic([], 20231120, '8.0') },
      { name: 'a/notes.kicad_sch', bytes: schematic() },
    ]);
    expect(await layOutSource({ zip, name: 'amp.zip' }, scratch)).toEqual({ name: 'amp', folder: path.join(scratch, 'a'), pcb: 'amp.kicad_pcb', sch: 'amp.kicad_sch', kicadVersion: '8' });
  });

  it('with a project whose schematic has another name, takes the one schematic in its folder', async () => {
    const zip = await makeZip([
      { name: 'p/renamed.kicad_pro', bytes: pro },
      { name: 'p/original.kicad_sch', bytes: schematic([], 20230121, null) },
    ]);
    expect(await layOutSource({ zip, name: 'p.zip' }, scratch)).toMatchObject({ name: 'renamed', pcb: null, sch: 'original.kicad_sch', kicadVersion: '7' });
  });

  it('with schematics only, takes the root of the hierarchy, not the sub-sheet first by name', async () => {
    // the KiCad 9 fixture's root places BiasCircuit.kicad_sch twice; "B" sorts before "p"
    const loose = filesIn(path.join(SOURCES, 'primecam-bias-kicad9')).filter((file) => file.name.endsWith('.kicad_sch'));
    expect(loose.map((file) => file.name).sort()[0]).toBe('BiasCircuit.kicad_sch');
    expect(await layOutSource({ files: loose }, scratch)).toEqual({
      name: 'primecamLNABiasPotVreg_2ch',
      folder: scratch,
      pcb: null,
      sch: 'primecamLNABiasPotVreg_2ch.kicad_sch',
      kicadVersion: '9',
    });
  });

  it('takes a KiCad 5 project: a legacy .sch root with its sheets and a 2017 board', async () => {
    const zip = await makeZip([
      { name: 'k5/amp.pro', bytes: text('update=22/05/2019\nversion=1\n') },
      { name: 'k5/amp.kicad_pcb', bytes: board(20171130) },
      { name: 'k5/amp.sch', bytes: legacySchematic(['power.sch']) },
      { name: 'k5/power.sch', bytes: legacySchematic() },
    ]);
    expect(await layOutSource({ zip, name: 'k5.zip' }, scratch)).toEqual({ name: 'amp', folder: path.join(scratch, 'k5'), pcb: 'amp.kicad_pcb', sch: 'amp.sch', kicadVersion: '5' });
  });

  it('resolves a sheet against its parent sheet’s folder, as KiCad does, and lets a missing sheet be', async () => {
    const zip = await makeZip([
      { name: 'amp/amp.kicad_pro', bytes: pro },
      { name: 'amp/amp.kicad_sch', bytes: schematic(['sheets/power.kicad_sch', 'gone.kicad_sch']) },
      { name: 'amp/sheets/power.kicad_sch', bytes: schematic(['../io.kicad_sch', 'rail.kicad_sch']) },
      { name: 'amp/sheets/rail.kicad_sch', bytes: schematic() },
      // reached only from sheets/power.kicad_sch as ../io.kicad_sch: its KiCad 8 version shows it was read
      { name: 'amp/io.kicad_sch', bytes: schematic([], 20231120, '8.0') },
    ]);
    const project = await layOutSource({ zip, name: 'amp.zip' }, scratch);
    expect(project).toMatchObject({ name: 'amp', sch: 'amp.kicad_sch', pcb: null, kicadVersion: '9' });
  });

  it('leaves out a .home folder of the source: kicad-cli’s HOME is its own', async () => {
    const zip = await makeZip([
      { name: 'amp/amp.kicad_sch', bytes: schematic() },
      { name: 'amp/.home/.config/kicad/9.0/kicad_common.json', bytes: text('{}') },
    ]);
    const project = await layOutSource({ zip, name: 'amp.zip' }, scratch);
    expect(project.sch).toBe('amp.kicad_sch');
    expect(written(scratch).map((file) => file.name)).toEqual(['amp/amp.kicad_sch']);
  });

  it('says no_project when no KiCad design is among the files (an EAGLE .sch is not one)', async () => {
    const zip = await makeZip([
      { name: 'eagle/amp.sch', bytes: text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE eagle SYSTEM "eagle.dtd">\n<eagle version="9.6.2"></eagle>\n') },
      { name: 'eagle/amp.brd', bytes: text('<?xml version="1.0"?>\n<eagle version="9.6.2"></eagle>\n') },
      { name: 'README.md', bytes: text('# amp\n') },
    ]);
    expect((await refusal({ zip, name: 'eagle.zip' })).key).toBe('no_project');
    expect((await refusal({ files: [{ name: 'fp-lib-table', bytes: text('(fp_lib_table)\n') }] })).key).toBe('no_project');
  });
});

describe('the KiCad that saved the files', () => {
  it.each([
    [20211123, '6'],
    [20220104, '7'], // a 6.99 development build
    [20230121, '7'],
    [20230620, '8'],
    [20231120, '8'],
    [20240620, '9'],
    [20250114, '9'],
  ])('a schematic of format %i is KiCad %s', async (version, major) => {
    const project = await layOutSource({ files: [{ name: 'x.kicad_sch', bytes: schematic([], version, null) }] }, scratch);
    expect(project.kicadVersion).toBe(major);
  });

  it.each([
    [4, '5'], // KiCad 4
    [20160815, '5'],
    [20171130, '5'],
    [20211014, '6'],
    [20221018, '7'],
    [20240108, '8'],
    [20241229, '9'],
  ])('a board of format %i is KiCad %s', async (version, major) => {
    const project = await layOutSource({ files: [{ name: 'x.kicad_pcb', bytes: board(version) }] }, scratch);
    expect(project.kicadVersion).toBe(major);
  });

  it('is the newest among the board and every sheet reached', async () => {
    const project = await layOutSource(
      {
        files: [
          { name: 'x.kicad_pcb', bytes: board(20221018) },
          { name: 'x.kicad_sch', bytes: schematic(['sub.kicad_sch'], 20230121, null) },
          { name: 'sub.kicad_sch', bytes: schematic([], 20231120, '8.0') },
          // not in the hierarchy: kicad-cli never loads it
          { name: 'unused.kicad_sch', bytes: schematic([], 20250114, '9.0') },
        ],
      },
      scratch,
    );
    expect(project.kicadVersion).toBe('8');
  });

  it('refuses a schematic saved by KiCad 10 as too_new, naming KiCad 10', async () => {
    const error = await refusal({ files: [{ name: 'x.kicad_sch', bytes: schematic([], 20260101, '10.0') }] });
    expect(error.key).toBe('too_new');
    expect(error.kicadVersion).toBe('10');
  });

  it('names the KiCad after the newest it reads when the file does not say which saved it', async () => {
    const board10 = await refusal({ files: [{ name: 'x.kicad_pcb', bytes: board(20250101) }] });
    expect([board10.key, board10.kicadVersion]).toEqual(['too_new', String(KICAD_READS_UP_TO + 1)]);
    rmSync(scratch, { recursive: true });
    // a 9.99 development build writes a format past 9's
    const nightly = await refusal({ files: [{ name: 'x.kicad_sch', bytes: schematic([], 20250115, '9.99') }] });
    expect([nightly.key, nightly.kicadVersion]).toEqual(['too_new', '10']);
  });

  it('refuses a source whose sub-sheet is too new, even under a root KiCad 9 reads', async () => {
    const error = await refusal({
      files: [
        { name: 'x.kicad_sch', bytes: schematic(['sub.kicad_sch']) },
        { name: 'sub.kicad_sch', bytes: schematic([], 20260101, '11.0') },
      ],
    });
    expect([error.key, error.kicadVersion]).toEqual(['too_new', '11']);
  });
});

describe('reading sheets', () => {
  it('reads only sheets’ Sheetfile, through strings holding quotes and parentheses, and KiCad 6’s "Sheet file"', async () => {
    const root = text(
      '(kicad_sch (version 20211123) (generator eeschema)\n' +
        '  (lib_symbols (symbol "x" (property "Sheetfile" "symbol-field.kicad_sch" (id 9))))\n' +
        '  (text "a \\"(sheet (property \\"Sheetfile\\" \\"quoted.kicad_sch\\"))\\" trick ))" (at 10 10 0))\n' +
        '  (sheet (at 50 50) (size 20 20)\n' +
        '    (property "Sheet name" "Power" (id 0) (at 50 49 0))\n' +
        '    (property "Sheet file" "power.kicad_sch" (id 1) (at 50 71 0))\n' +
        '  )\n' +
        ')\n',
    );
    // each file that is not a sheet would show if read: it is a loop back to the root
    const loop = schematic(['x.kicad_sch'], 20211123, null);
    const files = [
      { name: 'x.kicad_pro', bytes: pro },
      { name: 'x.kicad_sch', bytes: root },
      { name: 'symbol-field.kicad_sch', bytes: loop },
      { name: 'quoted.kicad_sch', bytes: loop },
      { name: 'power.kicad_sch', bytes: schematic([], 20230121, null) },
    ];
    expect(await layOutSource({ files }, scratch)).toMatchObject({ sch: 'x.kicad_sch', kicadVersion: '7' });
    rmSync(scratch, { recursive: true });
    // the same power sheet looping back proves it was the one read
    files[4] = { name: 'power.kicad_sch', bytes: loop };
    expect((await refusal({ files })).key).toBe('sheet_loop');
  });

  it('walks a sheet placed several times once (a multi-instance hierarchy is no loop)', async () => {
    const project = await layOutSource(
      {
        files: [
          { name: 'x.kicad_sch', bytes: schematic(['ch.kicad_sch', 'ch.kicad_sch', 'common.kicad_sch']) },
          { name: 'ch.kicad_sch', bytes: schematic(['common.kicad_sch']) },
          { name: 'common.kicad_sch', bytes: schematic() },
        ],
      },
      scratch,
    );
    expect(project.sch).toBe('x.kicad_sch');
  });
});

describe('hostile sources', () => {
  const sheet = schematic();

  it.each([
    ['a parent folder', 'xx/evil.kicad_sch', '../evil.kicad_sch'],
    ['a parent folder further in', 'pr/xx/xx/e.kicad_sch', 'pr/../../e.kicad_sch'],
    ['an absolute name', 'etc/x.kicad_sch', '/tc/x.kicad_sch'],
    ['a drive letter', 'Cx/evil.kicad_sch', 'C:/evil.kicad_sch'],
    ['a backslash', 'xx/evil.kicad_sch', '..\\evil.kicad_sch'],
  ])('refuses a zip entry with %s as unsafe_archive', async (_label, safe, hostile) => {
    const zip = renameInZip(await makeZip([{ name: 'amp/amp.kicad_sch', bytes: sheet }, { name: safe, bytes: sheet }]), safe, hostile);
    expect((await refusal({ zip, name: 'evil.zip' })).key).toBe('unsafe_archive');
  });

  it('refuses a symlink entry as unsafe_archive, and makes no link', async () => {
    const zip = await makeZip([
      { name: 'amp/amp.kicad_sch', bytes: sheet },
      { name: 'amp/power.kicad_sch', bytes: text('/etc/passwd'), mode: 0o120777 },
    ]);
    expect((await refusal({ zip, name: 'link.zip' })).key).toBe('unsafe_archive');
  });

  it('refuses two entries of one name, or a file where a folder is wanted, without overwriting', async () => {
    const twice = await makeZip([
      { name: 'amp/amp.kicad_sch', bytes: sheet },
      { name: 'amp/amp.kicad_sch', bytes: schematic(['/etc/passwd']) },
    ]);
    expect((await refusal({ zip: twice, name: 'twice.zip' })).key).toBe('unsafe_archive');
    expect(readFileSync(path.join(scratch, 'amp/amp.kicad_sch')).equals(Buffer.from(sheet))).toBe(true);
    rmSync(scratch, { recursive: true });
    const fileThenFolder = await makeZip([
      { name: 'amp', bytes: sheet },
      { name: 'amp/amp.kicad_sch', bytes: sheet },
    ]);
    expect((await refusal({ zip: fileThenFolder, name: 'clash.zip' })).key).toBe('unsafe_archive');
  });

  it.each([['..'], ['.'], [''], ['folder/']])('refuses a loose file named %j as unsafe_archive', async (name) => {
    expect((await refusal({ files: [{ name: 'amp.kicad_sch', bytes: sheet }, { name, bytes: sheet }] })).key).toBe('unsafe_archive');
  });

  it(`refuses more than ${MAX_SOURCE_FILES} entries before writing any`, async () => {
    const zip = await makeZip(Array.from({ length: MAX_SOURCE_FILES + 1 }, (_, n) => ({ name: `lib.pretty/f${n}.kicad_mod`, bytes: text('(footprint "x")\n') })));
    expect((await refusal({ zip, name: 'many.zip' })).key).toBe('archive_too_large');
    expect(written(scratch)).toEqual([]);
  });

  it('refuses a zip bomb as archive_too_large', async () => {
    const zip = await makeZip([{ name: 'amp/amp.kicad_pcb', bytes: new Uint8Array(60 * 2 ** 20) }]);
    expect(zip.byteLength).toBeLessThan(2 ** 20);
    expect((await refusal({ zip, name: 'bomb.zip' })).key).toBe('archive_too_large');
    expect(written(scratch)).toEqual([]);
  });

  it('refuses a 50 MB schematic fast, unread and unwritten, in a zip and loose', async () => {
    const size = 50 * 2 ** 20;
    const huge = Buffer.alloc(size, '\t(wire (pts (xy 0 0) (xy 1 1)))\n');
    Buffer.from(new TextDecoder().decode(schematic()).slice(0, -2)).copy(huge);
    // stored, not deflated: its ratio gives no reason to refuse it, only its size does
    const zip = await makeZip([
      { name: 'amp/amp.kicad_pro', bytes: pro },
      { name: 'amp/amp.kicad_pcb', bytes: board(20241229) },
      { name: 'amp/amp.kicad_sch', bytes: huge, compress: false },
    ]);
    let started = performance.now();
    expect((await refusal({ zip, name: 'huge.zip' })).key).toBe('archive_too_large');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(written(scratch).every((file) => file.size <= MAX_SCHEMATIC_BYTES)).toBe(true);
    expect(existsSync(path.join(scratch, 'amp/amp.kicad_sch'))).toBe(false);

    rmSync(scratch, { recursive: true });
    started = performance.now();
    const error = await refusal({ files: [{ name: 'amp.kicad_pcb', bytes: board(20241229) }, { name: 'amp.kicad_sch', bytes: huge }] });
    expect(error.key).toBe('archive_too_large');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(written(scratch)).toEqual([]);
  });

  it('refuses a sheet that includes itself, or a cycle A → B → A, as sheet_loop', async () => {
    expect((await refusal({ files: [{ name: 'a.kicad_sch', bytes: schematic(['a.kicad_sch']) }] })).key).toBe('sheet_loop');
    rmSync(scratch, { recursive: true });
    const cycle = await makeZip([
      { name: 'p/a.kicad_pro', bytes: pro },
      { name: 'p/a.kicad_sch', bytes: schematic(['sub/b.kicad_sch']) },
      { name: 'p/sub/b.kicad_sch', bytes: schematic(['../a.kicad_sch']) },
    ]);
    expect((await refusal({ zip: cycle, name: 'cycle.zip' })).key).toBe('sheet_loop');
  });

  it.each([['../../outside.kicad_sch'], ['/etc/passwd'], ['C:\\Windows\\win.ini'], ['sub/../../x.kicad_sch']])('refuses a sheet file %j as path_outside', async (sheetFile) => {
    const zip = await makeZip([
      { name: 'p/amp/amp.kicad_pro', bytes: pro },
      { name: 'p/amp/amp.kicad_sch', bytes: schematic([sheetFile]) },
      { name: 'p/x.kicad_sch', bytes: schematic() },
      { name: 'outside.kicad_sch', bytes: schematic() },
    ]);
    expect((await refusal({ zip, name: 'outside.zip' })).key).toBe('path_outside');
  });

  it('refuses a sheet file past the schematic cap whatever it is named', async () => {
    const big = Buffer.alloc(MAX_SCHEMATIC_BYTES + 1, ' ');
    const error = await refusal({
      files: [
        { name: 'x.kicad_sch', bytes: schematic(['notes.txt']) },
        { name: 'notes.txt', bytes: big },
      ],
    });
    expect(error.key).toBe('archive_too_large');
  });

  it('says a corrupt or truncated zip is unreadable', async () => {
    const zip = await makeZip([{ name: 'amp/amp.kicad_sch', bytes: sheet }]);
    expect((await refusal({ zip: zip.subarray(0, Math.floor(zip.byteLength / 2)), name: 'cut.zip' })).key).toBe('unreadable');
    expect((await refusal({ zip: sheet, name: 'not-a.zip' })).key).toBe('unreadable');
  });
});
