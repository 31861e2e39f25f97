/**
 * The job queue's electronics work: rendering one board from its Gerber files, and reading a
 * project's BOM and pick-and-place files. Each job is idempotent — it starts from what the
 * database says now, so a job run twice (a retry after a crash, a duplicate send) does no harm,
 * and a board whose files changed meanwhile is left to its own new job.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { BoardError } from '../../electronics/errors.ts';
import { processGerberSet, type ProcessedBoard } from '../../electronics/process-board.ts';
import { buildGerberModel, gerberModelInput, type GerberModel } from '../../electronics/gerber-model.ts';
import { emptyBomLine, parseBom } from '../../electronics/bom.ts';
import { alignPlacements } from '../../electronics/placement-alignment.ts';
import { parsePlacements, type RawPlacement } from '../../electronics/placements.ts';
import { getDb } from '../../db/client.ts';
import { attachments, boards, bomLines, designSources, edaDocuments, placements, type StoredLayer } from '../../db/schema/index.ts';
import { getStorage, readStoredBytes } from '../../storage/index.ts';
import { currentBoard, sameIds } from './boards.ts';
import { purgeProjectPagesById } from '../core/index.ts';
import { log } from '../../log.ts';
import { copyBoardIntoVersions, copyBomIntoVersions, readWaitingVersionBoms, versionSourceFiles } from './version-boards.ts';
import type { PlacementError } from '../../../lib/contract/schemas/eda.ts';

/**
 * A board that has started processing this many times without finishing is failed: each start
 * ended in a crash (the worker process killed mid-render, or the renderer breaking in a way its
 * files do not explain), so a crash is retried once.
 */
export const MAX_BOARD_STARTS = 2;
/** How often a running board tells the database it is alive (`updatedAt`), for `resumePendingEda`. */
const BOARD_HEARTBEAT_MS = 20_000;

/** A stored file's bytes; `unreadable`, naming it as `name`, when it is gone from storage. */
async function readStored(storageKey: string, name?: string): Promise<Uint8Array> {
  const bytes = await readStoredBytes(storageKey);
  if (!bytes) throw new BoardError('unreadable', name);
  return new Uint8Array(bytes);
}

/**
 * Renders board `boardId`: claims it (`processing`, one more start), reads its source files
 * from storage, renders them in a worker thread with time and memory limits, stores the SVGs
 * and the preview, and marks it `ready` — or `failed` with the reason the author can act on.
 * A verdict on the files (no outline, not a Gerber, a limit reached) fails the board at once; a
 * crash on its first start puts the board back in the queue and throws, so the queue runs the
 * job again a moment later (a crash that happens again fails the board).
 */
export async function processBoardJob(boardId: number): Promise<void> {
  const db = getDb();
  const [claimed] = await db
    .update(boards)
    .set({ status: 'processing', attempts: sql`${boards.attempts} + 1`, updatedAt: new Date() })
    .where(and(eq(boards.id, boardId), inArray(boards.status, ['queued', 'processing'])))
    .returning();
  if (!claimed) return; // finished, failed or removed meanwhile
  if (claimed.attempts > MAX_BOARD_STARTS) {
    // Every earlier start ended with the worker gone (the process was killed mid-render).
    await db.update(boards).set({ status: 'failed', errorKey: 'render_failed', errorFile: null, updatedAt: new Date() }).where(eq(boards.id, boardId));
    return;
  }
  const heartbeat = setInterval(() => {
    void db.update(boards).set({ updatedAt: new Date() }).where(and(eq(boards.id, boardId), eq(boards.status, 'processing'))).catch(() => undefined);
  }, BOARD_HEARTBEAT_MS);
  heartbeat.unref();
  const storage = getStorage();
  const written: string[] = [];
  try {
    const sources = await db
      .select({ id: attachments.id, name: attachments.name, mime: attachments.mime, storageKey: attachments.storageKey })
      .from(attachments)
      .where(inArray(attachments.id, claimed.sources));
    // A board kept for a version after the project dropped its files is rendered from the version's copy of them.
    if (sources.length !== claimed.sources.length && claimed.retiredAt) sources.push(...(await versionSourceFiles(claimed.sources.filter((id) => !sources.some((file) => file.id === id)))));
    if (sources.length !== claimed.sources.length) return; // files removed: the board row goes with them
    const started = Date.now();
    const zip = sources.length === 1 && (sources[0]!.mime === 'application/zip' || sources[0]!.name.toLowerCase().endsWith('.zip'));
    // A board from the design source renders the Gerbers kicad-cli wrote, zipped in storage.
    const result = claimed.sourceZipKey
      ? await processGerberSet({ zip: await readStored(claimed.sourceZipKey, `${claimed.name}.zip`), name: `${claimed.name}.zip` })
      : zip
        ? await processGerberSet({ zip: await readStored(sources[0]!.storageKey, sources[0]!.name), name: sources[0]!.name })
        : await processGerberSet({ files: await Promise.all(sources.map(async (file) => ({ name: file.name, bytes: await readStored(file.storageKey, file.name) }))) });

    const base = `boards/${boardId}`;
    const put = async (key: string, data: string | Uint8Array) => {
      await storage.put(key, typeof data === 'string' ? Buffer.from(data) : data);
      written.push(key);
      return key;
    };
    const topKey = await put(`${base}/top.svg`, result.top);
    const bottomKey = await put(`${base}/bottom.svg`, result.bottom);
    const previewKey = await put(`${base}/preview.webp`, result.preview);
    const previewJpegKey = await put(`${base}/preview.jpg`, result.previewJpeg);
    const layers: StoredLayer[] = [];
    for (const [index, layer] of result.layers.entries()) {
      const key = layer.svg ? await put(`${base}/layer-${index}.svg`, layer.svg) : null;
      layers.push({ type: layer.type, side: layer.side, purpose: layer.purpose, filename: layer.filename, key });
    }
    // A board from a design source gets kicad-cli's model from its source job instead.
    const model = claimed.sourceZipKey ? null : await buildModel(boardId, claimed.name, result);
    const modelColumns = model ? { modelKey: await put(`${base}/model.glb`, model.glb), modelRawBytes: model.rawBytes, modelBytes: model.glb.length } : {};
    const [done] = await db
      .update(boards)
      .set({
        status: 'ready',
        errorKey: null,
        errorFile: null,
        tool: result.tool,
        widthMm: result.widthMm,
        heightMm: result.heightMm,
        layerCount: result.layerCount,
        viewBoxMm: result.viewBoxMm,
        layers,
        pads: result.pads,
        facts: result.facts,
        ...modelColumns,
        topKey,
        bottomKey,
        previewKey,
        previewJpegKey,
        renderMs: Date.now() - started,
        updatedAt: new Date(),
      })
      .where(and(eq(boards.id, boardId), eq(boards.status, 'processing')))
      .returning({ id: boards.id });
    if (!done) await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    else await placePartsOnBoards(claimed.projectId);
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    const known = error instanceof BoardError;
    const crashed = !known || error.crash;
    if (crashed) log.error({ component: 'eda', boardId, attempt: claimed.attempts, err: error }, 'board render crashed');
    if (crashed && claimed.attempts < MAX_BOARD_STARTS) {
      // Queued again (the sweep resends it should the retry be lost); the throw makes pg-boss retry the job.
      await db.update(boards).set({ status: 'queued', updatedAt: new Date() }).where(and(eq(boards.id, boardId), eq(boards.status, 'processing')));
      throw error;
    }
    await db
      .update(boards)
      .set({ status: 'failed', errorKey: known ? error.key : 'render_failed', errorFile: known ? (error.file ?? null) : null, updatedAt: new Date() })
      .where(and(eq(boards.id, boardId), eq(boards.status, 'processing')));
  } finally {
    clearInterval(heartbeat);
    // Versions released while the board was rendering show it (or its failure) from now on.
    await copyBoardIntoVersions(boardId).catch((error: unknown) => log.error({ component: 'eda', boardId, err: error }, 'could not copy the board into versions'));
    // The board (or its failure) shows on the project's pages, its picture on the project's cards.
    await purgeProjectPagesById(claimed.projectId, { listed: true });
  }
}

/**
 * The board in 3D from its renders, edge and holes; null when it cannot be built (a render too
 * slow to rasterize again, a broken picture): the board is still ready, without its 3D tab.
 */
async function buildModel(boardId: number, name: string, board: ProcessedBoard): Promise<GerberModel | null> {
  try {
    const model = await buildGerberModel(gerberModelInput(name, board));
    log.info({ component: 'eda', boardId, modelBytes: [model.rawBytes, model.glb.length], timings: model.timings }, 'board model built');
    return model;
  } catch (error) {
    log.warn({ component: 'eda', boardId, err: error }, 'board model not built');
    return null;
  }
}

/**
 * Puts the project's placements on its first ready board (the parts the interactive BOM
 * shows), or clears the parts when there are none. Run when either side is ready:
 * the board (its frame and pads) and the placements may arrive in any order.
 */
export async function placePartsOnBoards(projectId: number): Promise<void> {
  const db = getDb();
  const [board] = await db
    .select()
    .from(boards)
    .where(and(currentBoard(projectId), eq(boards.status, 'ready')))
    .orderBy(asc(boards.id))
    .limit(1);
  if (!board?.viewBoxMm || board.widthMm === null || board.heightMm === null) return;
  const raw = await db.select().from(placements).where(eq(placements.projectId, projectId)).orderBy(asc(placements.designator));
  const parts = raw.length === 0 ? [] : alignPlacements(raw, board.viewBoxMm, { widthMm: board.widthMm, heightMm: board.heightMm }, board.pads);
  await db.update(boards).set({ parts }).where(eq(boards.id, board.id));
}

/** Files larger than this are not read as BOM or placements (a BOM is kilobytes). */
const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

type Document = { name: string; bytes: Uint8Array } | { name: string; problem: 'too_large' | 'unreadable' };

/** A BOM or placement attachment's bytes, or why they were not read; null when the attachment is gone. */
async function readDocument(attachmentId: string | null): Promise<Document | null> {
  if (!attachmentId) return null;
  const [file] = await getDb()
    .select({ name: attachments.name, size: attachments.size, storageKey: attachments.storageKey })
    .from(attachments)
    .where(eq(attachments.id, attachmentId));
  if (!file) return null;
  if (file.size > DOCUMENT_MAX_BYTES) return { name: file.name, problem: 'too_large' };
  return readStored(file.storageKey, file.name).then(
    (bytes) => ({ name: file.name, bytes }),
    () => ({ name: file.name, problem: 'unreadable' as const }),
  );
}

/**
 * The parts of every placement file together (EAGLE's `.mnt` gives the top side, `.mnb` the
 * bottom), and each file that placed none with the reason, for the page to tell the author.
 */
function readPlacementFiles(files: (Document | null)[]): { parts: RawPlacement[]; errors: PlacementError[] } {
  const parts: RawPlacement[] = [];
  const errors: PlacementError[] = [];
  for (const file of files) {
    if (!file) continue;
    if ('problem' in file) {
      errors.push({ file: file.name, errorKey: file.problem });
      continue;
    }
    const parsed = parsePlacements(file.bytes, file.name);
    if (parsed.errorKey) errors.push({ file: file.name, errorKey: parsed.errorKey });
    parts.push(...parsed.placements);
  }
  return { parts, errors };
}

/**
 * Reads a project's BOM and placement files into `bom_lines` and `placements`, replacing what
 * was there, in one transaction with the document state becoming `ready`.
 */
export async function processDocumentsJob(projectId: number): Promise<void> {
  const db = getDb();
  const [doc] = await db.select().from(edaDocuments).where(eq(edaDocuments.projectId, projectId));
  if (!doc || doc.status !== 'queued') return;
  const [bomFile, ...placementFiles] = await Promise.all([readDocument(doc.bomAttachmentId), ...doc.placementAttachmentIds.map(readDocument)]);
  // A BOM too large or unreadable in storage says so on the page, like one that does not parse.
  let bom = !bomFile ? null : 'bytes' in bomFile ? await parseBom(bomFile.bytes, bomFile.name) : { columns: [], lines: [], foundColumns: [], errorKey: bomFile.problem };
  const placed = readPlacementFiles(placementFiles);
  // The design source stands in for a BOM or placement file the project does not attach.
  const [source] = doc.designSourceId ? await db.select().from(designSources).where(eq(designSources.id, doc.designSourceId)) : [];
  if (source && !doc.bomAttachmentId && source.bomLines.length > 0) {
    bom = { columns: source.bomColumns, lines: source.bomLines.map((line, index) => ({ ...emptyBomLine(index + 1), ...line })), foundColumns: [] };
  }
  if (source && doc.placementAttachmentIds.length === 0) placed.parts.push(...source.placements);
  await db.transaction(async (tx) => {
    // The files may have changed while they were read: only the state this job read is written.
    const [current] = await tx.select().from(edaDocuments).where(eq(edaDocuments.projectId, projectId)).for('update');
    if (
      !current ||
      current.status !== 'queued' ||
      current.bomAttachmentId !== doc.bomAttachmentId ||
      !sameIds(current.placementAttachmentIds, doc.placementAttachmentIds) ||
      current.designSourceId !== doc.designSourceId
    ) {
      return;
    }
    await tx.delete(bomLines).where(eq(bomLines.projectId, projectId));
    await tx.delete(placements).where(eq(placements.projectId, projectId));
    if (bom && bom.lines.length > 0) {
      for (let i = 0; i < bom.lines.length; i += 500) {
        await tx.insert(bomLines).values(bom.lines.slice(i, i + 500).map((line) => ({ ...line, projectId })));
      }
    }
    const rows = placed.parts;
    for (let i = 0; i < rows.length; i += 500) {
      // A designator in two files (a part listed on both sides) keeps its first place.
      await tx
        .insert(placements)
        .values(rows.slice(i, i + 500).map((part) => ({ projectId, designator: part.designator, x: part.x, y: part.y, rotation: part.rotation, side: part.side })))
        .onConflictDoNothing();
    }
    await copyBomIntoVersions(tx, projectId, doc.bomAttachmentId, bom?.lines ?? []);
    await tx
      .update(edaDocuments)
      .set({
        status: 'ready',
        bomColumns: bom?.columns ?? [],
        bomErrorKey: bomFile ? (bom?.errorKey ?? null) : null,
        bomFoundColumns: bom?.errorKey ? bom.foundColumns : null,
        placementErrors: placed.errors,
        updatedAt: new Date(),
      })
      .where(eq(edaDocuments.projectId, projectId));
  });
  await placePartsOnBoards(projectId);
  await readWaitingVersionBoms(projectId);
  await purgeProjectPagesById(projectId);
}
