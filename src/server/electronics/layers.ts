/**
 * Which file of a Gerber set is which layer, and which EDA tool made them. What the files say about
 * themselves wins over what they are called: a `.gbrjob` job file first, then the Gerber X2
 * `%TF.FileFunction` attribute inside each file, and only then the file name (whats-that-gerber
 * knows the naming of KiCad, EAGLE, Altium/Protel, EasyEDA and others). A file used as a layer must
 * read as Gerber (RS-274X) or Excellon text; anything else that is not named like a layer
 * (README, PDF, a `.txt` that is no drill file) is left out.
 */
import whatsThatGerber from 'whats-that-gerber';
import type { EdaTool } from '../../lib/contract/eda.ts';
import { BoardError, type SourceFile } from './errors.ts';
import type { LayerPurpose, LayerSide, LayerType } from '../../lib/contract/schemas/eda.ts';

/** How a layer's type and side were learned, strongest first. */
export type LayerEvidence = 'job' | 'attribute' | 'name';

export interface IdentifiedLayer {
  /** The file's path inside the upload. */
  filename: string;
  type: LayerType;
  side: LayerSide;
  /** Copper layer number from the top (1 = top) when the files say it, so inner layers keep their order. */
  copperIndex: number | null;
  /** What a documentation layer is for (courtyard, fab, …), when its function or name says it. */
  purpose: LayerPurpose | null;
  evidence: LayerEvidence;
  bytes: Uint8Array;
}

export interface IdentifiedSet {
  layers: IdentifiedLayer[];
  /** Top + bottom + inner copper layers. */
  copperLayerCount: number;
  tool: EdaTool;
  /** The board size a job file declares, in mm (it includes the outline's line width). */
  jobSizeMm: { width: number; height: number } | null;
  /** The board thickness a job file declares (`BoardThickness`), in mm; null without one. */
  jobThicknessMm: number | null;
  /** Files that are not layers (documentation, job files, unknown names). */
  ignored: string[];
  /** Layer files a job file names that the set lacks (paths as the job file writes them). */
  missingFromJob: string[];
}

/** How much of a file's start is read to recognise it: Gerber and Excellon headers are short. */
const HEAD_BYTES = 16 * 1024;
const TAIL_BYTES = 512;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

function text(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, end);
}

function head(bytes: Uint8Array): string {
  return text(bytes, 0, Math.min(bytes.byteLength, HEAD_BYTES));
}

function tail(bytes: Uint8Array): string {
  return text(bytes, Math.max(0, bytes.byteLength - TAIL_BYTES), bytes.byteLength);
}

/** Plain text: no NUL byte and almost no control characters in the first bytes. */
function isText(sample: string): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (let i = 0; i < sample.length; i += 1) {
    const code = sample.charCodeAt(i);
    if (code === 0) return false;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) control += 1;
  }
  return control / sample.length < 0.01;
}

/** RS-274X: a format statement, a unit mode or an aperture definition near the start. */
export function looksLikeGerber(bytes: Uint8Array): boolean {
  const sample = head(bytes);
  return isText(sample) && /%FS[LTD]?[AI]X\d\d?Y\d\d?\*%|%MO(?:MM|IN)\*%|%ADD\d+/.test(sample);
}

/** Excellon: the `M48` header, or tool definitions followed by coordinates. */
export function looksLikeExcellon(bytes: Uint8Array): boolean {
  const sample = head(bytes);
  if (!isText(sample)) return false;
  if (/^\s*(?:;[^\n]*\n\s*)*M48\b/.test(sample)) return true;
  return /^T\d+C\d*\.?\d+/m.test(sample) && /^X-?\d*\.?\d+Y-?\d*\.?\d+/m.test(sample);
}

/** RS-274X files end with `M02*` (older ones `M00*`); a file without it was cut short. */
function gerberIsComplete(bytes: Uint8Array): boolean {
  return /M0[02]\*\s*$/.test(tail(bytes));
}

interface Function {
  type: LayerType;
  side: LayerSide;
  copperIndex: number | null;
  purpose?: LayerPurpose | null;
}

/**
 * A Gerber X2 `.FileFunction` value (`Copper,L2,Inr`, `Soldermask,Top`, `Plated,1,2,PTH`, …) as a
 * layer type and side; null for functions that are no layer of the board's picture.
 */
export function parseFileFunction(value: string): Function | null {
  const fields = value.split(',').map((field) => field.trim());
  const kind = fields[0]?.toLowerCase() ?? '';
  const sideOf = (field: string | undefined): LayerSide => {
    const side = field?.toLowerCase();
    return side === 'top' ? 'top' : side === 'bot' ? 'bottom' : side === 'inr' ? 'inner' : 'all';
  };
  switch (kind) {
    case 'copper': {
      const index = Number(/^L(\d+)$/i.exec(fields[1] ?? '')?.[1]);
      return { type: 'copper', side: sideOf(fields[2]), copperIndex: Number.isFinite(index) ? index : null };
    }
    case 'soldermask':
      return { type: 'soldermask', side: sideOf(fields[1]), copperIndex: null };
    case 'legend':
      return { type: 'silkscreen', side: sideOf(fields[1]), copperIndex: null };
    case 'paste':
    // KiCad's job files name the paste layers `SolderPaste`, their Gerbers `Paste`.
    case 'solderpaste':
      return { type: 'solderpaste', side: sideOf(fields[1]), copperIndex: null };
    case 'profile':
      return { type: 'outline', side: 'all', copperIndex: null };
    case 'plated':
    case 'nonplated':
    // KiCad 9 writes plated and non-plated holes into one drill file by default (`MixedPlating,1,2`).
    case 'mixedplating':
      return { type: 'drill', side: 'all', copperIndex: null };
    case 'drillmap':
    case 'fabricationdrawing':
    case 'assemblydrawing':
    case 'otherdrawing':
    case 'other':
    case 'glue':
    case 'component':
    case 'keep-out':
    case 'keepout':
    case 'pads':
    case 'vcut':
    case 'viafill':
      return { type: 'drawing', side: fields.some((field) => /^(top|bot)$/i.test(field)) ? sideOf(fields.find((field) => /^(top|bot)$/i.test(field))) : 'all', copperIndex: null, purpose: purposeOfFunction(kind, fields) };
    default:
      return kind ? { type: 'drawing', side: 'all', copperIndex: null, purpose: null } : null;
  }
}

/** What a drawing's `.FileFunction` says it is for (KiCad 9 writes these). */
function purposeOfFunction(kind: string, fields: string[]): LayerPurpose | null {
  const rest = fields.slice(1).map((field) => field.toLowerCase());
  if (kind === 'glue') return 'adhesive';
  if (kind === 'assemblydrawing') return 'fab';
  if (kind === 'drillmap') return 'drillmap';
  if (kind === 'otherdrawing') return 'drawings';
  if (kind === 'keepout' || kind === 'keep-out') return 'keepout';
  if (kind !== 'other') return null;
  if (rest.includes('comment')) return 'comments';
  if (rest.some((field) => /^eco\d$/.test(field))) return 'eco';
  // KiCad writes `Other,User` for its courtyards, margin and numbered user layers alike: the name tells them apart.
  return rest.includes('user') ? 'user' : null;
}

/**
 * KiCad's names of its documentation layers (`board-F_Courtyard.gbr`, `board-Margin.gbr`,
 * `board-User_1.gbr`; older versions `-F_CrtYd`, `-Dwgs_User`…): their purpose, and their side
 * where the name gives one.
 */
const KICAD_DOCUMENTATION_NAMES: [RegExp, LayerPurpose][] = [
  [/[-_]([FB])[._](Courtyard|CrtYd)\.\w+$/i, 'courtyard'],
  [/[-_]([FB])[._]Fab\.\w+$/i, 'fab'],
  [/[-_]([FB])[._]Adhes(ive)?\.\w+$/i, 'adhesive'],
  [/[-_]Margin\.\w+$/i, 'margin'],
  [/[-_]User[._]\d+\.\w+$/i, 'user'],
  [/[-_](User[._]Drawings|Dwgs[._]User)\.\w+$/i, 'drawings'],
  [/[-_](User[._]Comments|Cmts[._]User)\.\w+$/i, 'comments'],
  [/[-_](User[._]Eco\d|Eco\d[._]User)\.\w+$/i, 'eco'],
];

/** A documentation layer's purpose and side as its KiCad name says, or null. */
function kicadDocumentationName(filename: string): { purpose: LayerPurpose; side: LayerSide | null } | null {
  for (const [pattern, purpose] of KICAD_DOCUMENTATION_NAMES) {
    const match = pattern.exec(filename);
    if (!match) continue;
    const letter = /^[FB]$/i.test(match[1] ?? '') ? match[1]!.toUpperCase() : null;
    return { purpose, side: letter === 'F' ? 'top' : letter === 'B' ? 'bottom' : null };
  }
  return null;
}

/** The `.FileFunction` attribute of a Gerber (`%TF.FileFunction,…*%`, or KiCad's `G04 #@! TF…` / `; #@! TF…` comments). */
function inFileFunction(sample: string): string | null {
  return /TF\.FileFunction,([^*\r\n%]*)/.exec(sample)?.[1] ?? null;
}

interface JobFile {
  folder: string;
  functions: Map<string, string>;
  tool: EdaTool | null;
  size: { width: number; height: number } | null;
  thicknessMm: number | null;
}

function toolFromSoftware(software: string): EdaTool | null {
  const name = software.toLowerCase();
  if (name.includes('kicad')) return 'kicad';
  if (name.includes('fusion')) return 'fusion';
  if (name.includes('eagle')) return 'eagle';
  if (name.includes('altium') || name.includes('protel')) return 'altium';
  if (name.includes('easyeda') || name.includes('lceda') || name.includes('jlc')) return 'easyeda';
  return null;
}

function readJobFile(file: SourceFile): JobFile | null {
  let job: unknown;
  try {
    job = JSON.parse(Buffer.from(file.bytes).toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  if (typeof job !== 'object' || job === null) return null;
  const record = job as {
    Header?: { GenerationSoftware?: { Vendor?: string; Application?: string } };
    GeneralSpecs?: { Size?: { X?: number; Y?: number }; BoardThickness?: number };
    Overall?: { Size?: { X?: number; Y?: number }; BoardThickness?: number };
    FilesAttributes?: { Path?: string; FileFunction?: string }[];
  };
  const software = record.Header?.GenerationSoftware;
  const tool = software ? toolFromSoftware(`${software.Vendor ?? ''} ${software.Application ?? ''}`) : null;
  // KiCad writes GeneralSpecs; EAGLE writes Overall
  const size = record.GeneralSpecs?.Size ?? record.Overall?.Size;
  const thickness = record.GeneralSpecs?.BoardThickness ?? record.Overall?.BoardThickness;
  const functions = new Map<string, string>();
  for (const entry of Array.isArray(record.FilesAttributes) ? record.FilesAttributes : []) {
    if (typeof entry?.Path === 'string' && typeof entry.FileFunction === 'string') functions.set(entry.Path.replace(/\\/g, '/'), entry.FileFunction);
  }
  return {
    folder: folderOf(file.name),
    functions,
    tool,
    size: typeof size?.X === 'number' && typeof size.Y === 'number' ? { width: size.X, height: size.Y } : null,
    thicknessMm: typeof thickness === 'number' && thickness > 0 ? thickness : null,
  };
}

/** The tool a file names itself, from X2 attributes or the comments tools write. */
function toolFromContent(sample: string): EdaTool | null {
  const software = /TF\.GenerationSoftware,([^*\r\n]*)/.exec(sample)?.[1] ?? /;\s*GenerationSoftware,([^*\r\n]*)/.exec(sample)?.[1];
  if (software) {
    const tool = toolFromSoftware(software);
    if (tool) return tool;
  }
  if (/Created by KiCad|DRILL file \{KiCad/i.test(sample)) return 'kicad';
  if (/G04 EAGLE|EAGLE Gerber/i.test(sample)) return 'eagle';
  if (/Fusion ?360/i.test(sample)) return 'fusion';
  if (/Layer_Physical_Order|Layer_Color=|Altium/i.test(sample)) return 'altium';
  if (/EasyEDA|LCEDA/i.test(sample)) return 'easyeda';
  return null;
}

/** The tool the names alone suggest, for sets that say nothing about themselves. */
function toolFromNames(names: string[]): EdaTool | null {
  const bases = names.map(baseName);
  if (bases.some((name) => /[-_.](F|B)[._](Cu|Mask|SilkS|Silkscreen|Paste)\b|Edge[._]Cuts/i.test(name))) return 'kicad';
  if (bases.some((name) => /^Gerber_[A-Za-z]+Layer/i.test(name) || /^Drill_(PTH|NPTH)/i.test(name))) return 'easyeda';
  if (bases.some((name) => /\.(G\d+|GM\d+|GP\d+|GPT|GPB)$/i.test(name))) return 'altium';
  if (bases.some((name) => /\.(cmp|sol|stc|sts|plc|pls|crc|crs)$/i.test(name))) return 'eagle';
  return null;
}

/**
 * whats-that-gerber on the names alone: it weighs the naming conventions over all names of a set,
 * and folder names (`eagle-board/gerbers/…`) would mislead it. Names repeated in several folders
 * are judged folder by folder.
 */
function identifyByName(paths: string[]): Record<string, { type: LayerType | null; side: LayerSide | null }> {
  const bases = paths.map(baseName);
  const groups = new Set(bases).size === bases.length ? [paths] : Object.values(Object.groupBy(paths, folderOf)).map((group) => group ?? []);
  const result: Record<string, { type: LayerType | null; side: LayerSide | null }> = {};
  for (const group of groups) {
    const named = whatsThatGerber(group.map(baseName));
    for (const path of group) result[path] = named[baseName(path)] ?? { type: null, side: null };
  }
  return result;
}

/**
 * Identifies the layers of a Gerber set. Throws `BoardError('not_gerber', file)` when a file named
 * like a layer holds something else, `unreadable` for a Gerber cut short, and `no_layers` when
 * nothing is a layer.
 */
export function identifyLayers(files: SourceFile[]): IdentifiedSet {
  const jobs = files
    .filter((file) => /\.gbrjob$/i.test(file.name))
    .map(readJobFile)
    .filter((job): job is JobFile => job !== null);
  const candidates = files.filter((file) => !/\.gbrjob$/i.test(file.name));
  const byName = identifyByName(candidates.map((file) => file.name));

  const layers: IdentifiedLayer[] = [];
  const ignored = files.filter((file) => /\.gbrjob$/i.test(file.name)).map((file) => file.name);
  let tool: EdaTool | null = jobs.find((job) => job.tool)?.tool ?? null;

  for (const file of candidates) {
    const sample = head(file.bytes);
    const isGerber = looksLikeGerber(file.bytes);
    const isDrill = !isGerber && looksLikeExcellon(file.bytes);

    let found: Function | null = null;
    let evidence: LayerEvidence = 'name';
    for (const job of jobs) {
      if (!file.name.startsWith(job.folder)) continue;
      const value = job.functions.get(file.name.slice(job.folder.length));
      if (value) {
        found = parseFileFunction(value);
        evidence = 'job';
        break;
      }
    }
    if (!found && (isGerber || isDrill)) {
      const value = inFileFunction(sample);
      if (value) {
        found = parseFileFunction(value);
        evidence = 'attribute';
      }
    }
    if (!found) {
      const named = byName[file.name];
      if (named?.type) {
        found = { type: named.type, side: named.side ?? 'all', copperIndex: null };
        // whats-that-gerber calls every `.txt` a drill file, and a lone generic `.gbr` a drawing:
        // only the bytes can tell whether such a file is one
        const genericName = /\.txt$/i.test(file.name) || (named.type === 'drawing' && named.side === null);
        if (genericName && !(isGerber || isDrill)) {
          ignored.push(file.name);
          continue;
        }
      }
    }
    if (!found) {
      ignored.push(file.name);
      continue;
    }
    const expectDrill = found.type === 'drill';
    if (expectDrill ? !(isDrill || isGerber) : !isGerber) throw new BoardError('not_gerber', file.name);
    if (isGerber && !gerberIsComplete(file.bytes)) throw new BoardError('unreadable', file.name, 'no end-of-file (M02) statement');

    tool ??= toolFromContent(sample);
    let { purpose = null, side } = found;
    if (found.type === 'drawing') {
      // The name is more precise than `Other,User`, and gives courtyards and fab layers their side.
      const named = kicadDocumentationName(file.name);
      if (named && (purpose === null || purpose === 'user')) purpose = named.purpose;
      if (named?.side && side === 'all') side = named.side;
    }
    layers.push({ filename: file.name, type: found.type, side, copperIndex: found.copperIndex, purpose, evidence, bytes: file.bytes });
  }

  if (layers.length === 0) throw new BoardError('no_layers');
  tool ??= toolFromNames(layers.map((layer) => layer.filename));

  const copper = layers.filter((layer) => layer.type === 'copper');
  // inner layers in stack order: by their L-number when the files say it, else by the digits of their names
  const innerOrder = (layer: IdentifiedLayer) => layer.copperIndex ?? Number(/(\d+)(?!.*\d)/.exec(baseName(layer.filename))?.[1] ?? 0);
  const isInner = (layer: IdentifiedLayer) => layer.type === 'copper' && layer.side === 'inner';
  const inner = layers.filter(isInner).sort((a, b) => innerOrder(a) - innerOrder(b));
  const ordered = layers.map((layer) => (isInner(layer) ? inner.shift()! : layer));

  const present = new Set(candidates.map((file) => file.name));
  const missingFromJob = jobs.flatMap((job) => [...job.functions.keys()].filter((name) => !present.has(`${job.folder}${name}`)));

  return {
    layers: ordered,
    missingFromJob,
    copperLayerCount: copper.length,
    tool: tool ?? 'other',
    jobSizeMm: jobs.find((job) => job.size)?.size ?? null,
    jobThicknessMm: jobs.find((job) => job.thicknessMm !== null)?.thicknessMm ?? null,
    ignored,
  };
}
