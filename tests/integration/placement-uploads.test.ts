import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { useTestDatabase } from '../helpers/db.ts';
import { createUser } from '../helpers/factories.ts';
import { guessAttachmentKind, sniffDesignText, storeUpload } from '../../src/server/services/media/index.ts';

useTestDatabase();

const FIXTURES = new URL('../fixtures/eda/', import.meta.url);
const fixtureText = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const fixtureBytes = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const bytes = (text: string) => new TextEncoder().encode(text);

describe('placement and BOM uploads', () => {
  it('accepts every placement format as text with a safe extension', () => {
    expect(sniffDesignText(fixtureText('kicad-board.pos'), 'kicad-board.pos')).toEqual({ mime: 'text/plain', ext: 'pos' });
    expect(sniffDesignText(fixtureText('kicad-board-pos.csv'), 'kicad-board-pos.csv')).toEqual({ mime: 'text/csv', ext: 'csv' });
    expect(sniffDesignText(fixtureText('eagle-board.mnt'), 'eagle-board.mnt')).toEqual({ mime: 'text/plain', ext: 'mnt' });
    expect(sniffDesignText(fixtureText('eagle-board.mnb'), 'eagle-board.mnb')).toEqual({ mime: 'text/plain', ext: 'mnb' });
    expect(sniffDesignText(fixtureText('altium-pick-place.csv'), 'Pick Place for PCB1.csv')).toEqual({ mime: 'text/csv', ext: 'csv' });
    expect(sniffDesignText(fixtureText('altium-pick-place.txt'), 'Pick Place for PCB1.txt')).toEqual({ mime: 'text/plain', ext: 'txt' });
    expect(sniffDesignText(fixtureText('jlc-cpl.csv'), 'CPL.csv')).toEqual({ mime: 'text/csv', ext: 'csv' });
    // The content decides; a placement file sent under an HTML name is stored as text.
    expect(sniffDesignText(fixtureText('kicad-board.pos'), 'evil.html')).toEqual({ mime: 'text/plain', ext: 'txt' });
    expect(sniffDesignText(fixtureText('jlc-cpl.csv'), 'evil.html')).toEqual({ mime: 'text/csv', ext: 'csv' });
  });

  it('accepts a BOM whose header sits below a title, and still refuses text that is neither', () => {
    expect(sniffDesignText('Bill of Materials\nSensor v2\n\nReferences;Value;Package\nC1;100n;0603\n', 'sensor-parts')).toEqual({ mime: 'text/csv', ext: 'csv' });
    expect(sniffDesignText('Just some notes about my board.\nAnd a second line.', 'notes.txt')).toBeNull();
    expect(sniffDesignText('<html><body>R1 10 20 90</body></html>', 'board.mnt')).toBeNull();
  });

  it('classifies placement files before BOMs, by extension, by content and by name', () => {
    expect(guessAttachmentKind('kicad-board.pos', 'text/plain')).toBe('placement');
    expect(guessAttachmentKind('eagle-board.mnb', 'text/plain')).toBe('placement');
    expect(guessAttachmentKind('sangaboard-pos_jlc.csv', 'text/csv')).toBe('placement');
    expect(guessAttachmentKind('board-top-centroid.csv', 'text/csv')).toBe('placement');
    expect(guessAttachmentKind('Pick Place for PCB1.txt', 'text/plain')).toBe('placement');
    // A CPL whose name says nothing is known by its header.
    expect(guessAttachmentKind('assembly.csv', 'text/csv', fixtureText('jlc-cpl.csv'))).toBe('placement');
    expect(guessAttachmentKind('export.csv', 'text/csv', fixtureText('altium-pick-place.csv'))).toBe('placement');
    // BOMs stay BOMs.
    expect(guessAttachmentKind('sanga-bom_jlc.csv', 'text/csv', fixtureText('bom/sanga-bom_jlc.csv'))).toBe('bom');
    expect(guessAttachmentKind('SnapperGPS_1_0_0_BOM.csv', 'text/csv', fixtureText('bom/SnapperGPS_1_0_0_BOM.csv'))).toBe('bom');
    expect(guessAttachmentKind('parts.csv', 'text/csv', fixtureText('bom/SnapperGPS_1_0_0_BOM.csv'))).toBe('bom');
  });

  it('stores uploaded placement files and XLSX BOMs byte for byte under their detected type', async () => {
    const { user } = await createUser();
    const pos = fixtureBytes('kicad-board.pos');
    expect(await storeUpload(user.id, 'attachment', { name: 'kicad-board.pos', bytes: pos })).toMatchObject({ name: 'kicad-board.pos', mime: 'text/plain', size: pos.length });
    expect(await storeUpload(user.id, 'attachment', { name: 'top.mnt', bytes: fixtureBytes('eagle-board.mnt') })).toMatchObject({ name: 'top.mnt', mime: 'text/plain' });
    expect(await storeUpload(user.id, 'attachment', { name: 'cpl.csv', bytes: fixtureBytes('sangaboard-pos_jlc.csv') })).toMatchObject({ mime: 'text/csv' });
    expect(await storeUpload(user.id, 'attachment', { name: 'rrf.tsv', bytes: fixtureBytes('bom/rrf-1-click-bom.tsv') })).toMatchObject({ name: 'rrf.tsv', mime: 'text/csv' });
    const xlsx = await writeExcelFile([
      [{ value: 'Designator' }, { value: 'Comment' }, { value: 'LCSC' }],
      [{ value: 'R1' }, { value: '10k' }, { value: 'C25804' }],
    ]).toBuffer();
    expect(await storeUpload(user.id, 'attachment', { name: 'bom.xlsx', bytes: new Uint8Array(xlsx) })).toMatchObject({ name: 'bom.xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    await expect(storeUpload(user.id, 'attachment', { name: 'board.pos', bytes: bytes('<script>alert(1)</script>') })).rejects.toMatchObject({ status: 415 });
  });
});
