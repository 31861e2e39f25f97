import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BoardErrorKey, BoardStatus } from '../../../lib/contract/eda.ts';
import type { AttachmentKind } from './attachments.ts';
import type { StoredLayer } from './electronics.ts';
import { projects } from './projects.ts';
import type { BomLine } from '../../../lib/contract/schemas/eda.ts';

/**
 * A project's released versions: the first publication is number 1, each edit released as a new
 * version the next number. A version keeps what it was published with even after the project's
 * files change — its files (the attachments' storage objects are never deleted), its boards as
 * rendered and its BOM lines — so that any two can be compared.
 */

/**
 * A board of a version, copied from the project's `boards` row: while that row is still being
 * rendered only `boardId` and `status` are known, and the board job fills in the rest when it
 * finishes. Its render files are spared when the project's board row goes (`planProjectEda`).
 */
export interface VersionBoard {
  boardId: number;
  name: string;
  status: BoardStatus;
  errorKey?: BoardErrorKey | null;
  widthMm: number | null;
  heightMm: number | null;
  layerCount: number | null;
  /** The board's bounds in Gerber coordinates (mm): where two versions' layers are lined up. */
  viewBoxMm: [number, number, number, number] | null;
  layers: StoredLayer[];
  previewKey: string | null;
}

/** A version's BOM: `none` without a BOM file, `queued` until the documents job has read it. */
export type VersionBomStatus = 'none' | 'queued' | 'ready';

export const projectVersions = pgTable(
  'project_versions',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    name: text('name').notNull(),
    /** The changelog, plain text (shown with line breaks, never as HTML). */
    notes: text('notes').notNull().default(''),
    boards: jsonb('boards').$type<VersionBoard[]>().notNull().default([]),
    /** The BOM attachment this version was published with, while its lines wait to be read. */
    bomAttachmentId: text('bom_attachment_id'),
    bomStatus: text('bom_status').$type<VersionBomStatus>().notNull().default('none'),
    bomSource: text('bom_source'),
    bomLines: jsonb('bom_lines').$type<BomLine[]>().notNull().default([]),
    /**
     * The design source (`design_sources` row) the version was published with: its sheets and
     * checks are compared between versions. The row is retired, not deleted, while a version names it.
     */
    designSourceId: integer('design_source_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('project_versions_number_idx').on(t.projectId, t.number),
    // `V1.1` is the same name as `v1.1`
    uniqueIndex('project_versions_name_idx').on(t.projectId, sql`lower(${t.name})`),
  ],
);

/** A file a version was published with: a copy of its attachment row, pointing at the same storage object. */
export const versionFiles = pgTable(
  'version_files',
  {
    id: text('id').primaryKey(),
    versionId: integer('version_id')
      .notNull()
      .references(() => projectVersions.id, { onDelete: 'cascade' }),
    /** The attachment it was copied from (gone once the project drops the file). */
    attachmentId: text('attachment_id'),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    kind: text('kind').$type<AttachmentKind>().notNull().default('other'),
    storageKey: text('storage_key').notNull(),
    sort: integer('sort').notNull().default(0),
    downloadCount: integer('download_count').notNull().default(0),
  },
  (t) => [index('version_files_version_idx').on(t.versionId, t.sort)],
);
