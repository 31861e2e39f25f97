import { index, integer, jsonb, pgTable, real, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { attachments } from './attachments.ts';
import { projects } from './projects.ts';

/** What a project's design files become: rendered boards and BOM lines. */

/** A rendered PCB of a project (from its Gerber attachment). */
export const boards = pgTable('boards', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  attachmentId: text('attachment_id').references(() => attachments.id, { onDelete: 'cascade' }),
  topKey: text('top_key'),
  bottomKey: text('bottom_key'),
  layers: jsonb('layers').$type<{ name: string; side: string; type: string; key?: string }[]>().notNull().default([]),
  widthMm: real('width_mm'),
  heightMm: real('height_mm'),
  layerCount: integer('layer_count'),
  status: text('status').notNull().default('ready'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One line of a bill of materials. */
export const bomLines = pgTable(
  'bom_lines',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    attachmentId: text('attachment_id').references(() => attachments.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    designators: text('designators').notNull().default(''),
    value: text('value').notNull().default(''),
    footprint: text('footprint').notNull().default(''),
    quantity: integer('quantity').notNull().default(1),
    mpn: text('mpn').notNull().default(''),
    manufacturer: text('manufacturer').notNull().default(''),
    supplierPart: text('supplier_part').notNull().default(''),
  },
  (t) => [index('bom_lines_project_idx').on(t.projectId, t.lineNo)],
);
