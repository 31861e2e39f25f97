import { BOARD_ERROR_KEYS, BOARD_STATUSES, BOM_COLUMNS, BOM_ERROR_KEYS, BOM_EXPORT_FORMATS, EDA_TOOLS, MAX_EXPORT_BOARDS, PLACEMENT_ERROR_KEYS } from '../eda.ts';
import { count, serialId, z } from './common.ts';

export const LAYER_TYPES = ['copper', 'soldermask', 'silkscreen', 'solderpaste', 'drill', 'outline', 'drawing'] as const;
export const LAYER_SIDES = ['top', 'bottom', 'inner', 'all'] as const;

export const boardLayerSchema = z
  .object({ type: z.enum(LAYER_TYPES), side: z.enum(LAYER_SIDES), filename: z.string(), url: z.string().nullable() })
  .meta({ id: 'BoardLayer', description: 'One identified layer; `url` is its own SVG in the board’s frame (null while not rendered).' });

const mm = z.number().nonnegative().nullable();

export const boardSchema = z
  .object({
    id: serialId,
    name: z.string(),
    status: z.enum(BOARD_STATUSES),
    errorKey: z.enum(BOARD_ERROR_KEYS).optional(),
    errorFile: z.string().optional(),
    widthMm: mm,
    heightMm: mm,
    layerCount: count.nullable(),
    tool: z.enum(EDA_TOOLS).nullable(),
    layers: z.array(boardLayerSchema),
    top: z.string().nullable(),
    bottom: z.string().nullable(),
    preview: z.string().nullable(),
  })
  .meta({ id: 'Board', description: 'A board rendered from a Gerber set; `top`/`bottom` SVG and `preview` WebP as `/files/…` URLs.' });

export const bomLineSchema = z
  .object({
    lineNo: z.number().int(),
    designators: z.array(z.string()),
    quantity: z.number(),
    value: z.string(),
    footprint: z.string(),
    manufacturer: z.string(),
    mpn: z.string(),
    lcsc: z.string(),
    mouser: z.string(),
    digikey: z.string(),
    farnell: z.string(),
    description: z.string(),
  })
  .meta({ id: 'BomLine' });

export const bomSchema = z
  .object({
    source: z.string().nullable(),
    columns: z.array(z.enum(BOM_COLUMNS)),
    lines: z.array(bomLineSchema),
    errorKey: z.enum(BOM_ERROR_KEYS).optional(),
    foundColumns: z.array(z.string()).optional(),
  })
  .meta({ id: 'Bom' });

export const placementSchema = z
  .object({ boardId: serialId, designator: z.string(), xMm: z.number(), yMm: z.number(), rotation: z.number(), side: z.enum(['top', 'bottom']) })
  .meta({ id: 'Placement', description: 'Where one part sits, in mm from the board’s left and top edges seen from the top (y grows downwards).' });

export const placementErrorSchema = z.object({ file: z.string(), errorKey: z.enum(PLACEMENT_ERROR_KEYS) }).meta({ id: 'PlacementError' });

export const fabricationFileSchema = z
  .object({ id: z.string(), name: z.string(), size: count, kind: z.string(), url: z.string(), downloadCount: count })
  .meta({ id: 'FabricationFile' });

export const edaDetailSchema = z
  .object({
    boards: z.array(boardSchema),
    bom: bomSchema,
    placements: z.array(placementSchema),
    placementErrors: z.array(placementErrorSchema),
    fabrication: z.array(fabricationFileSchema),
  })
  .meta({ id: 'EdaDetail' });

/** The query of `GET /eda/{id}/bom.csv`: an ordering upload for a distributor, or every column. */
export const bomExportQuerySchema = z.object({
  format: z.enum(BOM_EXPORT_FORMATS).default('plain'),
  boards: z.coerce.number().int().min(1).max(MAX_EXPORT_BOARDS).default(1).meta({ description: 'Quantities are multiplied for this many boards.' }),
});

// The wire types, inferred from the schemas above.
/** Gerber layer kinds, as whats-that-gerber names them. */
export type LayerType = z.infer<typeof boardLayerSchema>['type'];
export type LayerSide = z.infer<typeof boardLayerSchema>['side'];
/** One identified layer of a board; `url` is its own SVG, drawn in the board's frame (null while not rendered). */
export type BoardLayer = z.infer<typeof boardLayerSchema>;
/** A board rendered from a Gerber set (one zip, or the project's loose Gerber files). */
export type Board = z.infer<typeof boardSchema>;
export type BomLine = z.infer<typeof bomLineSchema>;
export type Bom = z.infer<typeof bomSchema>;
/**
 * Where one part sits, from a pick-and-place (centroid) file, in millimetres from the board's
 * left and top edges as seen from the top side (y grows downwards), on the board `boardId`.
 */
export type Placement = z.infer<typeof placementSchema>;
export type PlacementError = z.infer<typeof placementErrorSchema>;
/** A fabrication file (Gerber zip, drill, BOM, placement) with its download link. */
export type FabricationFile = z.infer<typeof fabricationFileSchema>;
/** `eda/detail`. */
export type EdaDetail = z.infer<typeof edaDetailSchema>;
