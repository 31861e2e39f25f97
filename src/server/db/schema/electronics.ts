import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { BoardErrorKey, BoardStatus, BomColumn, BomErrorKey, EdaTool, SourceErrorKey, SourceStage, SourceStatus } from '../../../lib/contract/eda.ts';
import { attachments } from './attachments.ts';
import { projects } from './projects.ts';
import type { CheckResult, LayerPurpose, LayerSide, StoredBoardFacts, LayerType, PlacementError, SchematicSymbol } from '../../../lib/contract/schemas/eda.ts';

/** What a project's design files become: rendered boards, BOM lines and part placements. */

/** A part of the project's placement file on the board (`Placement` without its board). */
export interface AlignedPart {
  designator: string;
  xMm: number;
  yMm: number;
  rotation: number;
  side: 'top' | 'bottom';
}

/** One identified Gerber layer of a board and, once rendered, its SVG in storage. */
export interface StoredLayer {
  type: LayerType;
  side: LayerSide;
  /** What a documentation layer is for; absent on layers stored before it was read. */
  purpose?: LayerPurpose | null;
  filename: string;
  key: string | null;
}

/**
 * A board rendered from a Gerber set: one zip attachment, or all of the project's loose Gerber
 * files together (`sources`: the attachment ids, sorted). The row is written with the attachments
 * (status `queued`) and moved on by the job queue; its renders are files in storage.
 */
export const boards = pgTable(
  'boards',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    sources: jsonb('sources').$type<string[]>().notNull(),
    name: text('name').notNull(),
    status: text('status').$type<BoardStatus>().notNull().default('queued'),
    errorKey: text('error_key').$type<BoardErrorKey>(),
    errorFile: text('error_file'),
    /** Processing starts; a board whose processing crashed the worker twice is failed, not retried forever. */
    attempts: integer('attempts').notNull().default(0),
    tool: text('tool').$type<EdaTool>(),
    widthMm: real('width_mm'),
    heightMm: real('height_mm'),
    layerCount: integer('layer_count'),
    /** The board's bounds in Gerber coordinates (mm): where placements are measured from. */
    viewBoxMm: jsonb('view_box_mm').$type<[number, number, number, number]>(),
    layers: jsonb('layers').$type<StoredLayer[]>().notNull().default([]),
    /** Pad centres of its top paste layer (Gerber coordinates, mm): where placement files are registered. */
    pads: jsonb('pads').$type<Array<[number, number]>>().notNull().default([]),
    /** The project's placements on this board (its frame: mm from the left and top edges), once both are read. */
    parts: jsonb('parts').$type<AlignedPart[]>().notNull().default([]),
    topKey: text('top_key'),
    bottomKey: text('bottom_key'),
    previewKey: text('preview_key'),
    /** The preview as JPEG, the project's link-preview (Open Graph) picture when it has no cover of its own. */
    previewJpegKey: text('preview_jpeg_key'),
    renderMs: integer('render_ms'),
    /** What the fabrication files tell a fab (size, layers, smallest trace and drill, holes, …); null until measured. */
    facts: jsonb('facts').$type<StoredBoardFacts>(),
    /** The board's 3D model (GLB) in storage, and its size before and after compression. */
    modelKey: text('model_key'),
    modelRawBytes: integer('model_raw_bytes'),
    modelBytes: integer('model_bytes'),
    /**
     * Set for the board made from the project's KiCad design source (its Gerbers, zipped in
     * storage under `sourceZipKey`) when the member attached no Gerber set: `sources` is then empty.
     */
    designSourceId: integer('design_source_id').references(() => designSources.id, { onDelete: 'cascade' }),
    sourceZipKey: text('source_zip_key'),
    /**
     * Set when the project's files no longer make this board but a version still shows it: kept
     * (and rendered, from the version's copy of its files) for that version only, never listed
     * as one of the project's boards.
     */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('boards_project_idx').on(t.projectId, t.id)],
);

/** A sheet of a design source's schematic, its SVG in storage. */
export interface StoredSheet {
  name: string;
  page: number;
  path: string;
  key: string;
  widthMm: number;
  heightMm: number;
}

/** A BOM line read from a design source, before it becomes the project's (`bom_lines` without the project). */
export type SourceBomLine = Omit<typeof bomLines.$inferInsert, 'projectId'>;

/** A part placed on a design source's board, in KiCad's own coordinates (mm, y up as `pcb export pos` writes them). */
export interface SourcePlacement {
  designator: string;
  x: number;
  y: number;
  rotation: number;
  side: 'top' | 'bottom';
}

/**
 * A project's KiCad design source (`sources`: the attachment ids it is read from, a zip of the
 * project folder or the loose `.kicad_*` files) and what `kicad-cli` made of it in the job queue.
 * Each stage keeps its own result; `problems` names those that failed.
 */
export const designSources = pgTable(
  'design_sources',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    sources: jsonb('sources').$type<string[]>().notNull(),
    name: text('name').notNull(),
    status: text('status').$type<SourceStatus>().notNull().default('queued'),
    errorKey: text('error_key').$type<SourceErrorKey>(),
    /** The KiCad release that saved the files, from their format versions (`6` … `9`, or newer when refused). */
    kicadVersion: text('kicad_version'),
    attempts: integer('attempts').notNull().default(0),
    sheets: jsonb('sheets').$type<StoredSheet[]>().notNull().default([]),
    symbols: jsonb('symbols').$type<SchematicSymbol[]>().notNull().default([]),
    /** The BOM from the schematic: the project's BOM while no BOM file is attached. */
    bomLines: jsonb('bom_lines').$type<SourceBomLine[]>().notNull().default([]),
    bomColumns: jsonb('bom_columns').$type<BomColumn[]>().notNull().default([]),
    /** Placements from the board: the project's while no placement file is attached. */
    placements: jsonb('placements').$type<SourcePlacement[]>().notNull().default([]),
    drc: jsonb('drc').$type<CheckResult>(),
    erc: jsonb('erc').$type<CheckResult>(),
    renderTopKey: text('render_top_key'),
    renderBottomKey: text('render_bottom_key'),
    /** The top render as JPEG: the link-preview picture of a project with no cover and no board. */
    renderJpegKey: text('render_jpeg_key'),
    /** The Gerbers and drill files `kicad-cli` wrote, zipped: the project's board when it has no Gerber set. */
    gerberZipKey: text('gerber_zip_key'),
    problems: jsonb('problems').$type<Array<{ stage: SourceStage; errorKey: SourceErrorKey }>>().notNull().default([]),
    processMs: integer('process_ms'),
    /** Set when the project's files no longer hold this source but a version still shows it. */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('design_sources_project_idx').on(t.projectId, t.id)],
);

/**
 * How a project's BOM and pick-and-place files were read: one row per project, rewritten by the
 * job queue whenever its attachments change (`status` `queued` until then).
 */
export const edaDocuments = pgTable('eda_documents', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  status: text('status').$type<'queued' | 'ready'>().notNull().default('queued'),
  bomAttachmentId: text('bom_attachment_id').references(() => attachments.id, { onDelete: 'set null' }),
  bomColumns: jsonb('bom_columns').$type<BomColumn[]>().notNull().default([]),
  bomErrorKey: text('bom_error_key').$type<BomErrorKey>(),
  bomFoundColumns: jsonb('bom_found_columns').$type<string[]>(),
  /**
   * Every pick-and-place file of the project, in attachment order: their parts are read into one
   * set (EAGLE writes the top side's to `.mnt` and the bottom side's to `.mnb`). Kept in step with
   * the attachments by `planProjectEda`, in the transaction that changes them.
   */
  placementAttachmentIds: jsonb('placement_attachment_ids').$type<string[]>().notNull().default([]),
  /**
   * The design source whose BOM or placements stand in for files the project does not attach
   * (a BOM file and placement files always win); null when none does.
   */
  designSourceId: integer('design_source_id'),
  /** The placement files of the last read that put no parts on the board, and why. */
  placementErrors: jsonb('placement_errors').$type<PlacementError[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One line of a project's bill of materials, in the order of its file. */
export const bomLines = pgTable(
  'bom_lines',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    designators: jsonb('designators').$type<string[]>().notNull().default([]),
    quantity: integer('quantity').notNull().default(1),
    value: text('value').notNull().default(''),
    footprint: text('footprint').notNull().default(''),
    manufacturer: text('manufacturer').notNull().default(''),
    mpn: text('mpn').notNull().default(''),
    lcsc: text('lcsc').notNull().default(''),
    mouser: text('mouser').notNull().default(''),
    digikey: text('digikey').notNull().default(''),
    farnell: text('farnell').notNull().default(''),
    description: text('description').notNull().default(''),
    dnp: boolean('dnp').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.lineNo] })],
);

/**
 * Where each part sits, as the project's pick-and-place file says, in that file's own coordinates
 * (mm, y up); aligned to a board's frame when read, because the board may be rendered later.
 */
export const placements = pgTable(
  'placements',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    designator: text('designator').notNull(),
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    rotation: real('rotation').notNull().default(0),
    side: text('side').$type<'top' | 'bottom'>().notNull().default('top'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.designator] })],
);
