import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { uploads } from '../../src/server/db/schema/index.ts';
import { guessAttachmentKind, sniffDesignText, storeUpload } from '../../src/server/services/media/index.ts';
import { ATTACHMENT_MAX_BYTES } from '../../src/lib/contract/project-limits.ts';
import { getStorage } from '../../src/server/storage/index.ts';

useTestDatabase();

const bytes = (text: string) => new TextEncoder().encode(text);
// a real zip holding one Gerber file
const ZIP = new Uint8Array(
  Buffer.from(
    'UEsDBBQAAAAAAMxpdV2/OecEHQAAAB0AAAAOAAAAYm9hcmQtRl9DdS5ndGxHMDQgdGVzdCoKJUZTTEFYNDZZNDYqJQpNMDIqClBLAQIUAxQAAAAAAMxpdV2/OecEHQAAAB0AAAAOAAAAAAAAAAAAAACAAQAAAABib2FyZC1GX0N1Lmd0bFBLBQYAAAAAAQABADwAAABJAAAAAAA=',
    'base64',
  ),
);

/** A one-entry zip archive (stored with deflate), written by hand: no zip library is needed to make one. */
function zipOf(name: string, content: Buffer): Uint8Array {
  const data = deflateRawSync(content, { level: 9 });
  const crc = crc32(content);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const centralStart = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralStart, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, central, nameBytes, end]));
}

describe('design-file attachments', () => {
  it('keeps a zip bomb as the small file it is: an archive is stored and served as is, never inflated', async () => {
    const { user } = await createUser();
    // 200 MB of zeros deflate to about 200 KB.
    const bomb = zipOf('board-F_Cu.gtl', Buffer.alloc(200 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const stored = await storeUpload(user.id, 'attachment', { name: 'gerbers.zip', bytes: bomb });
    expect(stored).toMatchObject({ mime: 'application/zip', size: bomb.length });
  });

  it('recognises design files by content', () => {
    expect(sniffDesignText('G04 KiCad*\n%FSLAX46Y46*%\n%MOMM*%', 'board-F_Cu.gtl')).toEqual({ mime: 'application/vnd.gerber', ext: 'gtl' });
    expect(sniffDesignText('%FSLAX24Y24*%\n', 'top')).toEqual({ mime: 'application/vnd.gerber', ext: 'gbr' });
    // The name's extension only where it belongs to the type: Gerber text called evil.html is a .gbr.
    expect(sniffDesignText('%FSLAX24Y24*%\n', 'evil.html')).toEqual({ mime: 'application/vnd.gerber', ext: 'gbr' });
    expect(sniffDesignText('M48\n;DRILL file', 'evil.svg')).toEqual({ mime: 'application/vnd.gerber', ext: 'drl' });
    expect(sniffDesignText('M48\n;DRILL file\nMETRIC', 'board.drl')).toEqual({ mime: 'application/vnd.gerber', ext: 'drl' });
    expect(sniffDesignText('(kicad_pcb (version 20240108) (generator "pcbnew"))', 'board.kicad_pcb')).toEqual({ mime: 'application/x-kicad', ext: 'kicad_pcb' });
    expect(sniffDesignText('ISO-10303-21;\nHEADER;', 'case.STEP')).toEqual({ mime: 'model/step', ext: 'step' });
    expect(sniffDesignText('{"head":{"docType":"3","editorVersion":"6.5"},"canvas":"CA~1000"}', 'pcb.json')).toEqual({ mime: 'application/json', ext: 'json' });
    expect(sniffDesignText('Designator,Value,Footprint,Quantity\nR1,10k,0603,1', 'bom.csv')).toEqual({ mime: 'text/csv', ext: 'csv' });
    // not design files
    expect(sniffDesignText('{"name":"my-package","version":"1.0.0"}', 'package.json')).toBeNull();
    expect(sniffDesignText('<html><script>alert(1)</script></html>', 'page.html')).toBeNull();
    expect(sniffDesignText('Just some notes about my board.', 'notes.txt')).toBeNull();
  });

  it('takes every file of a KiCad project as an attachment under its own name, the project file (.kicad_pro) included', async () => {
    const { user } = await createUser();
    const root = path.resolve(import.meta.dirname, '../fixtures/eda/kicad-sources');
    for (const project of readdirSync(root)) {
      for (const name of readdirSync(path.join(root, project)).filter((file) => /\.kicad_(pro|pcb|sch|sym)$/.test(file))) {
        const stored = await storeUpload(user.id, 'attachment', { name, bytes: new Uint8Array(readFileSync(path.join(root, project, name))) });
        expect(stored.name, `${project}/${name}`).toBe(name);
      }
    }
    const pro = JSON.stringify({ board: {}, meta: { filename: 'amp.kicad_pro', version: 1 }, schematic: {} });
    expect(sniffDesignText(pro, 'amp.kicad_pro')).toEqual({ mime: 'application/json', ext: 'kicad_pro' });
    // Named otherwise, it is stored as what it is; a JSON that only claims the name is no project.
    expect(sniffDesignText(pro, 'evil.html')).toEqual({ mime: 'application/json', ext: 'kicad_pro' });
    expect(sniffDesignText('{"meta":{"filename":"x.kicad_pro"}}', 'x.kicad_pro')).toBeNull();
    // Project, board and sheets are a design source (kind `kicad`), read by kicad-cli; libraries go with them.
    expect(guessAttachmentKind('amp.kicad_pro', 'application/json')).toBe('kicad');
    expect(guessAttachmentKind('amp.kicad_pcb', 'text/plain')).toBe('kicad');
    expect(guessAttachmentKind('power.kicad_sch', 'text/plain')).toBe('kicad');
    expect(guessAttachmentKind('sheet.txt', 'text/plain', '(kicad_sch (version 20231120) (generator "eeschema")')).toBe('kicad');
    expect(guessAttachmentKind('amp.kicad_sym', 'text/plain')).toBe('other');
  });

  it('classifies a Gerber as one by its bytes whatever its extension: KiCad 6+ X2 openings, an inner layer named .g3', () => {
    const kicad6 = '%TF.GenerationSoftware,KiCad,Pcbnew,(6.0.6)*%\n%TF.FileFunction,Copper,L3,Inr*%\n%FSLAX46Y46*%\n';
    expect(sniffDesignText(kicad6, 'board-In2_Cu.g3')).toEqual({ mime: 'application/vnd.gerber', ext: 'gbr' });
    expect(sniffDesignText('%TA.AperFunction,Conductor*%\n%FSLAX46Y46*%', 'inner.g3')).toEqual({ mime: 'application/vnd.gerber', ext: 'gbr' });
    // read from its first bytes, or from the type the upload gave it (attachments kept under their uploaded name)
    expect(guessAttachmentKind('board-In2_Cu.g3', 'text/plain', kicad6)).toBe('gerber');
    expect(guessAttachmentKind('board-In2_Cu.g3', 'application/vnd.gerber')).toBe('gerber');
    expect(guessAttachmentKind('drill.tx1', 'text/plain', '; DRILL file {KiCad 8.0}\nM48\n')).toBe('gerber');
    expect(guessAttachmentKind('notes.txt', 'text/plain', 'G0 is a move; see the Gerbers')).toBe('other');
  });

  it('stores accepted files byte for byte with a safe name, and refuses everything else', async () => {
    const { user } = await createUser();
    const gerber = await storeUpload(user.id, 'attachment', { name: '../../etc/Top Copper.gtl', bytes: bytes('G04 test*\n%FSLAX46Y46*%\nM02*') });
    expect(gerber).toMatchObject({ name: 'Top Copper.gtl', mime: 'application/vnd.gerber', size: 28 });
    const [row] = await getDb().select().from(uploads).where(eq(uploads.id, gerber.id));
    expect(row).toMatchObject({ ownerId: user.id, purpose: 'attachment' });
    expect(row!.storageKey).toMatch(/^attachments\/[a-z0-9]{2}\/[a-z0-9]+\.gtl$/);
    const stored = await getStorage().read(row!.storageKey);
    let text = '';
    for await (const chunk of stored!) text += chunk.toString();
    expect(text).toBe('G04 test*\n%FSLAX46Y46*%\nM02*');

    expect(await storeUpload(user.id, 'attachment', { name: 'gerbers.zip', bytes: ZIP })).toMatchObject({ mime: 'application/zip' });
    expect(await storeUpload(user.id, 'attachment', { name: 'gerbers.html', bytes: ZIP })).toMatchObject({ name: 'gerbers.zip', mime: 'application/zip' });
    expect(await storeUpload(user.id, 'attachment', { name: 'schematic.pdf', bytes: bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj') })).toMatchObject({ mime: 'application/pdf' });
    // EasyEDA exports its BOM as UTF-16LE, tab separated
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from('ID\tName\tDesignator\tQuantity\n1\t10k\tR1\t1\n', 'utf16le'))]);
    expect(await storeUpload(user.id, 'attachment', { name: 'BOM_Board.csv', bytes: utf16 })).toMatchObject({ mime: 'text/csv' });

    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toBuffer();
    for (const refused of [
      { name: 'photo.png', bytes: new Uint8Array(png) },
      { name: 'tool.exe', bytes: new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0, 0, 0, 0x04, 0, 0, 0, 0xff, 0xff]) },
      { name: 'evil.gbr', bytes: bytes('<svg onload="alert(1)"></svg>') },
    ]) {
      await expect(storeUpload(user.id, 'attachment', refused)).rejects.toMatchObject({ status: 415, errorKey: 'unsupported_type' });
    }
    await expect(storeUpload(user.id, 'attachment', { name: 'big.zip', bytes: new Uint8Array(ATTACHMENT_MAX_BYTES + 1) })).rejects.toMatchObject({ status: 413 });
    expect((await getDb().select().from(uploads).where(eq(uploads.ownerId, user.id))).length).toBe(5);
  });
});
