/**
 * The real design files of demo projects (`seed/demo/eda/`), stored as a member's uploads would
 * be: a folder of Gerbers becomes one zip (with the folder inside, as CAD tools write them) or
 * loose files, plus a BOM and a pick-and-place file, and a KiCad project folder one zip. The job queue renders them after the seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ZipFile } from 'yazl';
import type { AttachmentKind } from '../db/schema/index.ts';
import { getStorage } from '../storage/index.ts';
import { newPublicId } from '../lib/ids.ts';
import type { ProjectSeed } from './demo-content.ts';

export interface StoredDesignFile {
  publicId: string;
  uploadId: string;
  name: string;
  mime: string;
  size: number;
  storageKey: string;
  kind: AttachmentKind;
}

/** The bytes of a zip holding `files` under `folder/`. */
async function zipFolder(folder: string, files: { name: string; bytes: Buffer }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of files) zip.addBuffer(file.bytes, `${folder}/${file.name}`, { mtime: new Date('2024-01-01T00:00:00Z') });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file under `folder`, by its path inside it (a KiCad project keeps its libraries in sub-folders). */
function folderFiles(folder: string): { name: string; bytes: Buffer }[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(folder, name)) }));
}

const TEXT_MIME: Record<string, string> = { csv: 'text/csv', tsv: 'text/csv', gbrjob: 'application/json' };

/** Stores the design files of every project that has some; returns them in attachment order per project. */
export async function storeDesignFiles(edaDir: string, projects: { seed: ProjectSeed; publicId: string }[]): Promise<StoredDesignFile[]> {
  const storage = getStorage();
  const stored: StoredDesignFile[] = [];
  const store = async (publicId: string, name: string, bytes: Buffer, mime: string, kind: AttachmentKind) => {
    const uploadId = newPublicId(16);
    const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : 'bin';
    const storageKey = `attachments/${uploadId.slice(0, 2)}/${uploadId}.${ext}`;
    await storage.put(storageKey, bytes);
    stored.push({ publicId, uploadId, name, mime, size: bytes.length, storageKey, kind });
  };
  for (const { seed, publicId } of projects) {
    const design = seed.design;
    if (!design) continue;
    if (design.gerbers) {
      const files = folderFiles(path.join(edaDir, design.gerbers));
      if (design.gerbersAsFiles) {
        for (const file of files) {
          const ext = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
          await store(publicId, file.name, file.bytes, TEXT_MIME[ext] ?? 'application/vnd.gerber', 'gerber');
        }
      } else {
        await store(publicId, `${seed.slug}-gerbers.zip`, await zipFolder(seed.slug, files), 'application/zip', 'gerber');
      }
    }
    if (design.kicad) await store(publicId, `${seed.slug}-kicad.zip`, await zipFolder(seed.slug, folderFiles(path.join(edaDir, design.kicad))), 'application/zip', 'kicad');
    if (design.bom) await store(publicId, path.basename(design.bom), readFileSync(path.join(edaDir, design.bom)), 'text/csv', 'bom');
    if (design.placements) {
      await store(publicId, path.basename(design.placements), readFileSync(path.join(edaDir, design.placements)), 'text/csv', 'placement');
    }
  }
  return stored;
}
