import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { uploads } from './uploads.ts';

/**
 * `placement`: a pick-and-place (centroid) file, read to show each BOM line's parts on the board.
 * `kicad`: a KiCad design source, a `.kicad_pro`/`.kicad_pcb`/`.kicad_sch` file or a zip of a
 * project folder holding one, read by `kicad-cli` in the job queue.
 */
export type AttachmentKind = 'gerber' | 'bom' | 'placement' | 'schematic' | 'kicad' | 'other';

/** A design file attached to a project. */
export const attachments = pgTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    uploadId: text('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    kind: text('kind').$type<AttachmentKind>().notNull().default('other'),
    downloadCount: integer('download_count').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('attachments_project_idx').on(t.projectId, t.sort)],
);
