/**
 * A project's versions keep their own boards and BOM lines. The board and documents jobs finish
 * work that versions released meanwhile wait for: these copy a finished board or BOM into them.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../../db/client.ts';
import { boards, edaDocuments, projectVersions, versionFiles, type VersionBoard } from '../../db/schema/index.ts';
import { parseBom } from '../../electronics/bom.ts';
import { readStoredBytes } from '../../storage/index.ts';
import type { BomLine } from '../../../lib/contract/schemas/eda.ts';

/** What a version keeps of a board row: everything once rendered, its id and state before. */
export function versionBoardOf(row: typeof boards.$inferSelect): VersionBoard {
  const ready = row.status === 'ready';
  return {
    boardId: row.id,
    name: row.name,
    status: row.status,
    errorKey: row.status === 'failed' ? row.errorKey : null,
    widthMm: ready ? row.widthMm : null,
    heightMm: ready ? row.heightMm : null,
    layerCount: ready ? row.layerCount : null,
    viewBoxMm: ready ? row.viewBoxMm : null,
    layers: ready ? row.layers : [],
    previewKey: ready ? row.previewKey : null,
  };
}

/** The files a retired board is made from, as versions keep them (the project dropped its attachments). */
export async function versionSourceFiles(attachmentIds: string[]): Promise<{ id: string; name: string; mime: string; storageKey: string }[]> {
  if (attachmentIds.length === 0) return [];
  const rows = await getDb()
    .selectDistinctOn([versionFiles.attachmentId], { id: versionFiles.attachmentId, name: versionFiles.name, mime: versionFiles.mime, storageKey: versionFiles.storageKey })
    .from(versionFiles)
    .where(inArray(versionFiles.attachmentId, attachmentIds));
  return rows.map((row) => ({ ...row, id: row.id! }));
}

/**
 * The board job finished board `boardId` (rendered or failed): the versions released while it
 * was rendering get it too. Idempotent; a board no version waits for changes nothing.
 */
export async function copyBoardIntoVersions(boardId: number): Promise<void> {
  const db = getDb();
  const [row] = await db.select().from(boards).where(eq(boards.id, boardId));
  if (!row || (row.status !== 'ready' && row.status !== 'failed')) return;
  const waiting = await db
    .select({ id: projectVersions.id, boards: projectVersions.boards })
    .from(projectVersions)
    .where(and(eq(projectVersions.projectId, row.projectId), sql`${projectVersions.boards} @> ${JSON.stringify([{ boardId }])}::jsonb`));
  for (const version of waiting) {
    const copied = version.boards.map((board) => (board.boardId === boardId ? versionBoardOf(row) : board));
    await db.update(projectVersions).set({ boards: copied, updatedAt: new Date() }).where(eq(projectVersions.id, version.id));
  }
}

/**
 * The documents job read the project's BOM (`bomAttachmentId`) into `lines`, in its transaction:
 * the versions released with that file and waiting for its lines get them.
 */
export async function copyBomIntoVersions(tx: Tx, projectId: number, bomAttachmentId: string | null, lines: BomLine[]): Promise<void> {
  if (!bomAttachmentId) return;
  await tx
    .update(projectVersions)
    .set({ bomStatus: 'ready', bomLines: lines, updatedAt: new Date() })
    .where(and(eq(projectVersions.projectId, projectId), eq(projectVersions.bomAttachmentId, bomAttachmentId), eq(projectVersions.bomStatus, 'queued')));
}

/** BOM files larger than this are not read (as for the project's own BOM: a BOM is kilobytes). */
const BOM_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Reads the BOMs of the project's versions that still wait for lines the documents job will not
 * read any more: the project replaced the file before it was read. Run by the documents job after
 * it has read the project's own files; each is read from the version's copy of the file.
 */
export async function readWaitingVersionBoms(projectId: number): Promise<void> {
  const db = getDb();
  const [doc] = await db.select({ status: edaDocuments.status, bomAttachmentId: edaDocuments.bomAttachmentId }).from(edaDocuments).where(eq(edaDocuments.projectId, projectId));
  const waiting = await db
    .select({ id: projectVersions.id, bomAttachmentId: projectVersions.bomAttachmentId })
    .from(projectVersions)
    .where(and(eq(projectVersions.projectId, projectId), eq(projectVersions.bomStatus, 'queued')));
  for (const version of waiting) {
    // The project's own file is read (and copied in) by the documents job that waits for it.
    if (doc?.status === 'queued' && doc.bomAttachmentId === version.bomAttachmentId) continue;
    const [file] = await db
      .select({ name: versionFiles.name, size: versionFiles.size, storageKey: versionFiles.storageKey })
      .from(versionFiles)
      .where(and(eq(versionFiles.versionId, version.id), eq(versionFiles.attachmentId, version.bomAttachmentId ?? '')))
      .limit(1);
    let lines: BomLine[] = [];
    if (file && file.size <= BOM_MAX_BYTES) {
      const bytes = await readStoredBytes(file.storageKey);
      if (bytes) lines = (await parseBom(new Uint8Array(bytes), file.name)).lines;
    }
    await db.update(projectVersions).set({ bomStatus: 'ready', bomLines: lines, updatedAt: new Date() }).where(and(eq(projectVersions.id, version.id), eq(projectVersions.bomStatus, 'queued')));
  }
}
