import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { uploads } from '../../src/server/db/schema/index.ts';
import { ATTACHMENT_MAX_BYTES, sniffDesignText, storeUpload } from '../../src/server/services/uploads.ts';
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

describe('design-file attachments', () => {
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
