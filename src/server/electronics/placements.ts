/**
 * Reads a pick-and-place (centroid) file into part positions: KiCad `.pos` (ASCII) and its CSV,
 * EAGLE `mountsmd.ulp` output (`.mnt` top, `.mnb` bottom), Altium Pick Place (CSV or quoted
 * text, with its title lines) and JLC CPL. Positions stay in the file's own coordinates, in
 * millimetres, y growing upwards as in the CAD tool; `alignPlacements` puts them on the board.
 * Pure, and never throws on hostile input.
 */
import Papa from 'papaparse';
import type { BomErrorKey } from '../../lib/contract/eda.ts';
import { foldHeader } from './bom-columns.ts';
import { decodeTableText } from './text-decoding.ts';

/** One part as its placement file gives it. */
export interface RawPlacement {
  designator: string;
  x: number;
  y: number;
  rotation: number;
  side: 'top' | 'bottom';
}

/** What `parsePlacements` answers; the error words are those of BOMs (unreadable, no_columns, empty). */
export interface ParsedPlacements {
  placements: RawPlacement[];
  errorKey?: BomErrorKey;
}

/** Parts one file may place (a dense board has a few thousand). */
export const MAX_PLACEMENTS = 20_000;
/** Lines before the header that may hold titles (Altium writes about a dozen). */
const HEADER_SEARCH_LINES = 40;

type Unit = 'mm' | 'mil' | 'in';
const MM_PER: Record<Unit, number> = { mm: 1, mil: 0.0254, in: 25.4 };

type Format =
  | { kind: 'kicad-ascii'; unit: Unit }
  | { kind: 'eagle'; side: 'top' | 'bottom' }
  | { kind: 'table'; headerLine: number; delimiter: string; unit: Unit | null };

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

function unitWord(word: string | undefined): Unit | null {
  const w = (word ?? '').toLowerCase();
  if (w === 'mm' || w === 'metric' || w === 'millimeters' || w === 'millimetres') return 'mm';
  if (w === 'mil' || w === 'mils' || w === 'thou') return 'mil';
  if (w === 'in' || w === 'inch' || w === 'inches' || w === '"' || w === 'imperial') return 'in';
  return null;
}

/** Which placement column a header cell names, with the unit it may carry (`Center-X(mm)`). */
function placementRole(cell: string): { role: 'designator' | 'x' | 'y' | 'rotation' | 'side'; unit: Unit | null } | null {
  const folded = foldHeader(cell);
  if (/^(designator|ref|reference|refdes|part|partname|component|name|位号)$/u.test(folded)) return { role: 'designator', unit: null };
  const axis = /^(?:pos|mid|center|centre|centroid|location|position|placement)?([xy])(?:pos|loc|location)?(mm|mil|mils|in|inch)?$/.exec(folded);
  if (axis) return { role: axis[1] === 'x' ? 'x' : 'y', unit: unitWord(axis[2]) };
  if (/^(rot|rotation|angle|rotate|orientation|旋转)$/u.test(folded)) return { role: 'rotation', unit: null };
  if (/^(side|layer|tb|mirror|层)$/u.test(folded)) return { role: 'side', unit: null };
  return null;
}

function splitHeader(line: string): { cells: string[]; delimiter: string } {
  const delimiter = line.includes('\t') ? '\t' : line.includes(',') ? ',' : line.includes(';') ? ';' : ' ';
  const cells = (Papa.parse<string[]>(line.trim(), { delimiter }).data[0] ?? []).map((cell) => cell.trim()).filter((cell) => delimiter !== ' ' || cell);
  return { cells, delimiter };
}

function isTableHeader(cells: string[]): boolean {
  const roles = new Set(cells.map((cell) => placementRole(cell)?.role));
  return roles.has('designator') && roles.has('x') && roles.has('y');
}

const EAGLE_LINE = /^\S+\s+-?\d+(?:\.\d+)?\s+-?\d+(?:\.\d+)?\s+-?\d+(?:\.\d+)?(?:\s|$)/;

/** The file's format, from its content (and, for EAGLE's headerless files, its extension). */
function detectFormat(lines: string[], filename: string): Format | null {
  const head = lines.slice(0, HEADER_SEARCH_LINES);
  const kicadHeader = head.some((line) => /^#+\s*(module|footprint) positions/i.test(line) || /^#\s*Ref\s+Val\s+Package\s+PosX\s+PosY\s+Rot\s+Side/i.test(line));
  if (kicadHeader) {
    const unitLine = head.find((line) => /^##\s*Unit\s*=/i.test(line));
    return { kind: 'kicad-ascii', unit: unitWord(/Unit\s*=\s*([a-z]+)/i.exec(unitLine ?? '')?.[1]) ?? 'mm' };
  }
  for (let i = 0; i < head.length; i++) {
    const { cells, delimiter } = splitHeader(head[i]!);
    if (isTableHeader(cells)) {
      // Altium states its unit among the title lines ("Units used: mil" / "Units used in this file : Metric (mm)").
      const unitLine = head.slice(0, i).find((line) => /units?\s+used/i.test(line));
      const unit = unitLine ? (unitWord(/\b(mm|mils?|inch(?:es)?|metric|imperial)\b/i.exec(unitLine)?.[1]) ?? null) : null;
      return { kind: 'table', headerLine: i, delimiter, unit };
    }
  }
  const ext = extensionOf(filename);
  const data = lines.filter((line) => line.trim() && !line.startsWith('#'));
  if (data.length > 0 && data.slice(0, 50).every((line) => EAGLE_LINE.test(line.trim()))) {
    if (ext === 'mnt' || ext === 'mnb' || data.length >= 2) return { kind: 'eagle', side: ext === 'mnb' ? 'bottom' : 'top' };
  }
  return null;
}

/** A coordinate cell (`12.3`, `12.3mm`, `485mil`) in millimetres; null when it is no number. */
function coordinate(cell: string | undefined, fallback: Unit): number | null {
  const match = /^\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*(mm|mils?|in|inch|")?\s*$/i.exec(cell ?? '');
  if (!match) return null;
  const value = Number(match[1]) * MM_PER[unitWord(match[2]) ?? fallback];
  return Number.isFinite(value) ? value : null;
}

function rotationOf(cell: string | undefined): number {
  const value = Number.parseFloat(cell ?? '');
  if (!Number.isFinite(value)) return 0;
  return ((value % 360) + 360) % 360;
}

function sideOf(cell: string | undefined, fallback: 'top' | 'bottom' = 'top'): 'top' | 'bottom' {
  const folded = (cell ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  if (/^(b|bot|bottom|bottomlayer|back|bcu|solder|bottomside)$/.test(folded)) return 'bottom';
  if (/^(t|top|toplayer|front|fcu|component|topside)$/.test(folded)) return 'top';
  return fallback;
}

function place(designator: string | undefined, x: number | null, y: number | null, rotation: number, side: 'top' | 'bottom'): RawPlacement | null {
  const name = (designator ?? '').trim().slice(0, 100);
  if (!name || x === null || y === null) return null;
  return { designator: name, x, y, rotation, side };
}

function readKicadAscii(lines: string[], unit: Unit): RawPlacement[] {
  const out: RawPlacement[] = [];
  for (const line of lines) {
    if (out.length >= MAX_PLACEMENTS) break;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    // Ref Val Package PosX PosY Rot Side: read the numbers from the end, values may hold spaces.
    const t = line.trim().split(/\s+/);
    if (t.length < 5) continue;
    const n = t.length;
    const part = place(t[0], coordinate(t[n - 4], unit), coordinate(t[n - 3], unit), rotationOf(t[n - 2]), sideOf(t[n - 1]));
    if (part) out.push(part);
  }
  return out;
}

function readEagle(lines: string[], side: 'top' | 'bottom'): RawPlacement[] {
  const out: RawPlacement[] = [];
  for (const line of lines) {
    if (out.length >= MAX_PLACEMENTS) break;
    const t = line.trim().split(/\s+/);
    if (t.length < 4 || !EAGLE_LINE.test(line.trim())) continue;
    const part = place(t[0], coordinate(t[1], 'mm'), coordinate(t[2], 'mm'), rotationOf(t[3]), side);
    if (part) out.push(part);
  }
  return out;
}

function readTable(lines: string[], format: Extract<Format, { kind: 'table' }>): RawPlacement[] {
  const text = lines.slice(format.headerLine).join('\n');
  const rows = Papa.parse<string[]>(text, { delimiter: format.delimiter, skipEmptyLines: 'greedy', preview: MAX_PLACEMENTS + 1 }).data;
  const clean = (row: string[]) => (format.delimiter === ' ' ? row.filter((cell) => cell !== '') : row).map((cell) => cell.trim());
  const header = clean(rows[0] ?? []);
  const index: Partial<Record<'designator' | 'x' | 'y' | 'rotation' | 'side', number>> = {};
  let headerUnit: Unit | null = null;
  header.forEach((cell, i) => {
    const found = placementRole(cell);
    if (!found || index[found.role] !== undefined) return;
    index[found.role] = i;
    if (found.unit && (found.role === 'x' || found.role === 'y')) headerUnit = found.unit;
  });
  const unit: Unit = headerUnit ?? format.unit ?? 'mm';
  const out: RawPlacement[] = [];
  for (const raw of rows.slice(1)) {
    if (out.length >= MAX_PLACEMENTS) break;
    const row = clean(raw);
    const at = (role: keyof typeof index) => (index[role] === undefined ? undefined : row[index[role]!]);
    const part = place(at('designator'), coordinate(at('x'), unit), coordinate(at('y'), unit), rotationOf(at('rotation')), sideOf(at('side')));
    if (part) out.push(part);
  }
  return out;
}

function textLines(bytes: Uint8Array): string[] | null {
  const text = decodeTableText(bytes.subarray(0, 16 * 1024 * 1024));
  return text === null ? null : text.split(/\r\n|\r|\n/);
}

/** Whether a text file is a placement file this module reads (used to classify uploads). */
export function looksLikePlacements(text: string, filename: string): boolean {
  try {
    const lines = text.slice(0, 64 * 1024).split(/\r\n|\r|\n/);
    // The start of a longer file may end inside a line: judge only whole lines.
    if (lines.length > 1 && !/[\r\n]$/.test(text.slice(0, 64 * 1024))) lines.pop();
    return detectFormat(lines, filename) !== null;
  } catch {
    return false;
  }
}

/** Reads the parts of a placement file; an `errorKey` when it is not text, not one of the formats, or places nothing. */
export function parsePlacements(bytes: Uint8Array, filename: string): ParsedPlacements {
  try {
    const lines = textLines(bytes);
    if (lines === null) return { placements: [], errorKey: 'unreadable' };
    const format = detectFormat(lines, filename);
    if (!format) return { placements: [], errorKey: 'no_columns' };
    const placements =
      format.kind === 'kicad-ascii' ? readKicadAscii(lines, format.unit) : format.kind === 'eagle' ? readEagle(lines, format.side) : readTable(lines, format);
    return placements.length > 0 ? { placements } : { placements: [], errorKey: 'empty' };
  } catch {
    return { placements: [], errorKey: 'unreadable' };
  }
}
