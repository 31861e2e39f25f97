import {
  BOARD_ERROR_KEYS, BOARD_STATUSES, BOARD_WARNING_KEYS, BOM_COLUMNS, BOM_ERROR_KEYS, BOM_EXPORT_FORMATS, EDA_TOOLS, MAX_EXPORT_BOARDS, PLACEMENT_ERROR_KEYS, SOURCE_ERROR_KEYS, SOURCE_STAGES,
  SOURCE_STATUSES,
} from '../eda.ts';
import { count, serialId, z } from './common.ts';

export const LAYER_TYPES = ['copper', 'soldermask', 'silkscreen', 'solderpaste', 'drill', 'outline', 'drawing'] as const;
export const LAYER_SIDES = ['top', 'bottom', 'inner', 'all'] as const;

/**
 * What a documentation layer (`drawing`) is for, when its file says it: KiCad 9's courtyards,
 * fabrication (assembly) drawings, adhesive, margin and user layers, comments and the like.
 */
export const LAYER_PURPOSES = ['courtyard', 'fab', 'adhesive', 'margin', 'user', 'comments', 'drawings', 'eco', 'drillmap', 'keepout'] as const;

export const boardLayerSchema = z
  .object({
    type: z.enum(LAYER_TYPES),
    side: z.enum(LAYER_SIDES),
    purpose: z.enum(LAYER_PURPOSES).nullable().meta({ description: 'What a `drawing` layer is for (courtyard, fab, adhesive, margin, user, …); null for the others and when the file does not say.' }),
    filename: z.string(),
    url: z.string().nullable(),
  })
  .meta({ id: 'BoardLayer', description: 'One identified layer; `url` is its own SVG in the board’s frame (null while not rendered).' });

const mm = z.number().nonnegative().nullable();

/** A measured length in mm, or null: not measured (the files do not tell it). */
const measuredMm = (description: string) => z.number().nonnegative().nullable().meta({ description: `${description} In mm; null when the files do not tell it.` });
const measuredCount = (description: string) => count.nullable().meta({ description: `${description} Null when the files do not tell it.` });

export const boardFactsSchema = z
  .object({
    widthMm: measuredMm('Width of the board’s outline (its bounding box).'),
    heightMm: measuredMm('Height of the board’s outline (its bounding box).'),
    widthIn: z.number().nonnegative().nullable().meta({ description: 'The width in inches.' }),
    heightIn: z.number().nonnegative().nullable().meta({ description: 'The height in inches.' }),
    areaCm2: z.number().nonnegative().nullable().meta({ description: 'Width × height in cm² (the bounding box, as fabs price it).' }),
    copperLayers: measuredCount('Copper layers identified in the set.'),
    thicknessMm: measuredMm('Board thickness declared by a Gerber job file (`.gbrjob` BoardThickness); never assumed.'),
    minTraceMm: measuredMm('Narrowest aperture drawing lines (D01) on copper, outside regions; in Gerber X2 files, of `Conductor` apertures only.'),
    minDrillMm: measuredMm('Smallest drill tool that drills at least one hole.'),
    holes: measuredCount('Drill hits in all drill files.'),
    platedHoles: measuredCount('Plated holes, vias included, when the plating of every hole is known (X2 `FileFunction`/`AperFunction`, Altium `;TYPE=`).'),
    nonPlatedHoles: measuredCount('Non-plated holes, when the plating of every hole is known.'),
    vias: measuredCount('Holes drilled by a `ViaDrill` tool, when every plated tool says what it drills (X2 `AperFunction`).'),
    minAnnularRingMm: measuredMm('Smallest (pad − drill) / 2 over plated holes with a round or rectangular pad flashed at the same place on outer copper.'),
    partsTop: measuredCount('Parts placed on the top side; null without placements.'),
    partsBottom: measuredCount('Parts placed on the bottom side; null without placements.'),
    warnings: z
      .array(z.object({ key: z.enum(BOARD_WARNING_KEYS), files: z.array(z.string()).optional() }))
      .optional()
      .meta({ description: 'What the set lacks that a fab needs: `no_drill` (no drill file), `job_layers_missing` (layer files its job file names, in `files`). Absent for a board rendered before they were checked.' }),
  })
  .meta({ id: 'BoardFacts', description: 'What the fabrication files tell a fab, measured from them when the board was rendered.' });

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
    facts: boardFactsSchema.nullable().meta({ description: 'What the fabrication files tell a fab; null while not ready, or for a board rendered before facts were measured.' }),
    model: z
      .object({ url: z.string(), bytes: count })
      .nullable()
      .meta({ description: 'The board in 3D: a GLB (meshopt-compressed, `EXT_meshopt_compression`) as a `/files/…` URL and its size in bytes; null until one is made. A board from a KiCad design source carries kicad-cli’s model; a board known only from Gerbers, one built from its outline (extruded to the job file’s thickness, else 1.6 mm), its top and bottom renders as faces and its drill holes, in the same frame (metres, y up, the board’s corner at the origin).' }),
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
    dnp: z.boolean().meta({ description: 'Marked “do not populate” in the design source: listed, not placed.' }),
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

export const schematicSheetSchema = z
  .object({
    name: z.string().meta({ description: 'The sheet’s name; the root sheet is named after the project.' }),
    page: z.number().int().min(1).meta({ description: 'Its page number, 1 for the root sheet; `?sheet=N` of `/eda/{id}` opens it.' }),
    path: z.string().meta({ description: 'Its place in the hierarchy, `/` for the root, `/Power/` for a sheet on it.' }),
    svg: z.string().meta({ description: 'The sheet drawn by KiCad, as an SVG `/files/…` URL.' }),
    widthMm: z.number().positive(),
    heightMm: z.number().positive(),
  })
  .meta({ id: 'SchematicSheet', description: 'One sheet of a schematic; its SVG spans `widthMm` × `heightMm`, the frame symbol positions are given in.' });

export const schematicSymbolSchema = z
  .object({
    ref: z.string(),
    value: z.string(),
    footprint: z.string(),
    sheet: z.number().int().min(1).meta({ description: 'The page of the sheet it is drawn on.' }),
    xMm: z.number(),
    yMm: z.number(),
    dnp: z.boolean().meta({ description: 'Marked “do not populate”.' }),
  })
  .meta({ id: 'SchematicSymbol', description: 'A placed symbol: where it sits on its sheet, in mm from the sheet’s top-left corner.' });

export const checkItemSchema = z
  .object({
    type: z.string().meta({ description: 'KiCad’s name for the kind of violation, such as `clearance` or `pin_not_connected`.' }),
    severity: z.enum(['error', 'warning']),
    description: z.string(),
    xMm: z.number().nullable().meta({ description: 'Where it is: on the board (mm from its left and top edges) for DRC, on the sheet for ERC.' }),
    yMm: z.number().nullable(),
    sheet: z.number().int().min(1).nullable().meta({ description: 'ERC: the page of its sheet.' }),
    refs: z.array(z.string()).meta({ description: 'The parts it names.' }),
  })
  .meta({ id: 'CheckItem' });

export const checkResultSchema = z
  .object({
    errors: count,
    warnings: count,
    byType: z.record(z.string(), count).meta({ description: 'How many items of each type.' }),
    items: z.array(checkItemSchema),
  })
  .meta({ id: 'CheckResult' });

export const designSourceSchema = z
  .object({
    status: z.enum(SOURCE_STATUSES),
    errorKey: z.enum(SOURCE_ERROR_KEYS).optional(),
    name: z.string().meta({ description: 'The project’s name in KiCad (its `.kicad_pro`, `.kicad_pcb` or root `.kicad_sch`).' }),
    kicadVersion: z.string().nullable().meta({ description: 'The KiCad release that saved the files, such as `9` (as far as their format versions tell).' }),
    sheets: z.array(schematicSheetSchema),
    symbols: z.array(schematicSymbolSchema),
    checks: z.object({ drc: checkResultSchema.nullable(), erc: checkResultSchema.nullable() }).meta({ description: 'Design rule and electrical rule checks; null when not run or not possible.' }),
    renders: z.object({ top: z.string().nullable(), bottom: z.string().nullable() }).meta({ description: 'Photoreal renders of the board’s sides (WebP `/files/…` URLs).' }),
    problems: z
      .array(z.object({ stage: z.enum(SOURCE_STAGES), errorKey: z.enum(SOURCE_ERROR_KEYS) }))
      .meta({ description: 'Stages that failed while the others went through.' }),
  })
  .meta({
    id: 'DesignSource',
    description: 'A KiCad project among the attachments, read by `kicad-cli` in the job queue.',
    examples: [
      {
        status: 'ready',
        name: 'bitaxeUltra',
        kicadVersion: '7',
        sheets: [
          { name: 'bitaxeUltra', page: 1, path: '/', svg: '/files/sources/12/sheet-1.svg', widthMm: 297, heightMm: 210 },
          { name: 'Power', page: 2, path: '/Power/', svg: '/files/sources/12/sheet-2.svg', widthMm: 297, heightMm: 210 },
        ],
        symbols: [{ ref: 'U3', value: 'TPS40305', footprint: 'Package_SON:VSON-10-1EP_3x3mm_P0.5mm_EP1.2x2mm', sheet: 2, xMm: 134.62, yMm: 88.9, dnp: false }],
        checks: {
          drc: {
            errors: 3,
            warnings: 2,
            byType: { footprint_type_mismatch: 3, copper_sliver: 1, footprint_symbol_mismatch: 1 },
            items: [{ type: 'copper_sliver', severity: 'warning', description: 'Copper sliver', xMm: 21.4, yMm: 63.05, sheet: null, refs: [] }],
          },
          erc: {
            errors: 37,
            warnings: 770,
            byType: { pin_not_connected: 21, endpoint_off_grid: 486 },
            items: [{ type: 'pin_not_connected', severity: 'error', description: 'Pin not connected', xMm: 152.4, yMm: 76.2, sheet: 4, refs: ['U1'] }],
          },
        },
        renders: { top: '/files/images/k3/k3x9q2m1v8p4.webp', bottom: '/files/images/p0/p0d7w4c2n6s1.webp' },
        problems: [],
      },
    ],
  });

export const edaDetailSchema = z
  .object({
    boards: z.array(boardSchema),
    source: designSourceSchema.nullable().meta({ description: 'The project’s KiCad design source; null when it has none.' }),
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

export const cplExportQuerySchema = z.object({
  format: z.enum(['jlc']).default('jlc').meta({ description: "JLCPCB's placement file: Designator, Mid X, Mid Y, Layer, Rotation." }),
});

// The wire types, inferred from the schemas above.
/** Gerber layer kinds, as whats-that-gerber names them. */
export type LayerType = z.infer<typeof boardLayerSchema>['type'];
export type LayerSide = z.infer<typeof boardLayerSchema>['side'];
export type LayerPurpose = (typeof LAYER_PURPOSES)[number];
/** One identified layer of a board; `url` is its own SVG, drawn in the board's frame (null while not rendered). */
export type BoardLayer = z.infer<typeof boardLayerSchema>;
/** A board rendered from a Gerber set (one zip, or the project's loose Gerber files). */
export type Board = z.infer<typeof boardSchema>;
/** What a board's fabrication files tell a fab; each null number is unknown (not measured). */
export type BoardFacts = z.infer<typeof boardFactsSchema>;
/** The facts stored with a board: the parts per side are counted from its placements when read. */
export type StoredBoardFacts = Omit<BoardFacts, 'partsTop' | 'partsBottom'>;
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
export type SchematicSheet = z.infer<typeof schematicSheetSchema>;
export type SchematicSymbol = z.infer<typeof schematicSymbolSchema>;
export type CheckItem = z.infer<typeof checkItemSchema>;
export type CheckResult = z.infer<typeof checkResultSchema>;
/** A project's KiCad design source as `eda/detail` shows it. */
export type DesignSource = z.infer<typeof designSourceSchema>;
/** `eda/detail`. */
export type EdaDetail = z.infer<typeof edaDetailSchema>;
