import { log } from '../../log.ts';
import { and, eq, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type OutputInfo } from 'sharp';
import { getDb } from '../../db/client.ts';
import { uploads, type UploadPurpose } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { sendJob } from '../../jobs/queue.ts';
import { ORIGINAL_URL_SQL_PATTERN } from '../../media/image-variants.ts';
import { fileUrl, getStorage } from '../../storage/index.ts';
import { looksLikeBomText } from '../../electronics/bom.ts';
import { looksLikeExcellonText, looksLikeGerberText, GERBER_EXTENSIONS } from '../../electronics/gerber-text.ts';
import { looksLikePlacements } from '../../electronics/placements.ts';
import { newPublicId } from '../../lib/ids.ts';
import { z } from 'zod';
import { ATTACHMENT_MAX_BYTES } from '../../../lib/contract/project-limits.ts';
import type { uploadResultSchema } from '../../../lib/contract/schemas/projects.ts';

/** What `POST /api/upload` answers. */
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** A file as it arrived: the client's name (display only) and its bytes. Its type is sniffed. */
export interface IncomingFile {
  name: string;
  bytes: Uint8Array;
}

export const UPLOAD_PURPOSES = ['avatar', 'cover', 'image', 'attachment'] as const satisfies readonly UploadPurpose[];

/** The multipart form of `POST /api/upload`, as the API reference describes it (`readUploadForm` reads it). */
export const uploadFormSchema = z.object({
  purpose: z.enum(UPLOAD_PURPOSES).meta({ description: 'avatar: cropped square; cover and image: downscaled images; attachment: any file of a project.' }),
  file: z.file().meta({ description: 'The file; its name is kept for display only.' }),
});

/** Images larger than this (as sent) are refused with 413. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** Longest side of a stored image (larger images are downscaled: nobody needs more on a project page). */
export const IMAGE_MAX_SIDE = 2000;
/** Avatars are stored as squares of this size. */
export const AVATAR_SIDE = 512;
/** Decoding bombs: a tiny file that claims a gigantic canvas is refused. */
const IMAGE_MAX_PIXELS = 50_000_000;
/** Image formats accepted, by sniffed content (never by name or declared type). */
export const IMAGE_MIMES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

/** Where the image upload `id` is stored (its variants are named after it: `image-variants.ts`). */
export function imageStorageKey(id: string): string {
  return `images/${id.slice(0, 2)}/${id}.webp`;
}

/** How one upload purpose checks and stores a file. */
interface PurposeHandler {
  maxBytes: number;
  /** `ownerId` null: stored by the operator at the console (`npm run ops`), nobody's own. */
  store(ownerId: number | null, purpose: UploadPurpose, file: IncomingFile): Promise<UploadResult>;
}

/** A display name that is safe anywhere: no path, no control characters, limited length. */
export function safeFileName(name: string, extension?: string, fallback = 'file'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let clean = base.normalize('NFC').replace(/[\u0000-\u001f\u007f<>:"|?*]+/g, '').replace(/\s+/g, ' ').trim();
  if (extension) clean = clean.replace(/\.[^.]*$/, '');
  clean = clean.replace(/^\.+/, '').slice(0, 100).trim() || fallback;
  return extension ? `${clean}.${extension}` : clean;
}

async function insertUpload(row: typeof uploads.$inferInsert, bytes: Buffer | Uint8Array): Promise<void> {
  const storage = getStorage();
  await storage.put(row.storageKey, bytes);
  try {
    await getDb().insert(uploads).values(row);
  } catch (error) {
    await storage.delete(row.storageKey).catch(() => undefined);
    throw error;
  }
}

/** What `copyUpload` copies: a stored file and what its upload row says of it. */
export type UploadSource = Pick<typeof uploads.$inferSelect, 'storageKey' | 'purpose' | 'name' | 'mime' | 'size'> & { width?: number | null; height?: number | null };

/**
 * A copy of a stored file as a new upload of `ownerId`: the bytes under a new key, a row with
 * the same name, type and size. The copy and the original live apart, so deleting one never
 * breaks the other (a remix starts from copies of the original's files). Null when the stored
 * file is gone.
 */
export async function copyUpload(ownerId: number, source: UploadSource): Promise<{ id: string; url: string } | null> {
  const stream = await getStorage().read(source.storageKey);
  if (!stream) return null;
  const bytes = Buffer.concat((await stream.toArray()) as Buffer[]);
  const id = newPublicId(16);
  const isImage = source.purpose !== 'attachment';
  const extension = /\.([a-z0-9_]+)$/i.exec(source.storageKey)?.[1] ?? 'bin';
  const storageKey = isImage ? imageStorageKey(id) : `attachments/${id.slice(0, 2)}/${id}.${extension}`;
  const { width = null, height = null } = source;
  await insertUpload({ id, ownerId, purpose: source.purpose, storageKey, name: source.name, mime: source.mime, size: source.size, width, height }, bytes);
  if (isImage && source.purpose !== 'avatar') await queueImageVariants(storageKey, { fresh: true }).catch(logUnqueuedVariants);
  return { id, url: fileUrl(storageKey) };
}

/** The upload a `/files/…` URL points at, whoever owns it; null for any other address. */
export async function findUploadByUrl(url: string): Promise<typeof uploads.$inferSelect | null> {
  if (!url.startsWith('/files/')) return null;
  const [row] = await getDb().select().from(uploads).where(eq(uploads.storageKey, url.slice('/files/'.length))).limit(1);
  return row ?? null;
}

/**
 * Images (avatar, cover, image): JPEG, PNG, WebP or GIF by content; decoded and re-encoded by
 * sharp to WebP (metadata stripped, turned upright by EXIF, at most 2000 px on the longest side;
 * avatars 512x512). A file that does not decode is refused like any other type.
 */
const imageHandler: PurposeHandler = {
  maxBytes: IMAGE_MAX_BYTES,
  async store(ownerId, purpose, file) {
    const type = await fileTypeFromBuffer(file.bytes);
    if (!type || !IMAGE_MIMES.has(type.mime)) throw new AppError('unsupported_type');
    let output: { data: Buffer; info: OutputInfo };
    try {
      let pipeline = sharp(file.bytes, { animated: false, limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' }).rotate();
      pipeline =
        purpose === 'avatar'
          ? pipeline.resize(AVATAR_SIDE, AVATAR_SIDE, { fit: 'cover', position: 'centre' })
          : pipeline.resize(IMAGE_MAX_SIDE, IMAGE_MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
      output = await pipeline.webp({ quality: 86, effort: 4 }).toBuffer({ resolveWithObject: true });
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) throw new AppError('too_large');
      throw new AppError('unsupported_type');
    }
    const id = newPublicId(16);
    const storageKey = imageStorageKey(id);
    const name = safeFileName(file.name, 'webp', 'image');
    await insertUpload(
      { id, ownerId, purpose, storageKey, name, mime: 'image/webp', size: output.data.length, width: output.info.width, height: output.info.height },
      output.data,
    );
    // Pages show covers and pictures through their smaller variants (avatars are shown as stored).
    if (purpose !== 'avatar') await queueImageVariants(storageKey, { fresh: true }).catch(logUnqueuedVariants);
    return { id, url: fileUrl(storageKey), name, mime: 'image/webp', size: output.data.length };
  },
};

/**
 * Sends the making of an image's AVIF and WebP variants to the job queue (one waiting job per
 * image). A member's upload goes first (`fresh`): its author is looking at the page it is on,
 * while the demo pictures and pictures from before variants wait behind it.
 */
export async function queueImageVariants(storageKey: string, options: { fresh?: boolean } = {}): Promise<void> {
  await sendJob('imageVariants', { key: storageKey }, `image-variants:${storageKey}`, { priority: options.fresh ? 1 : 0 });
}

/** Logs a send that failed: pages show the original meanwhile, and a request for a missing variant sends it again. */
export function logUnqueuedVariants(error: unknown): void {
  log.error({ component: 'uploads', err: error }, 'could not queue image variants');
}

/**
 * The pixel width of the stored image a URL column points at, in the same statement (one lookup
 * of `uploads` by its key, the id in the URL); null for anything else (a board preview, a static
 * or external address). Pages need it to offer the image's variants (`describePicture`).
 */
export function storedImageWidth(url: AnyColumn | SQL): SQL<number | null> {
  return sql<number | null>`(SELECT u.width FROM uploads u WHERE u.id = substring(${url} from ${ORIGINAL_URL_SQL_PATTERN}))`;
}

/**
 * Whether `file` would be stored as an image: the same checks as an upload (type by content,
 * size, a decodable picture within the pixel limit), storing nothing. `npm run ops -- … --dry-run`.
 */
export async function checkImageFile(file: IncomingFile): Promise<void> {
  if (file.bytes.length === 0) throw new AppError('validation', { file: 'required' });
  if (file.bytes.length > IMAGE_MAX_BYTES) throw new AppError('too_large');
  const type = await fileTypeFromBuffer(file.bytes);
  if (!type || !IMAGE_MIMES.has(type.mime)) throw new AppError('unsupported_type');
  try {
    await sharp(file.bytes, { animated: false, limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' }).stats();
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw new AppError('too_large');
    throw new AppError('unsupported_type');
  }
}


/** Binary design files recognised by their magic bytes (xlsx/ods BOMs are zips underneath). */
const ATTACHMENT_BINARY: Record<string, string> = {
  'application/zip': 'zip',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
};

/** The text of a file if it is text (UTF-8, or UTF-16LE with its byte-order mark), else null. */
function decodeText(bytes: Uint8Array): string | null {
  try {
    const text =
      bytes[0] === 0xff && bytes[1] === 0xfe
        ? new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2))
        : new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

/**
 * What a text design file is, from its content: `{ mime, ext }`, or null when not a design file.
 * The name's own extension is kept only where it is one of that type's (a Gerber layer's `.gtl`);
 * `ext` never comes from a name alone, so `evil.html` holding Gerber text becomes `.gbr`.
 */
export function sniffDesignText(text: string, name: string): { mime: string; ext: string } | null {
  const start = text.trimStart();
  const lower = name.toLowerCase();
  const nameExt = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
  if (looksLikeGerberText(start)) return { mime: 'application/vnd.gerber', ext: GERBER_EXTENSIONS.has(nameExt) ? nameExt : 'gbr' };
  if (looksLikeExcellonText(start)) return { mime: 'application/vnd.gerber', ext: GERBER_EXTENSIONS.has(nameExt) ? nameExt : 'drl' };
  if (/^\((kicad_[a-z_]+|footprint|module|fp_lib_table|sym_lib_table|export)\b/.test(start) || /^EESchema (Schematic|LIBRARY)/.test(start) || /^PCBNEW-BOARD/.test(start)) {
    const kicad = /^kicad_[a-z_]{1,12}$/.test(nameExt) || ['sch', 'lib', 'net', 'pro'].includes(nameExt);
    return { mime: 'application/x-kicad', ext: kicad ? nameExt : 'kicad' };
  }
  if (/^ISO-10303-21;/.test(start)) return { mime: 'model/step', ext: nameExt === 'stp' ? 'stp' : 'step' };
  if (start.startsWith('{')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      const head = json.head as Record<string, unknown> | undefined;
      // A Gerber job file (`.gbrjob`): the layer list a CAD tool writes beside its Gerbers.
      if (json && typeof json === 'object' && json.Header && typeof json.Header === 'object' && ('FilesAttributes' in json || 'GeneralSpecs' in json || 'Overall' in json || 'GenerationSoftware' in (json.Header as object))) {
        return { mime: 'application/json', ext: 'gbrjob' };
      }
      // A KiCad project file (`.kicad_pro`): the project's settings, which name its board and schematic.
      const meta = json.meta as Record<string, unknown> | undefined;
      if (json && typeof json === 'object' && meta && typeof meta === 'object' && typeof meta.filename === 'string' && meta.filename.endsWith('.kicad_pro') && ('board' in json || 'schematic' in json)) {
        return { mime: 'application/json', ext: 'kicad_pro' };
      }
      if (json && typeof json === 'object' && ('docType' in json || 'editorVersion' in json || (head && ('docType' in head || 'editorVersion' in head)) || 'schematics' in json || 'dataStr' in json)) {
        return { mime: 'application/json', ext: 'json' };
      }
    } catch {
      return null;
    }
    return null;
  }
  const firstLine = start.split(/\r?\n/, 1)[0] ?? '';
  const delimited = /[,;\t]/.test(firstLine);
  // Pick-and-place files: KiCad .pos (plain text) and CSV, EAGLE .mnt/.mnb, Altium, JLC CPL.
  if (looksLikePlacements(text, name)) {
    if (['pos', 'mnt', 'mnb', 'txt'].includes(nameExt)) return { mime: 'text/plain', ext: nameExt };
    if (['csv', 'tsv'].includes(nameExt) || /[,;\t]/.test(start.slice(0, 4096).replace(/^#.*$/gm, ''))) return { mime: 'text/csv', ext: nameExt === 'tsv' ? 'tsv' : 'csv' };
    return { mime: 'text/plain', ext: 'txt' };
  }
  // BOMs: comma, semicolon or tab separated, the header possibly below a title.
  const tabular = delimited && start.split(/\r?\n/).filter(Boolean).length >= 1;
  if ((tabular && (['csv', 'tsv', 'txt'].includes(nameExt) || /designator|reference|quantity|qty|value|footprint|part/i.test(firstLine))) || looksLikeBomText(text)) {
    return { mime: 'text/csv', ext: nameExt === 'tsv' ? 'tsv' : 'csv' };
  }
  return null;
}

/**
 * Attachments (design files): zip, PDF and spreadsheet BOMs by their magic bytes; Gerber/Excellon,
 * KiCad, EasyEDA JSON, STEP and CSV by their text content. Stored byte for byte under a
 * generated key; the original name (made safe) is kept for downloads with the extension of the
 * detected type, so a CSV sent as `evil.html` is `evil.csv` wherever it is saved or opened.
 */
export async function storeAttachmentUpload(ownerId: number | null, file: IncomingFile): Promise<UploadResult> {
  // Text formats first (a UTF-16 byte-order mark looks like MPEG audio to magic-byte sniffing),
  // then binary formats by their magic bytes.
  const text = decodeText(file.bytes);
  let detected = text === null ? null : sniffDesignText(text, file.name);
  if (!detected) {
    const type = await fileTypeFromBuffer(file.bytes);
    const ext = type ? ATTACHMENT_BINARY[type.mime] : undefined;
    if (type && ext) detected = { mime: type.mime, ext };
  }
  if (!detected) throw new AppError('unsupported_type');
  const id = newPublicId(16);
  const ext = detected.ext.replace(/[^a-z0-9_]/g, '').slice(0, 20) || 'bin';
  const storageKey = `attachments/${id.slice(0, 2)}/${id}.${ext}`;
  const name = safeFileName(file.name, ext, 'file');
  await insertUpload({ id, ownerId, purpose: 'attachment', storageKey, name, mime: detected.mime, size: file.bytes.length }, file.bytes);
  return { id, url: fileUrl(storageKey), name, mime: detected.mime, size: file.bytes.length };
}

const attachmentHandler: PurposeHandler = {
  maxBytes: ATTACHMENT_MAX_BYTES,
  store: (ownerId, _purpose, file) => storeAttachmentUpload(ownerId, file),
};

/** What each purpose accepts. */
const handlers: Partial<Record<UploadPurpose, PurposeHandler>> = {
  avatar: imageHandler,
  cover: imageHandler,
  image: imageHandler,
  attachment: attachmentHandler,
};

/** The largest request `POST /api/upload` reads: the biggest file allowed plus form overhead. */
export function maxUploadRequestBytes(): number {
  return Math.max(...Object.values(handlers).map((handler) => handler!.maxBytes)) + 64 * 1024;
}

/**
 * Checks and stores one uploaded file for `purpose`. Unsupported content is a 415
 * `unsupported_type`, too many bytes a 413 `too_large`; nothing is stored in either case.
 */
export async function storeUpload(ownerId: number | null, purpose: string, file: IncomingFile): Promise<UploadResult> {
  if (!(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) throw new AppError('validation', { purpose: 'invalid_value' });
  const handler = handlers[purpose as UploadPurpose];
  if (!handler) throw new AppError('unsupported_type');
  if (file.bytes.length === 0) throw new AppError('validation', { file: 'required' });
  if (file.bytes.length > handler.maxBytes) throw new AppError('too_large');
  return handler.store(ownerId, purpose as UploadPurpose, file);
}

/**
 * An image upload of `userId` for one of `purposes`, by id or by its `/files/…` URL; null when
 * it does not exist or belongs to someone else. Used where a form refers to an uploaded image.
 */
export async function findOwnImageUpload(userId: number, ref: string, purposes: UploadPurpose[]): Promise<{ id: string; url: string } | null> {
  const key = ref.startsWith('/files/') ? ref.slice('/files/'.length) : null;
  const [row] = await getDb()
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .where(and(eq(uploads.ownerId, userId), inArray(uploads.purpose, purposes), key ? or(eq(uploads.id, ref), eq(uploads.storageKey, key)) : eq(uploads.id, ref)))
    .limit(1);
  return row ? { id: row.id, url: fileUrl(row.storageKey) } : null;
}

/**
 * An image upload for a staff page, by id or `/files/…` URL, whoever uploaded it: the operator's
 * console (`npm run ops -- banner:add --image …`) stores images that belong to no member.
 */
export async function findImageUpload(ref: string): Promise<{ id: string; url: string } | null> {
  const key = ref.startsWith('/files/') ? ref.slice('/files/'.length) : null;
  const [row] = await getDb()
    .select({ id: uploads.id, storageKey: uploads.storageKey })
    .from(uploads)
    .where(and(inArray(uploads.purpose, ['cover', 'image']), key ? or(eq(uploads.id, ref), eq(uploads.storageKey, key)) : eq(uploads.id, ref)))
    .limit(1);
  return row ? { id: row.id, url: fileUrl(row.storageKey) } : null;
}
