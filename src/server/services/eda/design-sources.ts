/**
 * A project's KiCad design source: which of its attachments make it, reading it with
 * `kicad-cli` in the job queue, and what `eda/detail` shows of it. What the source yields stands
 * in for what the member did not attach: its Gerbers become the project's board when there is no
 * Gerber set, its BOM and placements the project's when there are no such files.
 */
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import { getDb, type Tx } from '../../db/client.ts';
import { designSources, projectVersions } from '../../db/schema/index.ts';
import { kicadCliPath } from '../../electronics/kicad-cli.ts';
import { sendJob } from '../../jobs/queue.ts';
import { fileUrl } from '../../storage/index.ts';
import { isKicadCompanion } from '../media/index.ts';
import type { CheckResult, DesignSource } from '../../../lib/contract/schemas/eda.ts';

type SourceRow = typeof designSources.$inferSelect;

/** An attachment as planning reads it. */
export interface AttachedFile {
  id: string;
  name: string;
  mime: string;
  kind: string;
}

export const isZip = (file: { name: string; mime: string }) => file.mime === 'application/zip' || file.name.toLowerCase().endsWith('.zip');
/** `sangaboard.zip` → `sangaboard`. */
export const stem = (name: string) => name.replace(/\.[^.]*$/, '');

/**
 * The attachments a project's design source is read from: its first zip of a KiCad project, or
 * else all its loose KiCad files together (a `.kicad_pro` with its board, sheets and libraries).
 * A project has one design source: a second zip is only a download.
 */
export function sourceGroup(files: AttachedFile[]): { sources: string[]; name: string } | null {
  const kicad = files.filter((file) => file.kind === 'kicad');
  const zip = kicad.find(isZip);
  if (zip) return { sources: [zip.id], name: stem(zip.name) };
  if (kicad.length === 0) return null;
  const named = kicad.find((file) => /\.kicad_pro$/i.test(file.name)) ?? kicad.find((file) => /\.kicad_pcb$/i.test(file.name)) ?? kicad[0]!;
  // Loose libraries and their tables belong to the project: the sheets and footprints name them.
  const companions = files.filter((file) => file.kind !== 'kicad' && !isZip(file) && isKicadCompanion(file.name));
  return { sources: [...kicad, ...companions].map((file) => file.id).sort(), name: stem(named.name) };
}

/**
 * Where a design source's 3D model is stored. The source row has no column for it: the model is
 * the board's (`boards.modelKey`, set on the board made from the source), and its key is known
 * from the source's id so that replacing the source deletes it with the rest.
 */
export const sourceModelKey = (sourceId: number) => `sources/${sourceId}/board.glb`;

/** Every stored file of a design source row. */
export function sourceKeys(row: Pick<SourceRow, 'id' | 'status' | 'sheets' | 'renderTopKey' | 'renderBottomKey' | 'renderJpegKey' | 'gerberZipKey'>): string[] {
  const model = row.status === 'ready' ? sourceModelKey(row.id) : null;
  return [...row.sheets.map((sheet) => sheet.key), row.renderTopKey, row.renderBottomKey, row.renderJpegKey, row.gerberZipKey, model].filter((key): key is string => Boolean(key));
}

/** The project's own design source (not one kept only for a version). */
export const currentSource = (projectId: number) => and(eq(designSources.projectId, projectId), isNull(designSources.retiredAt))!;

/** What planning a project's design source decided; started after commit. */
export interface SourcePlan {
  /** A new source to read (`queued`), or null. */
  sourceId: number | null;
  /** Storage keys of a replaced source, deleted once the change is committed. */
  orphanKeys: string[];
}

/**
 * Brings the project's design source in line with its attachments, inside the transaction that
 * changed them: a source whose files changed is replaced by a new row (`queued`, or `waiting`
 * while no `kicad-cli` is installed), the old one retired while a version names it.
 */
export async function planDesignSource(tx: Tx, projectId: number, files: AttachedFile[]): Promise<SourcePlan> {
  const wanted = sourceGroup(files);
  const [existing] = await tx.select().from(designSources).where(currentSource(projectId)).orderBy(asc(designSources.id));
  const plan: SourcePlan = { sourceId: null, orphanKeys: [] };
  if (existing && wanted && existing.sources.join(',') === wanted.sources.join(',')) return plan;
  if (existing) {
    const [named] = await tx.select({ id: projectVersions.id }).from(projectVersions).where(eq(projectVersions.designSourceId, existing.id)).limit(1);
    if (named) {
      await tx.update(designSources).set({ retiredAt: new Date() }).where(eq(designSources.id, existing.id));
    } else {
      await tx.delete(designSources).where(eq(designSources.id, existing.id));
      plan.orphanKeys = sourceKeys(existing);
    }
  }
  if (wanted) {
    const [row] = await tx
      .insert(designSources)
      .values({ projectId, sources: wanted.sources, name: wanted.name.slice(0, 120), status: kicadCliPath() ? 'queued' : 'waiting' })
      .returning({ id: designSources.id, status: designSources.status });
    if (row!.status === 'queued') plan.sourceId = row!.id;
  }
  return plan;
}

/** The project's design source that is read and ready, for the boards and documents it stands in for. */
export async function readySource(tx: Tx, projectId: number): Promise<SourceRow | undefined> {
  const [row] = await tx
    .select()
    .from(designSources)
    .where(and(currentSource(projectId), eq(designSources.status, 'ready')))
    .orderBy(asc(designSources.id))
    .limit(1);
  return row;
}

/** Sends the job of a planned source. A lost send is resent by `resumePendingSources`. */
export async function startDesignSource(sourceId: number): Promise<void> {
  await sendJob('kicadSource', { sourceId }, `kicad-source:${sourceId}`);
}

/** A source not moved on for this long (its worker died) is sent to the queue again. */
const RESEND_AFTER_MS = 20 * 60 * 1000;

/**
 * Sends jobs for sources that have none: `queued` ones whose send was lost, and `processing`
 * ones no worker touched for a long while.
 */
export async function resumePendingSources(): Promise<number> {
  const stale = new Date(Date.now() - RESEND_AFTER_MS);
  const rows = await getDb()
    .select({ id: designSources.id })
    .from(designSources)
    .where(or(eq(designSources.status, 'queued'), and(eq(designSources.status, 'processing'), lt(designSources.updatedAt, stale))));
  for (const row of rows) await startDesignSource(row.id);
  return rows.length;
}

/**
 * How DRC positions (KiCad's board coordinates, mm, y down) become the board view's frame (mm
 * from the board's left and top edges): from a part placed both on the board and in the source,
 * or else from the outline of a board the source's own Gerbers made.
 */
export function boardFrameOffset(
  board: { viewBoxMm: [number, number, number, number] | null; parts: Array<{ designator: string; xMm: number; yMm: number }>; designSourceId: number | null } | undefined,
  source: Pick<SourceRow, 'id' | 'placements'>,
): { dx: number; dy: number } | null {
  if (!board) return null;
  for (const part of board.parts) {
    const raw = source.placements.find((placed) => placed.designator === part.designator);
    // `pcb export pos` writes y up (its y is KiCad's negated): frame y = kicad y + (part y + pos y).
    if (raw) return { dx: part.xMm - raw.x, dy: part.yMm + raw.y };
  }
  if (board.designSourceId === source.id && board.viewBoxMm) {
    const [x, y, , height] = board.viewBoxMm;
    return { dx: -x, dy: y + height };
  }
  return null;
}

function inFrame(result: CheckResult | null, offset: { dx: number; dy: number } | null): CheckResult | null {
  if (!result) return null;
  return {
    ...result,
    items: result.items.map((item) => ({
      ...item,
      xMm: offset && item.xMm !== null ? Math.round((item.xMm + offset.dx) * 1000) / 1000 : null,
      yMm: offset && item.yMm !== null ? Math.round((item.yMm + offset.dy) * 1000) / 1000 : null,
    })),
  };
}

/** A design source row as `eda/detail` shows it; `board` is the project's first ready board, where DRC items are placed. */
export function toDesignSource(row: SourceRow, board: Parameters<typeof boardFrameOffset>[0]): DesignSource {
  const ready = row.status === 'ready';
  return {
    status: row.status,
    ...(row.status === 'failed' && row.errorKey ? { errorKey: row.errorKey } : {}),
    name: row.name,
    kicadVersion: row.kicadVersion,
    sheets: ready ? row.sheets.map(({ key, ...sheet }) => ({ ...sheet, svg: fileUrl(key) })) : [],
    symbols: ready ? row.symbols : [],
    checks: { drc: ready ? inFrame(row.drc, boardFrameOffset(board, row)) : null, erc: ready ? row.erc : null },
    renders: { top: ready && row.renderTopKey ? fileUrl(row.renderTopKey) : null, bottom: ready && row.renderBottomKey ? fileUrl(row.renderBottomKey) : null },
    problems: ready ? row.problems : [],
  };
}

/** The project's current design source row, if it has one. */
export async function currentSourceRow(projectId: number): Promise<SourceRow | undefined> {
  const [row] = await getDb().select().from(designSources).where(currentSource(projectId)).orderBy(asc(designSources.id)).limit(1);
  return row;
}

/** The board row a project's source makes (its Gerber zip) when no Gerber set is attached. */
export function sourceBoardWanted(source: SourceRow | undefined, gerberGroups: number): { designSourceId: number; sourceZipKey: string; name: string } | null {
  if (!source || gerberGroups > 0 || !source.gerberZipKey) return null;
  return { designSourceId: source.id, sourceZipKey: source.gerberZipKey, name: source.name };
}
