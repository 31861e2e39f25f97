/**
 * Design files attached to projects: created from the owner's uploads when a project is
 * published or edited, and downloaded through `/api/attachment/download` (which counts).
 */
import { eq, sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import type { Tx } from '../../db/client.ts';
import { getDb } from '../../db/client.ts';
import { attachments, projects, type AttachmentKind } from '../../db/schema/index.ts';
import { GERBER_EXTENSIONS, looksLikeExcellonText, looksLikeGerberText } from '../../electronics/gerber-text.ts';
import { looksLikePlacements } from '../../electronics/placements.ts';
import { AppError } from '../../http/errors.ts';
import { getStorage, withLocalFile } from '../../storage/index.ts';
import { newPublicId } from '../../lib/ids.ts';
import { isPublishedFor } from '../core/index.ts';
import { ATTACHMENT_MAX_BYTES } from '../../../lib/contract/project-limits.ts';


/** A file attached to content: either an upload of the user or an existing attachment. */
export interface ResolvedAttachment {
  /** The id the form uses: the upload id, or the attachment id when it has no upload. */
  ref: string;
  uploadId: string | null;
  attachmentId: string | null;
  name: string;
  mime: string;
  size: number;
  storageKey: string;
}

const BOM_EXTENSIONS = new Set(['csv', 'tsv', 'xlsx', 'xls', 'ods']);
/** Extensions only placement files have: KiCad `.pos`, EAGLE `.mnt` (top) and `.mnb` (bottom). */
const PLACEMENT_EXTENSIONS = new Set(['pos', 'mnt', 'mnb']);
/** Words CAD tools and fabs put in placement file names: `board-top-pos.csv`, `CPL.csv`, `Pick Place for PCB1.txt`, `centroid.csv`. */
const PLACEMENT_NAME = /\b(pos|cpl|centroids?|pick|place|placement|pickplace|pickandplace|pnp|positions?)\b/;
const SCHEMATIC_EXTENSIONS = new Set(['sch', 'schdoc', 'dsn']);
/** A KiCad design source's own files: a project, its board, its sheets (read by `kicad-cli`). */
const KICAD_EXTENSIONS = new Set(['kicad_pro', 'kicad_pcb', 'kicad_sch']);
/** Files a KiCad project folder carries beside them: libraries, their tables, design rules, local settings. */
const KICAD_COMPANION = /\.(kicad_sym|kicad_mod|kicad_dru|kicad_prl|kicad_wks)$|^(fp|sym)-lib-table$/i;

/** Whether a file belongs with a KiCad design source when attached loose. */
export const isKicadCompanion = (name: string) => KICAD_COMPANION.test(name.slice(name.lastIndexOf('/') + 1));

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * What an attached file is, from its name and (for text files) its first bytes: fabrication
 * outputs (Gerber, Excellon, a zip of them), a pick-and-place file, a bill of materials, a
 * schematic, or other.
 */
export function guessAttachmentKind(name: string, mime: string, head = ''): AttachmentKind {
  const ext = extensionOf(name);
  const base = name.toLowerCase();
  if (KICAD_EXTENSIONS.has(ext) || head.trimStart().startsWith('(kicad_sch') || head.trimStart().startsWith('(kicad_pcb')) return 'kicad';
  if (GERBER_EXTENSIONS.has(ext) || ext === 'gbrjob') return 'gerber';
  // The upload judged the bytes already: a Gerber named `.g3` (an inner layer) is still one.
  if (mime === 'application/vnd.gerber') return 'gerber';
  if (head && (looksLikeGerberText(head) || looksLikeExcellonText(head))) return 'gerber';
  if (ext === 'zip' && /gerber|fab|manufactur|production|pcbway|jlc/.test(base)) return 'gerber';
  // Placement files before BOMs: both are tables, and a CPL next to a BOM must not pass for one.
  if (PLACEMENT_EXTENSIONS.has(ext) || (head && looksLikePlacements(head, name))) return 'placement';
  if (['csv', 'tsv', 'txt'].includes(ext) && PLACEMENT_NAME.test(base.replace(/[_.-]/g, ' '))) return 'placement';
  if (/\bbom\b|bill[ _-]?of[ _-]?materials/.test(base.replace(/[_.-]/g, ' '))) return 'bom';
  if (BOM_EXTENSIONS.has(ext) || mime === 'text/csv') {
    return /designator|reference|quantity|qty|footprint|\bvalue\b/i.test(head.split('\n')[0] ?? '') || ext !== 'csv' ? 'bom' : 'other';
  }
  if (SCHEMATIC_EXTENSIONS.has(ext)) return 'schematic';
  if (/schematic|\bsch\b/.test(base.replace(/[_.-]/g, ' '))) return 'schematic';
  return 'other';
}

/** The first bytes of a stored text-like file, for `guessAttachmentKind`. */
async function readHead(storageKey: string, mime: string): Promise<string> {
  if (!/^text\/|json/.test(mime)) return '';
  const stream = await getStorage().read(storageKey, { start: 0, end: 2047 });
  if (!stream) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** Entries of a zip's directory read at most to tell what it holds (nothing is inflated). */
const ZIP_PEEK_ENTRIES = 2000;

/**
 * What a stored zip holds, from its entry names only: a KiCad project folder (a `.kicad_pro`,
 * `.kicad_pcb` or `.kicad_sch` anywhere in it, even beside exported Gerbers: the source makes
 * those again), else Gerber or drill files (a zip named `sangaboard.zip` is as much a Gerber set
 * as one named `gerbers.zip`), else nothing known.
 */
async function zipContents(storageKey: string): Promise<AttachmentKind | null> {
  // yauzl reads the directory at the end of a file; from a bucket the zip is copied to the disk first.
  const kind = await withLocalFile(storageKey, ATTACHMENT_MAX_BYTES, (file) => zipFileContents(file)).catch(() => null);
  return kind ?? null;
}

function zipFileContents(file: string): Promise<AttachmentKind | null> {
  return new Promise((resolve) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return resolve(null);
      let seen = 0;
      let gerbers = false;
      const done = (kind: AttachmentKind | null) => {
        zip.close();
        resolve(kind);
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        const ext = extensionOf(entry.fileName);
        if (KICAD_EXTENSIONS.has(ext)) return done('kicad');
        if (GERBER_EXTENSIONS.has(ext) || ext === 'gbrjob' || /\.g[tb][lospa]$|\.g\d+$|\.gm\d*$/i.test(entry.fileName)) gerbers = true;
        if (++seen >= ZIP_PEEK_ENTRIES) return done(gerbers ? 'gerber' : null);
        zip.readEntry();
      });
      zip.on('end', () => resolve(gerbers ? 'gerber' : null));
      zip.on('error', () => resolve(null));
      zip.readEntry();
    });
  });
}

/** Kinds of new attachments, read before a transaction starts (they may touch storage). */
export async function guessKinds(files: ResolvedAttachment[]): Promise<Map<string, AttachmentKind>> {
  const kinds = new Map<string, AttachmentKind>();
  await Promise.all(
    files
      .filter((file) => !file.attachmentId)
      .map(async (file) => {
        let kind = guessAttachmentKind(file.name, file.mime, await readHead(file.storageKey, file.mime).catch(() => ''));
        // A zip is judged by what it holds: a KiCad project folder is a design source whatever its name says.
        if ((kind === 'other' || kind === 'gerber') && file.mime === 'application/zip') kind = (await zipContents(file.storageKey).catch(() => null)) ?? kind;
        kinds.set(file.ref, kind);
      }),
  );
  return kinds;
}

/**
 * Makes the project's attachments exactly `files`, in order: existing ones stay (keeping their
 * download counts), missing ones are removed, new uploads become attachments.
 */
export async function syncProjectAttachments(
  tx: Tx,
  projectId: number,
  files: ResolvedAttachment[],
  kinds: Map<string, AttachmentKind>,
): Promise<void> {
  const keep = new Set(files.map((file) => file.attachmentId).filter((id): id is string => Boolean(id)));
  const current = await tx.select({ id: attachments.id }).from(attachments).where(eq(attachments.projectId, projectId));
  for (const row of current) {
    if (!keep.has(row.id)) await tx.delete(attachments).where(eq(attachments.id, row.id));
  }
  for (const [sort, file] of files.entries()) {
    if (file.attachmentId) {
      await tx.update(attachments).set({ sort }).where(eq(attachments.id, file.attachmentId));
    } else {
      await tx.insert(attachments).values({
        id: newPublicId(),
        projectId,
        uploadId: file.uploadId,
        name: file.name,
        mime: file.mime,
        size: file.size,
        storageKey: file.storageKey,
        kind: kinds.get(file.ref) ?? guessAttachmentKind(file.name, file.mime),
        sort,
      });
    }
  }
}

/**
 * The name a download is saved under: the attachment's name with the extension of its stored
 * file, which is that of its detected type (names from before uploads were renamed so may still
 * carry the extension the uploader chose).
 */
export function downloadName(name: string, storageKey: string): string {
  const ext = extensionOf(storageKey.slice(storageKey.lastIndexOf('/') + 1));
  if (!ext || extensionOf(name) === ext) return name;
  const base = name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name;
  return `${base || 'file'}.${ext}`;
}

async function countDownload(attachmentId: string): Promise<void> {
  await getDb()
    .update(attachments)
    .set({ downloadCount: sql`${attachments.downloadCount} + 1` })
    .where(eq(attachments.id, attachmentId));
}

/** A stored file someone may download: what it is saved as, and how its download is counted. */
export interface StoredDownload {
  name: string;
  mime: string;
  storageKey: string;
  /** Counts the download (a no-op when it is not to be counted); called once the file is known to be there. */
  count(): Promise<void>;
}

/**
 * An attachment of a published project (or of the viewer's own project) as a download, counted
 * unless `count` is false (e.g. for crawlers); `not_found` for anything else. `http/downloads.ts`
 * answers it.
 */
export async function findAttachmentDownload(attachmentId: string, viewerId: number | null, count: boolean): Promise<StoredDownload> {
  const db = getDb();
  const [row] = await db
    .select({ attachment: attachments, status: projects.status, ownerId: projects.ownerId, visible: isPublishedFor(viewerId) })
    .from(attachments)
    .innerJoin(projects, eq(projects.id, attachments.projectId))
    .where(eq(attachments.id, attachmentId))
    .limit(1);
  // A hidden project's files go with it: only its owner and staff still download them.
  if (!row || (!row.visible && row.ownerId !== viewerId)) throw new AppError('not_found');
  const { name, mime, storageKey } = row.attachment;
  return { name, mime, storageKey, count: () => (count ? countDownload(attachmentId) : Promise.resolve()) };
}
