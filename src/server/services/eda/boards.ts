/**
 * A project's electronics: which boards its Gerber attachments make, the state of their
 * rendering, its BOM and part placements, and what `/eda/{id}` and `eda/detail` show. Rendering
 * and parsing happen in the job queue (`eda-processing.ts`); this file plans that work when
 * attachments change and reads its results.
 */
import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, isNull, lt, or, sql, type SQLWrapper } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import type { BomColumn, BomExportFormat } from '../../../lib/contract/eda.ts';
import { getDb, type Tx } from '../../db/client.ts';
import { preparedShapes } from '../../db/prepared.ts';
import { attachments, boards, bomLines, designSources, edaDocuments, projectVersions } from '../../db/schema/index.ts';
import { exportBom } from '../../electronics/bom-export.ts';
import { exportJlcCpl } from '../../electronics/cpl-export.ts';
import { AppError } from '../../http/errors.ts';
import { sendJob } from '../../jobs/queue.ts';
import { getStorage, fileUrl } from '../../storage/index.ts';
import { downloadName, type StoredDownload } from '../media/index.ts';
import { log } from '../../log.ts';
import { findPublishedProject } from '../core/index.ts';
import type { Board, BoardFacts, Bom, EdaDetail, FabricationFile, Placement, PlacementError, StoredBoardFacts } from '../../../lib/contract/schemas/eda.ts';
import { currentSourceRow, isZip, planDesignSource, stem, type AttachedFile, readySource, resumePendingSources, sourceBoardWanted, startDesignSource, toDesignSource } from './design-sources.ts';

/** What changed in a project's electronics when its attachments changed; started after commit. */
export interface EdaPlan {
  projectId: number;
  /** Boards to render (new rows, `queued`). */
  boardIds: number[];
  /** The BOM or placement file changed: read them again. */
  documents: boolean;
  /** A new design source to read with `kicad-cli`. */
  sourceId: number | null;
  /** Storage keys of boards whose files are gone, deleted once the change is committed. */
  orphanKeys: string[];
}


/**
 * The boards a set of attachments makes: each Gerber zip is a board, and the loose Gerber and
 * drill files together are one more (named after what their names share).
 */
export function boardGroups(files: AttachedFile[]): { sources: string[]; name: string }[] {
  const gerbers = files.filter((file) => file.kind === 'gerber');
  const groups = gerbers.filter(isZip).map((file) => ({ sources: [file.id], name: stem(file.name) || 'board' }));
  const loose = gerbers.filter((file) => !isZip(file));
  if (loose.length > 0) groups.push({ sources: loose.map((file) => file.id).sort(), name: commonStem(loose.map((file) => stem(file.name))) });
  return groups;
}

/** `sangaboard_v0.4-F_Cu`, `sangaboard_v0.4-B_Cu` → `sangaboard_v0.4`. */
function commonStem(names: string[]): string {
  let prefix = names[0] ?? '';
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.replace(/[\s._-]+$/, '') || 'board';
}

const sourcesKey = (sources: string[]) => [...sources].sort().join(',');
/** What makes a board row: its Gerber attachments, or the design source whose Gerbers it renders. */
const boardKey = (row: { sources: string[]; designSourceId?: number | null }) => (row.designSourceId ? `source:${row.designSourceId}` : sourcesKey(row.sources));

/** The same attachment ids in the same order. */
export const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, index) => id === b[index]);

/** Every stored file of a board row. */
export function boardKeys(row: {
  topKey: string | null;
  bottomKey: string | null;
  previewKey: string | null;
  previewJpegKey: string | null;
  layers: { key: string | null }[];
  modelKey: string | null;
}): string[] {
  // A model under `sources/` is the design source's, deleted with the source.
  const model = row.modelKey?.startsWith('boards/') ? row.modelKey : null;
  return [row.topKey, row.bottomKey, row.previewKey, row.previewJpegKey, ...row.layers.map((layer) => layer.key), model].filter((key): key is string => Boolean(key));
}

/** The project's own boards: not those kept only for one of its versions. */
export const currentBoard = (projectId: number | SQLWrapper) => and(eq(boards.projectId, projectId), isNull(boards.retiredAt))!;

/**
 * Brings a project's boards and documents in line with its attachments, inside the transaction
 * that changed them: boards whose files are gone are removed (or retired, while a version of the
 * project still shows them), new Gerber sets become `queued` boards, and a changed BOM or
 * placement file queues the documents again. Nothing is rendered here.
 */
export async function planProjectEda(tx: Tx, projectId: number): Promise<EdaPlan> {
  const files = await tx
    .select({ id: attachments.id, name: attachments.name, mime: attachments.mime, kind: attachments.kind, sort: attachments.sort })
    .from(attachments)
    .where(eq(attachments.projectId, projectId))
    .orderBy(asc(attachments.sort));
  const source = await planDesignSource(tx, projectId, files);
  const plan: EdaPlan = { projectId, boardIds: [], documents: false, sourceId: source.sourceId, orphanKeys: source.orphanKeys };
  const ready = await readySource(tx, projectId);
  const groups = boardGroups(files);
  // Without a Gerber set of the member's own, the design source's Gerbers make the board.
  const sourceBoard = sourceBoardWanted(ready, groups.length);
  const wanted: Array<{ sources: string[]; name: string; designSourceId?: number; sourceZipKey?: string }> = sourceBoard ? [{ sources: [], ...sourceBoard }] : groups;
  const existing = await tx.select().from(boards).where(currentBoard(projectId));

  const wantedKeys = new Set(wanted.map(boardKey));
  const gone = existing.filter((row) => !wantedKeys.has(boardKey(row)));
  if (gone.length > 0) {
    const shown = await boardsVersionsShow(tx, projectId);
    const kept = gone.filter((row) => shown.has(row.id));
    const dropped = gone.filter((row) => !shown.has(row.id));
    if (kept.length > 0) await tx.update(boards).set({ retiredAt: new Date() }).where(inArray(boards.id, kept.map((row) => row.id)));
    if (dropped.length > 0) await tx.delete(boards).where(inArray(boards.id, dropped.map((row) => row.id)));
    plan.orphanKeys.push(...dropped.flatMap(boardKeys));
  }
  const kept = new Set(existing.map(boardKey));
  const fresh = wanted.filter((group) => !kept.has(boardKey(group)));
  if (fresh.length > 0) {
    const rows = await tx
      .insert(boards)
      .values(fresh.map((group) => ({ projectId, sources: group.sources, name: group.name.slice(0, 120), designSourceId: group.designSourceId ?? null, sourceZipKey: group.sourceZipKey ?? null })))
      .returning({ id: boards.id });
    plan.boardIds = rows.map((row) => row.id);
  }

  const bom = files.find((file) => file.kind === 'bom') ?? null;
  // Every placement file: EAGLE writes each side to its own (.mnt top, .mnb bottom).
  const placementIds = files.filter((file) => file.kind === 'placement').map((file) => file.id);
  // The source's BOM or placements stand in for a missing file of either.
  const standIn = ready && ((!bom && ready.bomLines.length > 0) || (placementIds.length === 0 && ready.placements.length > 0)) ? ready.id : null;
  const [doc] = await tx.select().from(edaDocuments).where(eq(edaDocuments.projectId, projectId));
  if (
    !doc
      ? bom || placementIds.length > 0 || standIn
      : doc.bomAttachmentId !== (bom?.id ?? null) || !sameIds(doc.placementAttachmentIds, placementIds) || doc.designSourceId !== standIn
  ) {
    const values = { status: 'queued' as const, bomAttachmentId: bom?.id ?? null, placementAttachmentIds: placementIds, designSourceId: standIn, updatedAt: new Date() };
    await tx.insert(edaDocuments).values({ projectId, ...values }).onConflictDoUpdate({ target: edaDocuments.projectId, set: values });
    plan.documents = true;
  }
  return plan;
}

/** Ids of the boards the project's versions show. */
export async function boardsVersionsShow(tx: Tx, projectId: number): Promise<Set<number>> {
  const rows = await tx
    .select({ id: sql<number>`(jsonb_array_elements(${projectVersions.boards}) ->> 'boardId')::int` })
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId));
  return new Set(rows.map((row) => Number(row.id)));
}

/**
 * Starts the work a committed plan asks for. A job that cannot be sent now (the queue is down)
 * is sent again by `resumePendingEda`, which the job workers run at start and every minute.
 */
export async function startProjectEda(plan: EdaPlan): Promise<void> {
  try {
    if (plan.sourceId) await startDesignSource(plan.sourceId);
    for (const boardId of plan.boardIds) await sendJob('board', { boardId }, `board:${boardId}`);
    if (plan.documents) await sendJob('documents', { projectId: plan.projectId }, `documents:${plan.projectId}`);
  } catch (error) {
    log.warn({ component: 'eda', err: error }, 'could not queue jobs, they will be resumed');
  }
  const storage = getStorage();
  await Promise.all(plan.orphanKeys.map((key) => storage.delete(key).catch(() => undefined)));
}

/** A board not moved on for this long after its last change is sent to the queue again. */
const RESEND_AFTER_MS = 6 * 60 * 1000;

/**
 * Sends jobs for work that has none: boards still `queued` (their job was never sent, or was
 * lost with a database restore) or `processing` long after any worker touched them, and
 * documents still `queued`. The queue drops a send while the same work waits or runs.
 */
export async function resumePendingEda(): Promise<number> {
  const db = getDb();
  const stale = new Date(Date.now() - RESEND_AFTER_MS);
  const pendingBoards = await db
    .select({ id: boards.id })
    .from(boards)
    .where(or(eq(boards.status, 'queued'), and(eq(boards.status, 'processing'), lt(boards.updatedAt, stale))));
  const pendingDocs = await db.select({ projectId: edaDocuments.projectId }).from(edaDocuments).where(eq(edaDocuments.status, 'queued'));
  for (const row of pendingBoards) await sendJob('board', { boardId: row.id }, `board:${row.id}`);
  for (const row of pendingDocs) await sendJob('documents', { projectId: row.projectId }, `documents:${row.projectId}`);
  return pendingBoards.length + pendingDocs.length + (await resumePendingSources());
}

/**
 * Renders again the project boards made before what they now carry existed: boards without facts
 * (or without the warnings of their facts), and boards from Gerbers without a 3D model (a design source's board gets its model from the
 * source: `refreshDesignSources`). With `all`, every ready board. Each shows as rendering until its
 * job is done, then with what the pipeline makes today. Answers how many were queued.
 */
export async function refreshBoards(options: { all: boolean }): Promise<number> {
  // Facts without `warnings` were measured before a set's missing drill or job layers were checked.
  const outdated = or(isNull(boards.facts), sql`NOT (${boards.facts} ? 'warnings')`, and(isNull(boards.modelKey), isNull(boards.sourceZipKey)));
  const rows = await getDb()
    .update(boards)
    .set({ status: 'queued', attempts: 0, updatedAt: new Date() })
    .where(and(eq(boards.status, 'ready'), isNull(boards.retiredAt), options.all ? undefined : outdated))
    .returning({ id: boards.id });
  for (const row of rows) await sendJob('board', { boardId: row.id }, `board:${row.id}`);
  return rows.length;
}

type BoardRow = typeof boards.$inferSelect;

/** A board row as the API shows it. */
export function toBoard(row: BoardRow): Board {
  const ready = row.status === 'ready';
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    ...(row.status === 'failed' && row.errorKey ? { errorKey: row.errorKey, ...(row.errorFile ? { errorFile: row.errorFile } : {}) } : {}),
    widthMm: ready ? row.widthMm : null,
    heightMm: ready ? row.heightMm : null,
    layerCount: ready ? row.layerCount : null,
    tool: ready ? row.tool : null,
    layers: row.layers.map((layer) => ({ type: layer.type, side: layer.side, purpose: layer.purpose ?? null, filename: layer.filename, url: ready && layer.key ? fileUrl(layer.key) : null })),
    top: ready && row.topKey ? fileUrl(row.topKey) : null,
    bottom: ready && row.bottomKey ? fileUrl(row.bottomKey) : null,
    preview: ready && row.previewKey ? fileUrl(row.previewKey) : null,
    facts: ready && row.facts ? boardFacts(row.facts, row.parts) : null,
    model: ready && row.modelKey && row.modelBytes ? { url: fileUrl(row.modelKey), bytes: row.modelBytes } : null,
  };
}

/** The stored facts with the parts per side counted from the board's placements (unknown without any). */
function boardFacts(facts: StoredBoardFacts, parts: BoardRow['parts']): BoardFacts {
  const placed = parts.length > 0;
  return {
    ...facts,
    partsTop: placed ? parts.filter((part) => part.side === 'top').length : null,
    partsBottom: placed ? parts.filter((part) => part.side === 'bottom').length : null,
  };
}

/**
 * The boards of a project for `viewerIsOwner`: its author (and the API for them) sees every
 * board with its state; everyone else sees ready boards only.
 */
export async function listProjectBoards(projectId: number, viewerIsOwner: boolean): Promise<Board[]> {
  const rows = await projectBoards(viewerIsOwner ? 'owner' : 'reader').execute({ projectId });
  return rows.map(toBoard);
}

/** Read on every project page: built once for its owner (every current board) and once for everyone else (ready ones). */
const projectBoards = preparedShapes('project_boards', ['owner', 'reader'] as const, (db, shape, name) => {
  const current = currentBoard(sql.placeholder('projectId'));
  return db
    .select()
    .from(boards)
    .where(shape === 'owner' ? current : and(current, eq(boards.status, 'ready')))
    .orderBy(asc(boards.id))
    .prepare(name);
});

/** The placement files the last read of the project's documents could not use (none while they wait to be read again). */
async function readPlacementErrors(projectId: number): Promise<PlacementError[]> {
  const [doc] = await getDb()
    .select({ status: edaDocuments.status, errors: edaDocuments.placementErrors })
    .from(edaDocuments)
    .where(eq(edaDocuments.projectId, projectId));
  return doc?.status === 'ready' ? doc.errors : [];
}

async function readBom(projectId: number): Promise<Bom> {
  const db = getDb();
  const [doc] = await db
    .select({ doc: edaDocuments, sourceName: attachments.name, designSourceName: designSources.name })
    .from(edaDocuments)
    .leftJoin(attachments, eq(attachments.id, edaDocuments.bomAttachmentId))
    .leftJoin(designSources, eq(designSources.id, edaDocuments.designSourceId))
    .where(eq(edaDocuments.projectId, projectId));
  // A BOM read from the design source is named after its root schematic.
  const fromSource = !doc?.doc.bomAttachmentId && doc?.designSourceName && doc.doc.bomColumns.length > 0 ? `${doc.designSourceName}.kicad_sch` : null;
  if (!doc?.doc.bomAttachmentId && !fromSource) return { source: null, columns: [], lines: [] };
  const lines = await db.select().from(bomLines).where(eq(bomLines.projectId, projectId)).orderBy(asc(bomLines.lineNo));
  return {
    source: fromSource ?? doc!.sourceName ?? null,
    columns: doc!.doc.bomColumns as BomColumn[],
    lines: lines.map(({ projectId: _project, ...line }) => line),
    ...(doc!.doc.bomErrorKey ? { errorKey: doc!.doc.bomErrorKey, foundColumns: doc!.doc.bomFoundColumns ?? [] } : {}),
  };
}

/** The parts of the project's placement files on its first ready board (none without one). */
function boardParts(board: BoardRow | undefined): Placement[] {
  return board ? board.parts.map((part) => ({ boardId: board.id, ...part })) : [];
}

const FABRICATION_KINDS = ['gerber', 'bom', 'placement'];

/**
 * The Gerber zip `kicad-cli` wrote from the project's design source, when it is the project's
 * board (no Gerber set attached): a builder orders from it like from an attached one.
 */
async function sourceGerbers(projectId: number): Promise<{ name: string; storageKey: string; size: number } | null> {
  const [row] = await getDb()
    .select({ name: designSources.name, key: designSources.gerberZipKey })
    .from(boards)
    .innerJoin(designSources, eq(designSources.id, boards.designSourceId))
    .where(and(currentBoard(projectId), eq(boards.status, 'ready')))
    .limit(1);
  if (!row?.key) return null;
  const size = await getStorage().size(row.key);
  return size === null ? null : { name: `${row.name}-gerbers.zip`, storageKey: row.key, size };
}

/**
 * The project's fabrication files, and whether it attaches KiCad files (read in the same query,
 * so a project without a design source costs no query for one).
 */
async function readFabrication(projectId: number): Promise<{ files: FabricationFile[]; hasKicad: boolean }> {
  const rows = await getDb()
    .select({ id: attachments.id, name: attachments.name, size: attachments.size, kind: attachments.kind, downloadCount: attachments.downloadCount })
    .from(attachments)
    .where(and(eq(attachments.projectId, projectId), inArray(attachments.kind, [...FABRICATION_KINDS, 'kicad'] as never[])))
    .orderBy(asc(attachments.sort));
  return {
    files: rows.filter((row) => row.kind !== 'kicad').map((row) => ({ ...row, url: `/api/attachment/download?id=${encodeURIComponent(row.id)}` })),
    hasKicad: rows.some((row) => row.kind === 'kicad'),
  };
}

/** `eda/detail` and `/eda/{id}`: a published project's boards, design source, BOM, placements and fabrication files. */
export async function getEdaDetail(publicId: string, viewerId: number | null): Promise<EdaDetail> {
  const project = await findPublishedProject(publicId, viewerId);
  const isOwner = viewerId !== null && viewerId === project.ownerId;
  const db = getDb();
  const boardRows = await db.select().from(boards).where(currentBoard(project.id)).orderBy(asc(boards.id));
  const visible = boardRows.filter((row) => isOwner || row.status === 'ready');
  const firstReady = boardRows.find((row) => row.status === 'ready');
  const [bom, placementErrors, fabrication] = await Promise.all([readBom(project.id), readPlacementErrors(project.id), readFabrication(project.id)]);
  const source = fabrication.hasKicad ? await currentSourceRow(project.id) : undefined;
  const files = fabrication.files;
  // The Gerbers kicad-cli wrote are the board's when it is the source's: a builder orders from them.
  if (source?.gerberZipKey && firstReady && firstReady.designSourceId === source.id) {
    const size = await getStorage().size(source.gerberZipKey);
    // Not an attachment: it has no download count of its own, and is served as a stored file.
    if (size !== null) files.unshift({ id: 'source-gerbers', name: `${source.name}-gerbers.zip`, size, kind: 'gerber', downloadCount: 0, url: fileUrl(source.gerberZipKey) });
  }
  return { boards: visible.map(toBoard), source: source ? toDesignSource(source, firstReady) : null, bom, placements: boardParts(firstReady), placementErrors, fabrication: files };
}

/** A published project's BOM as an ordering upload for `format`, quantities for `boardCount` boards. */
export async function exportProjectBom(publicId: string, format: BomExportFormat, boardCount: number): Promise<{ filename: string; csv: string }> {
  const project = await findPublishedProject(publicId);
  const bom = await readBom(project.id);
  if (!bom.source || bom.lines.length === 0) throw new AppError('not_found');
  const exported = exportBom(bom.lines, format, boardCount);
  return { filename: `${publicId}-${exported.filename}`, csv: exported.csv };
}

/**
 * Every fabrication file of a published project (Gerbers, BOM, placements) in one zip, streamed
 * as it is read from storage: nothing is held whole in memory. 404 when there are none.
 */
export async function streamFabricationZip(publicId: string): Promise<{ filename: string; stream: Readable }> {
  const project = await findPublishedProject(publicId);
  const files = await getDb()
    .select({ name: attachments.name, storageKey: attachments.storageKey })
    .from(attachments)
    .where(and(eq(attachments.projectId, project.id), inArray(attachments.kind, FABRICATION_KINDS as never[])))
    .orderBy(asc(attachments.sort));
  const generated = await sourceGerbers(project.id);
  return { filename: `${publicId}-fabrication.zip`, stream: await zipStoredFiles(generated ? [generated, ...files] : files) };
}

/**
 * Stored files in one zip, streamed as they are read from storage: nothing is held whole in
 * memory. Files gone from storage are left out; 404 when none is left. Zips inside are stored,
 * not compressed again.
 */
async function zipStoredFiles(files: { name: string; storageKey: string; size?: number }[]): Promise<Readable> {
  const storage = getStorage();
  const present: { name: string; storageKey: string; size: number }[] = [];
  for (const file of files) {
    const size = file.size ?? (await storage.size(file.storageKey));
    if (size !== null) present.push({ ...file, size });
  }
  if (present.length === 0) throw new AppError('not_found');
  const zip = new ZipFile();
  const used = new Set<string>();
  for (const file of present) {
    const name = uniqueName(downloadName(file.name, file.storageKey), used);
    const stream = await storage.read(file.storageKey);
    if (stream) zip.addReadStream(stream, name, { size: file.size, compress: !/\.zip$/i.test(name) });
  }
  zip.end();
  return zip.outputStream as Readable;
}

/** `a.gbr`, `a.gbr` → `a.gbr`, `a (2).gbr`: two attachments may share a name, zip entries may not. */
function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = name.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext}`);
  used.add(candidate.toLowerCase());
  return candidate;
}

/**
 * A published project's placements as JLCPCB's CPL file: the parts on its first ready board (the
 * board the placements are registered to), in that board's Gerber coordinates. 404 without them.
 */
export async function exportProjectCpl(publicId: string): Promise<{ filename: string; csv: string }> {
  const project = await findPublishedProject(publicId);
  const [board] = await getDb()
    .select()
    .from(boards)
    .where(and(currentBoard(project.id), eq(boards.status, 'ready')))
    .orderBy(asc(boards.id))
    .limit(1);
  if (!board?.viewBoxMm || board.heightMm === null || board.parts.length === 0) throw new AppError('not_found');
  return { filename: `${publicId}-cpl-jlc.csv`, csv: `\uFEFF${exportJlcCpl(board.parts, board.viewBoxMm, board.heightMm)}` };
}

/** A board's Gerbers: one stored zip answered as it is, or loose files zipped as they are read. */
export type BoardGerbers = { kind: 'stored'; file: StoredDownload } | { kind: 'zip'; filename: string; stream: Readable };

/**
 * The Gerber and drill files of one ready board of a published project, as a fab takes them by
 * address (`/eda/{id}/board-{boardId}-gerbers.zip`): its Gerber zip attachment as it is, its loose
 * Gerber files zipped, or the zip `kicad-cli` wrote from the design source it was made from. Only
 * that board's files: not the BOM, the placements or another board's Gerbers. 404 otherwise.
 */
export async function findBoardGerbers(publicId: string, boardId: number): Promise<BoardGerbers> {
  const project = await findPublishedProject(publicId);
  const db = getDb();
  const [board] = await db
    .select({ name: boards.name, sources: boards.sources, sourceZipKey: boards.sourceZipKey, designSourceId: boards.designSourceId })
    .from(boards)
    .where(and(currentBoard(project.id), eq(boards.id, boardId), eq(boards.status, 'ready')));
  if (!board) throw new AppError('not_found');
  const filename = `${publicId}-${board.name.replace(/[^\p{L}\p{N}._-]+/gu, '_') || 'board'}-gerbers.zip`;
  const stored = (storageKey: string): BoardGerbers => ({ kind: 'stored', file: { name: filename, mime: 'application/zip', storageKey, count: async () => undefined } });
  if (board.designSourceId !== null) {
    if (!board.sourceZipKey) throw new AppError('not_found');
    return stored(board.sourceZipKey);
  }
  const files = board.sources.length === 0 ? [] : await db
    .select({ id: attachments.id, name: attachments.name, mime: attachments.mime, storageKey: attachments.storageKey })
    .from(attachments)
    .where(and(eq(attachments.projectId, project.id), inArray(attachments.id, board.sources)))
    .orderBy(asc(attachments.sort));
  if (files.length === 0) throw new AppError('not_found');
  // A Gerber zip is a board of its own (`boardGroups`): it goes to the fab as it was attached.
  if (files.length === 1 && isZip(files[0]!)) return stored(files[0]!.storageKey);
  return { kind: 'zip', filename, stream: await zipStoredFiles(files) };
}
