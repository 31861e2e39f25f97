/**
 * A project's versions (`version/list`, `version/diff`, the Versions tab): released when a
 * project is published and when an edit is published with a `version`, each keeping the files,
 * boards and BOM lines it was published with, so that any two can be compared after the
 * project's files have moved on. The board and documents jobs fill in what a version was
 * released with before it was rendered or read.
 */
import { createHash } from 'node:crypto';
import { FIRST_VERSION_NAME } from '../../../lib/contract/project-limits.ts';
import { and, asc, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { layerDiffSchema, boardDiffSchema, sheetDiffSchema, versionDiffSchema, versionSchema } from '../../../lib/contract/schemas/versions.ts';
import { VERSION_NAME_MAX, VERSION_NAME_PATTERN, VERSION_NOTES_MAX } from '../../../lib/contract/project-limits.ts';
import { diffBom, overlayFrames, withoutRenderIds } from '../../../lib/version-diff.ts';
import { getDb, type Tx } from '../../db/client.ts';
import { attachments, boards, bomLines, designSources, edaDocuments, projects, projectVersions, versionFiles, type StoredLayer, type VersionBoard } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import { z as zod } from '../../http/validation.ts';
import { fileUrl, readStoredBytes } from '../../storage/index.ts';
import { recordActivity } from '../notifications/index.ts';
import type { StoredDownload } from '../media/index.ts';
import { boardKeys, boardsVersionsShow, currentBoard, currentSource, copyBoardIntoVersions, sourceKeys, versionBoardOf } from '../eda/index.ts';
import { newPublicId } from '../../lib/ids.ts';
import { projectTabPath } from '../../../lib/project-tabs.ts';
import { isPublishedFor, findPublishedProject } from '../core/index.ts';
import type { FeedEntry } from '../../lib/syndication.ts';

export type VersionInfo = z.infer<typeof versionSchema>;
export type VersionDiff = z.infer<typeof versionDiffSchema>;
type SheetDiff = z.infer<typeof sheetDiffSchema>;
type BoardDiff = z.infer<typeof boardDiffSchema>;
type LayerDiff = z.infer<typeof layerDiffSchema>;
type VersionRow = typeof projectVersions.$inferSelect;


/** A version as the author releases it: `v1.1` with a changelog. */
export const versionInputSchema = zod.object({
  name: zod
    .string()
    .trim()
    .min(1)
    .max(VERSION_NAME_MAX)
    .regex(VERSION_NAME_PATTERN, 'version_name'),
  notes: zod
    .string()
    .max(VERSION_NOTES_MAX)
    .transform((value) => value.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim())
    .default(''),
});
export type VersionInput = z.output<typeof versionInputSchema>;

/** A version's name as compared for uniqueness: `V1.1` is taken when `v1.1` is. */
const sameName = (name: string) => sql`lower(${projectVersions.name}) = ${name.toLowerCase()}`;

/**
 * Refuses (`version_name_taken`) a name the project already has, inside the transaction that
 * will write the version, before anything else is written: a refused edit changes nothing.
 */
export async function assertVersionNameFree(tx: Tx, projectId: number, name: string): Promise<void> {
  const [taken] = await tx
    .select({ id: projectVersions.id })
    .from(projectVersions)
    .where(and(eq(projectVersions.projectId, projectId), sameName(name)))
    .limit(1);
  if (taken) throw new AppError('version_name_taken');
}

/** Locks the project's row for the transaction: two edits released at once get numbers one after the other. */
async function lockProject(tx: Tx, projectId: number) {
  const [row] = await tx
    .select({ publishedAt: projects.publishedAt, createdAt: projects.createdAt, ownerId: projects.ownerId })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for('update');
  return row;
}

/**
 * Copies the project's current files, boards and BOM into version `versionId`: what it is
 * released (or amended) with. Boards still rendering and a BOM still being read are copied as
 * pending; the jobs fill them in when they finish (`copyBoardIntoVersions`, `copyBomIntoVersions`).
 */
async function snapshotProject(tx: Tx, versionId: number, projectId: number): Promise<void> {
  const files = await tx.select().from(attachments).where(eq(attachments.projectId, projectId)).orderBy(asc(attachments.sort), asc(attachments.createdAt));
  await tx.delete(versionFiles).where(eq(versionFiles.versionId, versionId));
  if (files.length > 0) {
    await tx.insert(versionFiles).values(
      files.map((file, sort) => ({
        id: newPublicId(),
        versionId,
        attachmentId: file.id,
        name: file.name,
        mime: file.mime,
        size: file.size,
        kind: file.kind,
        storageKey: file.storageKey,
        sort,
      })),
    );
  }
  const boardRows = await tx.select().from(boards).where(currentBoard(projectId)).orderBy(asc(boards.id));
  const [doc] = await tx.select().from(edaDocuments).where(eq(edaDocuments.projectId, projectId));
  const bomFile = doc?.bomAttachmentId ? files.find((file) => file.id === doc.bomAttachmentId) : undefined;
  let bom: Pick<VersionRow, 'bomAttachmentId' | 'bomStatus' | 'bomSource' | 'bomLines'> = { bomAttachmentId: null, bomStatus: 'none', bomSource: null, bomLines: [] };
  if (bomFile) {
    bom = { bomAttachmentId: bomFile.id, bomStatus: 'queued', bomSource: bomFile.name, bomLines: [] };
    if (doc!.status === 'ready') {
      const lines = await tx.select().from(bomLines).where(eq(bomLines.projectId, projectId)).orderBy(asc(bomLines.lineNo));
      bom = { ...bom, bomStatus: 'ready', bomLines: lines.map(({ projectId: _project, ...line }) => line) };
    }
  }
  const [source] = await tx.select({ id: designSources.id }).from(designSources).where(currentSource(projectId)).orderBy(asc(designSources.id)).limit(1);
  await tx
    .update(projectVersions)
    .set({ boards: boardRows.map(versionBoardOf), ...bom, designSourceId: source?.id ?? null, updatedAt: new Date() })
    .where(eq(projectVersions.id, versionId));
}

/**
 * Releases a new version of the project from its files as they are now (after the edit's
 * attachments and boards were written), numbered after the last, and keeps `versionCount`
 * right. A version after the first is told to followers (call `announceActivities` after commit).
 */
export async function releaseVersion(tx: Tx, projectId: number, actorId: number, publicId: string, input: VersionInput): Promise<number> {
  await lockProject(tx, projectId);
  await assertVersionNameFree(tx, projectId, input.name);
  const [last] = await tx
    .select({ number: projectVersions.number })
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId))
    .orderBy(desc(projectVersions.number))
    .limit(1);
  const number = (last?.number ?? 0) + 1;
  const [row] = await tx.insert(projectVersions).values({ projectId, number, name: input.name, notes: input.notes }).returning({ id: projectVersions.id });
  await snapshotProject(tx, row!.id, projectId);
  await countVersions(tx, projectId);
  if (number > 1) await recordActivity(tx, { kind: 'version', actorId, projectId, refId: row!.id, title: input.name, path: `/d-${publicId}/versions` });
  return number;
}

async function countVersions(tx: Tx, projectId: number): Promise<void> {
  await tx
    .update(projects)
    .set({ versionCount: sql`(SELECT count(*)::int FROM ${projectVersions} WHERE ${projectVersions.projectId} = ${projectId})` })
    .where(eq(projects.id, projectId));
}

/**
 * Gives a project published before versions existed its version 1 (`v1`, dated when it was
 * published, with its files as they are now), in the caller's transaction; nothing when it has one.
 */
export async function ensureFirstVersion(tx: Tx, projectId: number): Promise<void> {
  const project = await lockProject(tx, projectId);
  if (!project) return;
  const [any] = await tx.select({ id: projectVersions.id }).from(projectVersions).where(eq(projectVersions.projectId, projectId)).limit(1);
  if (any) return;
  const date = project.publishedAt ?? project.createdAt;
  const [row] = await tx
    .insert(projectVersions)
    .values({ projectId, number: 1, name: FIRST_VERSION_NAME, createdAt: date, updatedAt: date })
    .returning({ id: projectVersions.id });
  await snapshotProject(tx, row!.id, projectId);
  await countVersions(tx, projectId);
}

/** The name of the project's latest version (`v1` for a project from before versions, which will get that one). */
export async function latestVersionName(projectId: number): Promise<string> {
  const [latest] = await getDb()
    .select({ name: projectVersions.name })
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId))
    .orderBy(desc(projectVersions.number))
    .limit(1);
  return latest?.name ?? FIRST_VERSION_NAME;
}

/** An edit published without a new version: the latest version now has the edit's files, boards and BOM. */
export async function amendLatestVersion(tx: Tx, projectId: number): Promise<void> {
  const [latest] = await tx
    .select({ id: projectVersions.id })
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId))
    .orderBy(desc(projectVersions.number))
    .limit(1);
  if (latest) await snapshotProject(tx, latest.id, projectId);
}

/**
 * Deletes the project's retired boards (kept for a version) that no version shows any more — an
 * edit amended the latest version away from them — and answers their render files, to be
 * deleted once the change is committed.
 */
export async function pruneRetiredBoards(tx: Tx, projectId: number): Promise<string[]> {
  const retired = await tx
    .select()
    .from(boards)
    .where(and(eq(boards.projectId, projectId), isNotNull(boards.retiredAt)));
  const shown = retired.length > 0 ? await boardsVersionsShow(tx, projectId) : new Set<number>();
  const unused = retired.filter((row) => !shown.has(row.id));
  if (unused.length > 0) await tx.delete(boards).where(inArray(boards.id, unused.map((row) => row.id)));
  // Design sources kept for a version go the same way once no version names them.
  const unnamedSources = await tx
    .delete(designSources)
    .where(
      and(
        eq(designSources.projectId, projectId),
        isNotNull(designSources.retiredAt),
        sql`NOT EXISTS (SELECT 1 FROM ${projectVersions} v WHERE v.design_source_id = ${designSources.id})`,
      ),
    )
    .returning();
  return [...unused.flatMap(boardKeys), ...unnamedSources.flatMap(sourceKeys)];
}

const downloadUrl = (fileId: string) => `/api/version/download?id=${encodeURIComponent(fileId)}`;

/**
 * `version/list` and the Versions tab: the versions of a published project `viewerId` may see,
 * newest first, with their files and how far their boards and BOM are read. A project published
 * before versions existed gets its version 1 here.
 */
export async function listVersions(publicId: string, viewerId: number | null): Promise<VersionInfo[]> {
  const project = await findPublishedProject(publicId, viewerId);
  return listVersionsOf(project.id);
}

/**
 * A project's version rows, newest first, with boards the job has finished since they were copied
 * brought up to date (and kept so): an edit amending a version while its board finished may have
 * copied the board a moment before the job did.
 */
/**
 * The project's releases after its first, newest first, as entries of the project's Atom feed (the
 * first version is the publication itself, which the site's feeds already carry).
 */
export async function listVersionFeedEntries(
  project: { id: number; title: string; owner: { url: string; nickname: string } },
  publicId: string,
  limit: number,
): Promise<FeedEntry[]> {
  const rows = await getDb()
    .select({ number: projectVersions.number, name: projectVersions.name, notes: projectVersions.notes, createdAt: projectVersions.createdAt, updatedAt: projectVersions.updatedAt })
    .from(projectVersions)
    .where(and(eq(projectVersions.projectId, project.id), gt(projectVersions.number, 1)))
    .orderBy(desc(projectVersions.number))
    .limit(limit);
  return rows.map((row) => ({
    id: publicId,
    path: `${projectTabPath(publicId, 'versions')}#version-${row.number}`,
    title: `${project.title} ${row.name}`,
    summary: row.notes.slice(0, 280),
    author: project.owner,
    publishedAt: row.createdAt,
    updatedAt: row.updatedAt,
    image: null,
    tags: [],
  }));
}

async function readVersionRows(projectId: number): Promise<VersionRow[]> {
  const db = getDb();
  let rows = await db.select().from(projectVersions).where(eq(projectVersions.projectId, projectId)).orderBy(desc(projectVersions.number));
  if (rows.length === 0) {
    await db.transaction((tx) => ensureFirstVersion(tx, projectId));
    rows = await db.select().from(projectVersions).where(eq(projectVersions.projectId, projectId)).orderBy(desc(projectVersions.number));
  }
  const waiting = [...new Set(rows.flatMap((row) => row.boards.filter((board) => board.status === 'queued' || board.status === 'processing').map((board) => board.boardId)))];
  if (waiting.length === 0) return rows;
  const finished = await db
    .select()
    .from(boards)
    .where(and(inArray(boards.id, waiting), inArray(boards.status, ['ready', 'failed'])));
  if (finished.length === 0) return rows;
  for (const row of finished) await copyBoardIntoVersions(row.id);
  return db.select().from(projectVersions).where(eq(projectVersions.projectId, projectId)).orderBy(desc(projectVersions.number));
}

/** The versions of a project found already (its page's tab), newest first. */
export async function listVersionsOf(projectId: number): Promise<VersionInfo[]> {
  const db = getDb();
  const rows = await readVersionRows(projectId);
  const files =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(versionFiles)
          .where(inArray(versionFiles.versionId, rows.map((row) => row.id)))
          .orderBy(asc(versionFiles.sort));
  return rows.map((row, index) => ({
    number: row.number,
    name: row.name,
    notes: row.notes,
    date: row.createdAt.toISOString(),
    latest: index === 0,
    files: files
      .filter((file) => file.versionId === row.id)
      .map((file) => ({ id: file.id, name: file.name, kind: file.kind, size: file.size, url: downloadUrl(file.id), downloadCount: file.downloadCount })),
    boards: {
      total: row.boards.length,
      ready: row.boards.filter((board) => board.status === 'ready').length,
      failed: row.boards.filter((board) => board.status === 'failed').length,
    },
    bom: row.bomStatus,
  }));
}

/**
 * Finds a version by what a reader typed: its name first (`v1.1`), then its number (`2`), so a
 * version named `2` is found by that name.
 */
function findVersion(rows: VersionRow[], ref: string): VersionRow {
  const found = rows.find((row) => row.name === ref) ?? (/^\d{1,9}$/.test(ref) ? rows.find((row) => row.number === Number(ref)) : undefined);
  if (!found) throw new AppError('version_not_found');
  return found;
}

/** `version/diff` input: two versions by name or number. */
export const versionDiffInputSchema = zod.object({
  id: zod.string().trim().min(1).max(64),
  from: zod.coerce.string().trim().min(1).max(VERSION_NAME_MAX),
  to: zod.coerce.string().trim().min(1).max(VERSION_NAME_MAX),
});

/**
 * `version/diff` and the compare page: what changed from version `from` to version `to` (names
 * or numbers) of a published project — the BOM lines added, removed and changed, and per board
 * its size, layer count and each layer's two renders.
 */
export async function diffVersions(publicId: string, viewerId: number | null, fromRef: string, toRef: string): Promise<VersionDiff> {
  const project = await findPublishedProject(publicId, viewerId);
  const rows = await readVersionRows(project.id);
  const [from, to] = [findVersion(rows, fromRef), findVersion(rows, toRef)];
  if (from.id === to.id) throw new AppError('same_version');
  const bom = diffBom(from.bomLines, to.bomLines);
  return {
    from: { number: from.number, name: from.name },
    to: { number: to.number, name: to.name },
    bom: { ...bom, ready: from.bomStatus !== 'queued' && to.bomStatus !== 'queued', present: from.bomStatus !== 'none' || to.bomStatus !== 'none' },
    boards: await diffBoards(from.boards, to.boards),
    source: await diffSources(from.designSourceId, to.designSourceId),
  };
}

type SourceRow = typeof designSources.$inferSelect;
const checkCounts = (row: SourceRow) => ({
  drc: row.drc ? { errors: row.drc.errors, warnings: row.drc.warnings } : null,
  erc: row.erc ? { errors: row.erc.errors, warnings: row.erc.warnings } : null,
});

/** The two versions' design sources: each sheet (paired by its path in the hierarchy) and both versions' check counts. */
async function diffSources(fromId: number | null, toId: number | null): Promise<VersionDiff['source']> {
  if (fromId === null && toId === null) return null;
  const ids = [fromId, toId].filter((id): id is number => id !== null);
  const rows = await getDb().select().from(designSources).where(inArray(designSources.id, ids));
  const a = rows.find((row) => row.id === fromId) ?? null;
  const b = rows.find((row) => row.id === toId) ?? null;
  const pending = [a, b].some((row) => row && (row.status === 'queued' || row.status === 'processing' || row.status === 'waiting'));
  const ready = (row: SourceRow | null) => (row?.status === 'ready' ? row : null);
  const checks = { before: ready(a) ? checkCounts(a!) : null, after: ready(b) ? checkCounts(b!) : null };
  if (pending) return { status: 'pending', sheets: [], checks };
  const before = new Map((ready(a)?.sheets ?? []).map((sheet) => [sheet.path, sheet]));
  const after = new Map((ready(b)?.sheets ?? []).map((sheet) => [sheet.path, sheet]));
  const sheets: SheetDiff[] = [];
  for (const sheetPath of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(sheetPath);
    const y = after.get(sheetPath);
    const sheet = (y ?? x)!;
    const status = !x ? 'added' : !y ? 'removed' : (await sameRender(x.key, y.key)) ? 'same' : 'changed';
    sheets.push({ name: sheet.name, path: sheetPath, status, before: x ? fileUrl(x.key) : null, after: y ? fileUrl(y.key) : null, widthMm: Math.max(x?.widthMm ?? 0, y?.widthMm ?? 0), heightMm: Math.max(x?.heightMm ?? 0, y?.heightMm ?? 0) });
  }
  // In page order of the newer version, sheets only the older one had after them.
  const page = (sheet: SheetDiff) => after.get(sheet.path)?.page ?? 1000 + (before.get(sheet.path)?.page ?? 0);
  return { status: 'ready', sheets: sheets.sort((p, q) => page(p) - page(q)), checks };
}

/** Pairs the two versions' boards: by name, and a single board on each side with each other whatever their names. */
function pairBoards(before: VersionBoard[], after: VersionBoard[]): [VersionBoard | null, VersionBoard | null][] {
  if (before.length === 1 && after.length === 1) return [[before[0]!, after[0]!]];
  const rest = [...after];
  const pairs: [VersionBoard | null, VersionBoard | null][] = before.map((board) => {
    const index = rest.findIndex((candidate) => candidate.name === board.name);
    return [board, index >= 0 ? rest.splice(index, 1)[0]! : null];
  });
  return [...pairs, ...rest.map((board): [null, VersionBoard] => [null, board])];
}

const size = (board: VersionBoard) => ({ widthMm: board.widthMm, heightMm: board.heightMm, layerCount: board.layerCount });
const settled = (board: VersionBoard | null) => board === null || board.status === 'ready' || board.status === 'failed';

async function diffBoards(before: VersionBoard[], after: VersionBoard[]): Promise<BoardDiff[]> {
  const result: BoardDiff[] = [];
  for (const [a, b] of pairBoards(before, after)) {
    const name = (b ?? a)!.name;
    const frames = overlayFrames(a?.viewBoxMm ?? null, b?.viewBoxMm ?? null);
    const sizes = { before: a?.status === 'ready' ? size(a) : null, after: b?.status === 'ready' ? size(b) : null };
    if (!settled(a) || !settled(b)) {
      result.push({ name, status: 'pending', ...sizes, frames, layers: [] });
      continue;
    }
    const layers = await diffLayers(a?.layers ?? [], b?.layers ?? []);
    const resized = sizes.before && sizes.after && JSON.stringify(sizes.before) !== JSON.stringify(sizes.after);
    const status = !a ? 'added' : !b ? 'removed' : resized || layers.some((layer) => layer.status !== 'same') ? 'changed' : 'same';
    result.push({ name, status, ...sizes, frames, layers });
  }
  return result;
}

/** `top copper`, `inner copper #2`: how a layer is known in both versions (inner layers by their order). */
function layerKeys(layers: StoredLayer[]): Map<string, StoredLayer> {
  const seen = new Map<string, number>();
  const keyed = new Map<string, StoredLayer>();
  for (const layer of layers) {
    if (!layer.key) continue;
    const base = `${layer.side} ${layer.type}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    keyed.set(n === 1 ? base : `${base} #${n}`, layer);
  }
  return keyed;
}

/** Layers are drawn from the top side down, as a board is seen. */
const LAYER_ORDER = ['copper', 'soldermask', 'silkscreen', 'solderpaste', 'drill', 'outline', 'drawing'];
const SIDE_ORDER = ['top', 'inner', 'bottom', 'all'];

async function diffLayers(before: StoredLayer[], after: StoredLayer[]): Promise<LayerDiff[]> {
  const a = layerKeys(before);
  const b = layerKeys(after);
  const names = [...new Set([...a.keys(), ...b.keys()])];
  const diffs: LayerDiff[] = [];
  for (const name of names) {
    const x = a.get(name);
    const y = b.get(name);
    const layer = (y ?? x)!;
    const status = !x ? 'added' : !y ? 'removed' : (await sameRender(x.key!, y.key!)) ? 'same' : 'changed';
    diffs.push({ type: layer.type, side: layer.side, status, filename: layer.filename, before: x?.key ? fileUrl(x.key) : null, after: y?.key ? fileUrl(y.key) : null });
  }
  return diffs.sort((p, q) => SIDE_ORDER.indexOf(p.side) - SIDE_ORDER.indexOf(q.side) || LAYER_ORDER.indexOf(p.type) - LAYER_ORDER.indexOf(q.type));
}

/** Whether two layer renders are the same drawing: the same stored file, or the same bytes. */
async function sameRender(keyA: string, keyB: string): Promise<boolean> {
  if (keyA === keyB) return true;
  const [a, b] = await Promise.all([renderDigest(keyA), renderDigest(keyB)]);
  return a !== null && a === b;
}

/** Digests of layer renders read once: a render file never changes under its key. */
const digests = new Map<string, string | null>();
const DIGESTS_KEPT = 2000;

async function renderDigest(key: string): Promise<string | null> {
  if (digests.has(key)) return digests.get(key)!;
  const bytes = await readStoredBytes(key);
  const digest = bytes ? createHash('sha256').update(withoutRenderIds(bytes.toString('utf8'))).digest('hex') : null;
  if (digests.size >= DIGESTS_KEPT) digests.delete(digests.keys().next().value!);
  digests.set(key, digest);
  return digest;
}


/**
 * A file of a version of a published project (or of the viewer's own project) as a download, even
 * after the project dropped it: counted like attachment downloads (unless `count` is false).
 */
export async function findVersionFileDownload(fileId: string, viewerId: number | null, count: boolean): Promise<StoredDownload> {
  const db = getDb();
  const [row] = await db
    .select({ file: versionFiles, ownerId: projects.ownerId, visible: isPublishedFor(viewerId) })
    .from(versionFiles)
    .innerJoin(projectVersions, eq(projectVersions.id, versionFiles.versionId))
    .innerJoin(projects, eq(projects.id, projectVersions.projectId))
    .where(eq(versionFiles.id, fileId))
    .limit(1);
  if (!row || (!row.visible && row.ownerId !== viewerId)) throw new AppError('not_found');
  const { name, mime, storageKey } = row.file;
  return {
    name,
    mime,
    storageKey,
    count: async () => {
      if (count) await db.update(versionFiles).set({ downloadCount: sql`${versionFiles.downloadCount} + 1` }).where(eq(versionFiles.id, fileId));
    },
  };
}
