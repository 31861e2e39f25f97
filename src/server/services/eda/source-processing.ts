/**
 * The job queue's work on design sources: reading one with `kicad-cli` (`processDesignSourceJob`),
 * resending lost work, and queueing sources that waited for `kicad-cli` to be installed. What a
 * read source yields is then planned like attachments are (`planProjectEda`), so its board, BOM
 * and placements stand in for files the project lacks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { getDb } from '../../db/client.ts';
import { attachments, boards, designSources, type StoredSheet } from '../../db/schema/index.ts';
import { kicadCliPath } from '../../electronics/kicad-cli.ts';
import { processKicadSource, SourceError, type SourceInput } from '../../electronics/kicad-source.ts';
import { sendJob } from '../../jobs/queue.ts';
import { log } from '../../log.ts';
import { getStorage, readStoredBytes } from '../../storage/index.ts';
import { newPublicId } from '../../lib/ids.ts';
import { imageStorageKey } from '../media/index.ts';
import { purgeProjectPagesById } from '../core/index.ts';
import { planProjectEda, startProjectEda } from './boards.ts';
import { isZip, resumePendingSources, sourceModelKey, startDesignSource } from './design-sources.ts';

type SourceRow = typeof designSources.$inferSelect;

/** A source started this many times without finishing is failed: each start crashed the worker. */
const MAX_SOURCE_STARTS = 2;
/** How often a running source tells the database it is alive, for `resumePendingSources`. */
const HEARTBEAT_MS = 20_000;

async function readStored(storageKey: string): Promise<Buffer> {
  const bytes = await readStoredBytes(storageKey);
  if (!bytes) throw new SourceError('unreadable');
  return bytes;
}

/** The source's files from storage: the project's attachments, or a version's copies once the project dropped them. */
async function readSourceFiles(row: SourceRow): Promise<SourceInput | null> {
  const files = await getDb()
    .select({ id: attachments.id, name: attachments.name, mime: attachments.mime, storageKey: attachments.storageKey })
    .from(attachments)
    .where(inArray(attachments.id, row.sources));
  if (files.length !== row.sources.length) return null;
  if (files.length === 1 && isZip(files[0]!)) return { zip: await readStored(files[0]!.storageKey), name: files[0]!.name };
  return { files: await Promise.all(files.map(async (file) => ({ name: file.name, bytes: await readStored(file.storageKey) }))) };
}

/**
 * Reads design source `sourceId` with `kicad-cli`: claims it, lays its files out in a scratch
 * folder, runs every stage, stores sheets, renders and the Gerber zip, and marks it `ready` (with
 * the stages that failed) or `failed` with the reason. Then the project's board, BOM and
 * placements are planned again, so what the source yields stands in for missing files.
 */
export async function processDesignSourceJob(sourceId: number): Promise<void> {
  const db = getDb();
  const [claimed] = await db
    .update(designSources)
    .set({ status: 'processing', attempts: sql`${designSources.attempts} + 1`, updatedAt: new Date() })
    .where(and(eq(designSources.id, sourceId), inArray(designSources.status, ['queued', 'processing'])))
    .returning();
  if (!claimed) return;
  if (claimed.attempts > MAX_SOURCE_STARTS) {
    await db.update(designSources).set({ status: 'failed', errorKey: 'crashed', updatedAt: new Date() }).where(eq(designSources.id, sourceId));
    await purgeProjectPagesById(claimed.projectId);
    return;
  }
  const heartbeat = setInterval(() => {
    void db.update(designSources).set({ updatedAt: new Date() }).where(and(eq(designSources.id, sourceId), eq(designSources.status, 'processing'))).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const storage = getStorage();
  const written: string[] = [];
  let builtModel: { key: string; rawBytes: number; bytes: number } | null = null;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'copperhub-kicad-'));
  try {
    const input = await readSourceFiles(claimed);
    if (!input) return; // files removed meanwhile: the row goes with them
    const started = Date.now();
    const outputs = await processKicadSource(input, scratch);
    const put = async (key: string, data: string | Buffer) => {
      await storage.put(key, typeof data === 'string' ? Buffer.from(data) : data);
      written.push(key);
      return key;
    };
    const base = `sources/${sourceId}`;
    const sheets: StoredSheet[] = [];
    for (const sheet of outputs.sheets) {
      sheets.push({ name: sheet.name, page: sheet.page, path: sheet.path, widthMm: sheet.widthMm, heightMm: sheet.heightMm, key: await put(`${base}/sheet-${sheet.page}.svg`, sheet.svg) });
    }
    // Renders are stored as pictures, so the queue makes their responsive variants like a cover's.
    const renderTopKey = outputs.renders ? await put(imageStorageKey(newPublicId()), outputs.renders.top) : null;
    const renderBottomKey = outputs.renders?.bottom ? await put(imageStorageKey(newPublicId()), outputs.renders.bottom) : null;
    const renderJpegKey = outputs.renders ? await put(`${base}/top.jpg`, outputs.renders.topJpeg) : null;
    const model = outputs.model ? { key: await put(sourceModelKey(sourceId), outputs.model.glb), rawBytes: outputs.model.rawBytes, bytes: outputs.model.glb.length } : null;
    const gerberZipKey = outputs.gerberZip ? await put(`${base}/${outputs.name || 'board'}-gerbers.zip`.replace(/[^\w./-]/g, '_'), outputs.gerberZip) : null;
    const [done] = await db
      .update(designSources)
      .set({
        status: 'ready',
        errorKey: null,
        name: outputs.name.slice(0, 120) || claimed.name,
        kicadVersion: outputs.kicadVersion,
        sheets,
        symbols: outputs.symbols,
        bomLines: outputs.bom?.lines ?? [],
        bomColumns: outputs.bom?.columns ?? [],
        placements: outputs.placements,
        drc: outputs.drc,
        erc: outputs.erc,
        renderTopKey,
        renderBottomKey,
        renderJpegKey,
        gerberZipKey,
        problems: outputs.problems,
        processMs: Date.now() - started,
        updatedAt: new Date(),
      })
      .where(and(eq(designSources.id, sourceId), eq(designSources.status, 'processing')))
      .returning({ id: designSources.id });
    if (!done) {
      await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
      return;
    }
    log.info({ component: 'eda', sourceId, timings: outputs.timings, problems: outputs.problems, modelBytes: model && [model.rawBytes, model.bytes] }, 'design source read');
    builtModel = model;
    for (const key of [renderTopKey, renderBottomKey]) if (key) await sendJob('imageVariants', { key }, `image-variants:${key}`);
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    const known = error instanceof SourceError;
    if (!known) {
      log.error({ component: 'eda', sourceId, attempt: claimed.attempts, err: error }, 'design source crashed');
      if (claimed.attempts < MAX_SOURCE_STARTS) {
        await db.update(designSources).set({ status: 'queued', updatedAt: new Date() }).where(and(eq(designSources.id, sourceId), eq(designSources.status, 'processing')));
        throw error;
      }
    }
    await db
      .update(designSources)
      .set({
        status: 'failed',
        errorKey: known ? error.key : 'render_failed',
        kicadVersion: known ? (error.kicadVersion ?? null) : null,
        updatedAt: new Date(),
      })
      .where(and(eq(designSources.id, sourceId), eq(designSources.status, 'processing')));
  } finally {
    clearInterval(heartbeat);
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
  await standInForMissingFiles(claimed.projectId);
  if (builtModel) await giveModelToBoard(sourceId, builtModel);
  await purgeProjectPagesById(claimed.projectId, { listed: true });
}

/**
 * The source's 3D model goes on the board made from its Gerbers (`boards.designSourceId`), which
 * planning has just made or kept: that board is the source's own board, so it is the one the model
 * shows. A board from attached Gerbers keeps no model of the source, as the files may be of
 * another revision than the source.
 */
async function giveModelToBoard(sourceId: number, model: { key: string; rawBytes: number; bytes: number }): Promise<void> {
  await getDb()
    .update(boards)
    .set({ modelKey: model.key, modelRawBytes: model.rawBytes, modelBytes: model.bytes })
    .where(and(eq(boards.designSourceId, sourceId), isNull(boards.retiredAt)));
}

/**
 * Plans the project's electronics again now that its source is read: the source's board, BOM
 * and placements stand in for files the project lacks. `planProjectEda` decides, as it does
 * when attachments change.
 */
async function standInForMissingFiles(projectId: number): Promise<void> {
  const plan = await getDb().transaction((tx) => planProjectEda(tx, projectId));
  await startProjectEda(plan);
}

/**
 * For an operator once `kicad-cli` is installed (`npm run kicad:process`): every source that
 * waited for it is queued, and projects whose KiCad files have no source yet (attached before
 * sources were read) are planned. Answers how many sources were queued.
 */
export async function queueWaitingSources(): Promise<number> {
  if (!kicadCliPath()) throw new Error('kicad-cli is not installed (scripts/install-kicad.sh, or set KICAD_CLI_PATH)');
  const db = getDb();
  const unplanned = await db
    .selectDistinct({ projectId: attachments.projectId })
    .from(attachments)
    .where(and(eq(attachments.kind, 'kicad'), sql`NOT EXISTS (SELECT 1 FROM ${designSources} ds WHERE ds.project_id = ${attachments.projectId} AND ds.retired_at IS NULL)`));
  for (const { projectId } of unplanned) await standInForMissingFiles(projectId);
  const waiting = await db.update(designSources).set({ status: 'queued', updatedAt: new Date() }).where(eq(designSources.status, 'waiting')).returning({ id: designSources.id });
  for (const row of waiting) await startDesignSource(row.id);
  return (await resumePendingSources());
}

/**
 * Reads again the ready design sources read before sources gave a 3D model (their board has
 * none), or with `all` every ready source: after an upgrade of KiCad, say. Answers how many.
 */
export async function refreshDesignSources(options: { all: boolean }): Promise<number> {
  if (!kicadCliPath()) throw new Error('kicad-cli is not installed (scripts/install-kicad.sh, or set KICAD_CLI_PATH)');
  const withoutModel = sql`EXISTS (SELECT 1 FROM ${boards} b WHERE b.design_source_id = ${designSources.id} AND b.model_key IS NULL AND b.retired_at IS NULL)`;
  const rows = await getDb()
    .update(designSources)
    .set({ status: 'queued', attempts: 0, updatedAt: new Date() })
    .where(and(eq(designSources.status, 'ready'), isNull(designSources.retiredAt), options.all ? undefined : withoutModel))
    .returning({ id: designSources.id });
  for (const row of rows) await startDesignSource(row.id);
  return rows.length;
}
