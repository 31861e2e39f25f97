import { describe, expect, it } from 'vitest';
import { extractGerberArchive, MAX_ARCHIVE_ENTRIES, MAX_ENTRY_BYTES } from '../../../src/server/electronics/archive.ts';
import { BoardError } from '../../../src/server/electronics/errors.ts';
import { eachZipEntry, loadBoard, makeZip, renameInZip } from '../../helpers/board-fixtures.ts';

async function boardError(promise: Promise<unknown>): Promise<BoardError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BoardError);
  return error as BoardError;
}

const gerber = new TextEncoder().encode('%FSLAX46Y46*%\n%MOMM*%\n%ADD10C,0.1*%\nD10*\nX0Y0D03*\nM02*\n');

describe('extractGerberArchive', () => {
  it('gives every file with its path inside the zip, nested folders kept, leaving out folders and OS litter', async () => {
    const board = loadBoard('kicad-rrf');
    const zip = await makeZip(
      [
        ...board.map((file) => ({ name: `rrf/gerbers/${file.name}`, bytes: file.bytes })),
        { name: '__MACOSX/rrf/gerbers/._rrf_rpi_skr_adapter-F_Cu.gbr', bytes: new Uint8Array([0, 5, 22, 7]) },
        { name: 'rrf/.DS_Store', bytes: new Uint8Array([0, 0, 0, 1]) },
      ],
      ['rrf/', 'rrf/gerbers/'],
    );
    const files = await extractGerberArchive(zip);
    expect(files.map((file) => file.name).sort()).toEqual(board.map((file) => `rrf/gerbers/${file.name}`).sort());
    const copper = files.find((file) => file.name.endsWith('F_Cu.gbr'))!;
    expect(Buffer.from(copper.bytes).equals(Buffer.from(board.find((file) => file.name.endsWith('F_Cu.gbr'))!.bytes))).toBe(true);
  });

  it('refuses a zip bomb: one highly compressible entry past the size cap, judged before it is inflated', async () => {
    const zip = await makeZip([{ name: 'bomb.gtl', bytes: new Uint8Array(MAX_ENTRY_BYTES + 1) }]);
    expect(zip.byteLength).toBeLessThan(MAX_ENTRY_BYTES / 500);
    const before = process.memoryUsage().arrayBuffers;
    const error = await boardError(extractGerberArchive(zip));
    expect(error.key).toBe('archive_too_large');
    expect(error.file).toBe('bomb.gtl');
    // nothing close to the entry's size was allocated to find out
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(MAX_ENTRY_BYTES / 4);
  });

  it('refuses an entry that compresses far better than Gerber text does, even under the size cap', async () => {
    const zip = await makeZip([{ name: 'zeros.gbr', bytes: new Uint8Array(8 * 2 ** 20) }]);
    const error = await boardError(extractGerberArchive(zip));
    expect(error.key).toBe('archive_too_large');
    expect(error.file).toBe('zeros.gbr');
  });

  it('refuses more uncompressed bytes in total than allowed', async () => {
    const random = (size: number) => new Uint8Array(size).map(() => Math.floor(Math.random() * 256));
    const zip = await makeZip([1, 2, 3].map((n) => ({ name: `part${n}.gbr`, bytes: random(400_000) })));
    expect((await boardError(extractGerberArchive(zip, { maxTotalBytes: 1_000_000 }))).key).toBe('archive_too_large');
  });

  it(`refuses more than ${MAX_ARCHIVE_ENTRIES} entries`, async () => {
    const zip = await makeZip(Array.from({ length: MAX_ARCHIVE_ENTRIES + 1 }, (_, n) => ({ name: `f${n}.gbr`, bytes: gerber })));
    expect((await boardError(extractGerberArchive(zip))).key).toBe('archive_too_large');
  });

  it('refuses an entry that inflates to more than its header declares (lying sizes)', async () => {
    const big = new TextEncoder().encode('X0Y0D03*\n'.repeat(100_000));
    const zip = await makeZip([{ name: 'liar.gtl', bytes: big }]);
    // declare 1000 bytes in both headers; the deflated stream still holds 900 kB
    eachZipEntry(zip, (view, central, local) => {
      view.setUint32(central + 24, 1000, true);
      view.setUint32(local + 22, 1000, true);
    });
    const error = await boardError(extractGerberArchive(zip));
    expect(error.key).toBe('archive_too_large');
    expect(error.file).toBe('liar.gtl');
  });

  it.each([
    ['a parent folder', 'xx/evil.gtl', '../evil.gtl'],
    ['a nested parent folder', 'gerb/xx/xx/e.gtl', 'gerb/../../e.gtl'],
    ['an absolute path', 'etc/evil.gtl', '/tc/evil.gtl'],
    ['a drive letter', 'Cx/evil.gtl', 'C:/evil.gtl'],
    ['a backslash path', 'xx/evil.gtl', '..\\evil.gtl'],
  ])('refuses an entry name with %s', async (_label, safe, hostile) => {
    const zip = renameInZip(await makeZip([{ name: 'ok.gtl', bytes: gerber }, { name: safe, bytes: gerber }]), safe, hostile);
    expect((await boardError(extractGerberArchive(zip))).key).toBe('unsafe_archive');
  });

  it('refuses a symlink entry', async () => {
    const zip = await makeZip([
      { name: 'ok.gtl', bytes: gerber },
      { name: 'link.gbl', bytes: new TextEncoder().encode('/etc/passwd'), mode: 0o120777 },
    ]);
    const error = await boardError(extractGerberArchive(zip));
    expect(error.key).toBe('unsafe_archive');
    expect(error.file).toBe('link.gbl');
  });

  it('refuses an encrypted entry', async () => {
    const zip = await makeZip([{ name: 'secret.gtl', bytes: gerber }]);
    eachZipEntry(zip, (view, central, local) => {
      view.setUint16(central + 8, view.getUint16(central + 8, true) | 1, true);
      view.setUint16(local + 6, view.getUint16(local + 6, true) | 1, true);
    });
    const error = await boardError(extractGerberArchive(zip));
    expect(error.key).toBe('unsafe_archive');
    expect(error.file).toBe('secret.gtl');
  });

  it('says an archive with no file is empty (no entries, or only folders and litter)', async () => {
    expect((await boardError(extractGerberArchive(await makeZip([])))).key).toBe('empty_archive');
    const onlyLitter = await makeZip([{ name: '__MACOSX/._x.gtl', bytes: gerber }], ['gerbers/']);
    expect((await boardError(extractGerberArchive(onlyLitter))).key).toBe('empty_archive');
  });

  it('says a truncated or non-zip upload is unreadable', async () => {
    const zip = await makeZip(loadBoard('kicad-rrf'));
    expect((await boardError(extractGerberArchive(zip.subarray(0, Math.floor(zip.byteLength / 2))))).key).toBe('unreadable');
    expect((await boardError(extractGerberArchive(gerber))).key).toBe('unreadable');
  });
});
