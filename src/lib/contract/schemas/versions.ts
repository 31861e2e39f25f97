import { bomLineSchema, LAYER_SIDES, LAYER_TYPES } from './eda.ts';
import { count, isoDateTime, serialId, z } from './common.ts';

export const versionFileSchema = z
  .object({ id: z.string(), name: z.string(), kind: z.string(), size: count, url: z.string(), downloadCount: count })
  .meta({ id: 'VersionFile', description: 'A file the version was published with; `url` downloads it (counted) even after the project dropped it.' });

export const versionSchema = z
  .object({
    number: serialId,
    name: z.string(),
    notes: z.string(),
    date: isoDateTime,
    latest: z.boolean(),
    files: z.array(versionFileSchema),
    boards: z.object({ total: count, ready: count, failed: count }),
    bom: z.enum(['none', 'queued', 'ready']),
  })
  .meta({ id: 'Version', description: 'A released version: its changelog, files and how far its boards and BOM are read (`boards.ready` of `boards.total` rendered).' });

export const versionListSchema = z.object({ list: z.array(versionSchema) }).meta({ id: 'VersionList' });

const changedLineSchema = z.object({ before: bomLineSchema, after: bomLineSchema, fields: z.array(z.string()) });

export const bomDiffSchema = z
  .object({ added: z.array(bomLineSchema), removed: z.array(bomLineSchema), changed: z.array(changedLineSchema), ready: z.boolean(), present: z.boolean() })
  .meta({ id: 'BomDiff', description: 'Lines matched by designators, then part number, then value and footprint; `changed.fields` names what differs. `ready` is false while either BOM waits to be read; `present` is false when neither version has a BOM.' });

const sizeSchema = z.object({ widthMm: z.number().nullable(), heightMm: z.number().nullable(), layerCount: count.nullable() });
/** Where one side's renders sit in the overlay of both (percent of the shared frame). */
const frameSchema = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });

export const layerDiffSchema = z
  .object({
    type: z.enum(LAYER_TYPES),
    side: z.enum(LAYER_SIDES),
    status: z.enum(['added', 'removed', 'changed', 'same']),
    /** The Gerber file of the layer (the newer version's when both have it). */
    filename: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
  })
  .meta({ id: 'LayerDiff', description: 'One layer (type and side) of a board in both versions: its two SVG renders (`/files/…`; null where the layer is absent).' });

export const boardDiffSchema = z
  .object({
    name: z.string(),
    status: z.enum(['added', 'removed', 'changed', 'same', 'pending']),
    before: sizeSchema.nullable(),
    after: sizeSchema.nullable(),
    frames: z.object({ before: frameSchema.nullable(), after: frameSchema.nullable(), aspect: z.number() }),
    layers: z.array(layerDiffSchema),
  })
  .meta({ id: 'BoardDiff', description: '`pending` while either side is still rendering. `frames` line the two versions’ layers up in Gerber coordinates; `aspect` is the shared frame’s width ÷ height.' });

export const sheetDiffSchema = z
  .object({
    name: z.string(),
    path: z.string().meta({ description: 'The sheet’s place in the hierarchy (`/`, `/Power/`): how sheets are paired.' }),
    status: z.enum(['added', 'removed', 'changed', 'same']),
    before: z.string().nullable(),
    after: z.string().nullable(),
    widthMm: z.number(),
    heightMm: z.number(),
  })
  .meta({ id: 'SheetDiff', description: 'One schematic sheet in both versions: its two SVGs (`/files/…`; null where the sheet is absent), drawn on the same page size.' });

const checkCountsSchema = z.object({ errors: count, warnings: count });
const sourceChecksSchema = z.object({ drc: checkCountsSchema.nullable(), erc: checkCountsSchema.nullable() });

export const sourceDiffSchema = z
  .object({
    status: z.enum(['pending', 'ready']),
    sheets: z.array(sheetDiffSchema),
    checks: z.object({ before: sourceChecksSchema.nullable(), after: sourceChecksSchema.nullable() }),
  })
  .meta({ id: 'SourceDiff', description: 'The two versions’ KiCad design sources: sheets paired by hierarchy path, and both versions’ DRC/ERC counts. `pending` while either is still being read.' });

export const versionDiffSchema = z
  .object({
    from: z.object({ number: serialId, name: z.string() }),
    to: z.object({ number: serialId, name: z.string() }),
    bom: bomDiffSchema,
    boards: z.array(boardDiffSchema),
    source: sourceDiffSchema.nullable().meta({ description: 'Null when neither version has a design source.' }),
  })
  .meta({ id: 'VersionDiff' });

