/**
 * The electronics contract shared by the server, the API and the islands: what a rendered
 * board, a bill of materials and a pick-and-place placement look like on the wire
 * (`project/detail` → `boards`, `eda/detail` → `{ boards, bom, placements, fabrication }`).
 * Field names are part of the public API: other clients rely on them.
 */


/** Where a board is in its processing: set when its files are attached, moved on by the job queue. */
export const BOARD_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];

/**
 * Why a board failed, in words the author can act on (`eda.boardErrors.<key>` in both locales;
 * `errorFile` names the file at fault where there is one).
 */
export const BOARD_ERROR_KEYS = [
  'no_outline', // no board outline (Edge.Cuts / .gko / .gm1 / profile) among the files
  'not_gerber', // `errorFile` is not a Gerber or Excellon file
  'no_layers', // nothing among the files is a Gerber layer
  'empty_archive', // the zip holds no files
  'unsafe_archive', // entry names leaving the archive, symlinks, or a malformed zip
  'archive_too_large', // too many entries, or more uncompressed bytes than allowed (zip bomb)
  'unreadable', // a file is truncated or corrupt (`errorFile`)
  'too_complex', // the render exceeded its time or memory limit
  'render_failed', // anything else the renderer refused
] as const;
export type BoardErrorKey = (typeof BOARD_ERROR_KEYS)[number];

/**
 * What a rendered board's files lack that a fab needs, said on the electronics page to everyone
 * (`eda.warnings.<key>` in both locales): the board renders, but an order would be refused.
 */
export const BOARD_WARNING_KEYS = [
  'no_drill', // no drill (Excellon) file: holes would be solid copper, and fabs refuse the set
  'job_layers_missing', // the `.gbrjob` job file names layer files the set lacks (`files`)
] as const;
export type BoardWarningKey = (typeof BOARD_WARNING_KEYS)[number];

/** The EDA tool a board's files come from, as far as names, attributes and job files tell. */
export const EDA_TOOLS = ['kicad', 'eagle', 'altium', 'easyeda', 'fusion', 'other'] as const;
export type EdaTool = (typeof EDA_TOOLS)[number];




/** Columns a BOM line can carry; `columns` of a BOM lists those its source filled. */
export const BOM_COLUMNS = ['designators', 'quantity', 'value', 'footprint', 'manufacturer', 'mpn', 'lcsc', 'mouser', 'digikey', 'farnell', 'description'] as const;
export type BomColumn = (typeof BOM_COLUMNS)[number];


/** Why a BOM could not be read (`eda.bomErrors.<key>`); `foundColumns` says what its header held. */
export const BOM_ERROR_KEYS = ['no_columns', 'unreadable', 'empty', 'too_large'] as const;
export type BomErrorKey = (typeof BOM_ERROR_KEYS)[number];



/**
 * Why a pick-and-place file put no parts on the board (`eda.placementErrors.<key>`, naming the
 * file): not text or corrupt, no designator/X/Y columns recognised, no parts, or too large to read.
 */
export const PLACEMENT_ERROR_KEYS = ['unreadable', 'no_columns', 'empty', 'too_large'] as const;
export type PlacementErrorKey = (typeof PLACEMENT_ERROR_KEYS)[number];




/**
 * Where a project's KiCad design source is: `waiting` while no `kicad-cli` is installed (an
 * operator processes waiting sources with `npm run kicad:process`), then queued, processing and
 * `ready` (each stage's outcome in `problems`) or `failed` as a whole.
 */
export const SOURCE_STATUSES = ['waiting', 'queued', 'processing', 'ready', 'failed'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/**
 * Why a design source could not be read at all (`eda.sourceErrors.<key>` in both locales):
 * - `no_project`: no `.kicad_pro`, `.kicad_pcb` or `.kicad_sch` among the files;
 * - `too_new`: saved by a KiCad newer than the site's (`kicadVersion` says which);
 * - `unsafe_archive`: zip entries leaving the folder, absolute names or symlinks;
 * - `archive_too_large`: too many files or bytes, or one design file over its limit;
 * - `path_outside`: a sheet names a file outside the project's folder;
 * - `sheet_loop`: a sheet includes itself, directly or through others;
 * - `unreadable`: `kicad-cli` could not load the files (corrupt, or not KiCad's);
 * - `crashed`, `timed_out`: `kicad-cli` crashed, or ran past its time or memory limit;
 * - `render_failed`: anything else.
 */
export const SOURCE_ERROR_KEYS = [
  'no_project',
  'too_new',
  'unsafe_archive',
  'archive_too_large',
  'path_outside',
  'sheet_loop',
  'unreadable',
  'crashed',
  'timed_out',
  'render_failed',
] as const;
export type SourceErrorKey = (typeof SOURCE_ERROR_KEYS)[number];

/** What a design source is turned into, each on its own: one failing leaves the others. */
export const SOURCE_STAGES = ['gerbers', 'sheets', 'bom', 'placements', 'drc', 'erc', 'renders', 'model'] as const;
export type SourceStage = (typeof SOURCE_STAGES)[number];

/** The newest KiCad whose files the site reads (`kicad-cli` 9 reads KiCad 5 to 9). */
export const KICAD_READS_UP_TO = 9;

/** Formats of `GET /eda/{id}/bom.csv?format=…`: ordering uploads of distributors, or every column. */
export const BOM_EXPORT_FORMATS = ['jlc', 'lcsc', 'mouser', 'digikey', 'plain'] as const;
export type BomExportFormat = (typeof BOM_EXPORT_FORMATS)[number];

/**
 * The largest number of boards a BOM is multiplied for: one bound for the table's field, the
 * export links it builds and `GET /eda/{id}/bom.csv?boards=N`, so no link the table offers is refused.
 */
export const MAX_EXPORT_BOARDS = 100_000;
