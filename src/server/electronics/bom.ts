/**
 * Reads a bill of materials (CSV, TSV, semicolon CSV or XLSX, from KiCad, EAGLE, Altium,
 * EasyEDA/JLC or Kitspace's 1-click-BOM) into the contract's BOM lines. Pure: bytes in, lines
 * out, no database. Hostile input never throws; it ends in an `errorKey`.
 */
import Papa from 'papaparse';
import { BOM_COLUMNS, type BomColumn, type BomErrorKey } from '../../lib/contract/eda.ts';
import { classifyHeaderRow, headerScore, supplierColumn, type HeaderRole } from './bom-columns.ts';
import { expandDesignators } from './designators.ts';
import { decodeTableText } from './text-decoding.ts';
import { isZipArchive, readXlsxRows } from './xlsx-rows.ts';
import type { BomLine } from '../../lib/contract/schemas/eda.ts';

/** What `parseBom` answers: the BOM's lines, the columns they fill, and the header as it was found. */
export interface ParsedBom {
  columns: BomColumn[];
  lines: BomLine[];
  foundColumns: string[];
  errorKey?: BomErrorKey;
}

/** Bounds on what one BOM may hold: beyond them the rest is not read. */
export const BOM_LIMITS = {
  lines: 5000,
  columns: 200,
  cellChars: 500,
  /** Rows before the header that may hold a title, a date or a project name. */
  headerSearchRows: 15,
  /** Characters of text read at most (a 5,000-line BOM is far below). */
  textChars: 20 * 1024 * 1024,
} as const;

type TextColumn = Exclude<BomColumn, 'designators' | 'quantity'>;
const PART_NUMBER_COLUMNS: TextColumn[] = ['mpn', 'lcsc', 'mouser', 'digikey', 'farnell'];

function failure(errorKey: BomErrorKey, foundColumns: string[] = []): ParsedBom {
  return { columns: [], lines: [], foundColumns, errorKey };
}

function readTextRows(bytes: Uint8Array): string[][] | null {
  const text = decodeTableText(bytes);
  if (text === null) return null;
  const result = Papa.parse<string[]>(text.slice(0, BOM_LIMITS.textChars), {
    skipEmptyLines: 'greedy',
    preview: BOM_LIMITS.lines + BOM_LIMITS.headerSearchRows,
    delimitersToGuess: [',', '\t', ';', '|'],
  });
  return result.data.filter(Array.isArray);
}

/** A row cut to the column limit with every cell trimmed and cut to the cell limit. */
function tidyRow(row: unknown[]): string[] {
  return row.slice(0, BOM_LIMITS.columns).map((cell) => String(cell ?? '').trim().slice(0, BOM_LIMITS.cellChars));
}

const nonEmpty = (row: string[]) => row.filter(Boolean);

/**
 * The header: among the first rows, the one naming the most known columns; -1 when none names
 * enough to be a BOM (designators or value, and at least one column more).
 */
function findHeader(rows: string[][]): number {
  let best = { index: -1, score: 0 };
  for (let i = 0; i < Math.min(rows.length, BOM_LIMITS.headerSearchRows); i++) {
    const score = headerScore(rows[i]!);
    if (score > best.score) best = { index: i, score };
  }
  if (best.index < 0 || best.score < 2) return -1;
  const named = new Set(classifyHeaderRow(rows[best.index]!).flatMap((role) => (role?.kind === 'column' ? [role.column] : [])));
  return named.has('designators') || named.has('value') ? best.index : -1;
}

/** The row that looks most like a header when none is recognised: the widest of the first rows. */
function widestRow(rows: string[][]): string[] {
  let widest: string[] = [];
  for (const row of rows.slice(0, BOM_LIMITS.headerSearchRows)) if (nonEmpty(row).length > widest.length) widest = nonEmpty(row);
  return widest;
}

/** A quantity cell (`10`, `10 pcs`, `2.5`); null when it holds no number. */
function parseQuantity(cell: string): number | null {
  const match = /^\s*(\d+(?:[.,]\d+)?)/.exec(cell);
  if (!match) return null;
  const n = Number(match[1]!.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/** A BOM line with nothing filled in. */
export function emptyBomLine(lineNo: number): BomLine {
  return { lineNo, designators: [], quantity: 0, value: '', footprint: '', manufacturer: '', mpn: '', lcsc: '', mouser: '', digikey: '', farnell: '', description: '', dnp: false };
}

/**
 * One BOM line from a row and the roles of its header's cells (`classifyHeaderRow`); null when the
 * row names no part (an empty or summary row). Also reads a KiCad symbol's fields as a row.
 */
export function readBomRow(row: string[], roles: HeaderRole[], lineNo: number): BomLine | null {
  const line = emptyBomLine(lineNo);
  let quantityCell: string | null = null;
  const supplierNames = new Map<string, string>();
  const supplierParts = new Map<string, string>();
  roles.forEach((role, index) => {
    const cell = row[index] ?? '';
    if (!role || !cell) return;
    if (role.kind === 'supplierName') supplierNames.set(role.group, cell);
    else if (role.kind === 'supplierPart') supplierParts.set(role.group, cell);
    else if (role.column === 'designators') line.designators = expandDesignators(cell);
    else if (role.column === 'quantity') quantityCell = cell;
    else line[role.column] = cell;
  });
  // A supplier part number goes to the distributor its row names; an unnamed one that reads
  // like an LCSC number (C followed by digits) is one.
  for (const [group, part] of supplierParts) {
    const named = supplierNames.get(group);
    const column = named !== undefined ? supplierColumn(named) : /^C\d{2,}$/.test(part) ? 'lcsc' : null;
    if (column && !line[column as TextColumn]) line[column as TextColumn] = part;
  }
  const hasPart = line.designators.length > 0 || line.value !== '' || PART_NUMBER_COLUMNS.some((column) => line[column] !== '');
  if (!hasPart) return null;
  // Summary rows ("Total", "Sum") carry a number but no part.
  if (line.designators.length === 0 && /^(total|sum|合计|总计)\b/iu.test(line.value || line.description)) return null;
  const quantity = quantityCell === null ? null : parseQuantity(quantityCell);
  line.quantity = quantity ?? (line.designators.length || 1);
  return line;
}

/** Whether a text names BOM columns in a header among its first rows (used to recognise uploads). */
export function looksLikeBomText(text: string): boolean {
  try {
    const rows = Papa.parse<string[]>(text.slice(0, 64 * 1024), { skipEmptyLines: 'greedy', preview: BOM_LIMITS.headerSearchRows, delimitersToGuess: [',', '\t', ';', '|'] }).data;
    return findHeader(rows.filter(Array.isArray).map(tidyRow)) >= 0;
  } catch {
    return false;
  }
}

/**
 * Reads a BOM from its bytes. `filename` is only a hint (the content decides): XLSX is
 * recognised by its zip signature, text by its byte-order mark or as UTF-8, the delimiter
 * (comma, tab, semicolon) by papaparse, the header among the first rows by its column names.
 */
export async function parseBom(bytes: Uint8Array, filename: string): Promise<ParsedBom> {
  void filename;
  try {
    const maxRows = BOM_LIMITS.lines + BOM_LIMITS.headerSearchRows;
    const raw = isZipArchive(bytes) ? await readXlsxRows(bytes, maxRows, BOM_LIMITS.columns) : readTextRows(bytes);
    if (raw === null) return failure('unreadable');
    const rows = raw.map(tidyRow).filter((row) => row.some(Boolean));
    if (rows.length === 0) return failure('empty');

    const headerIndex = findHeader(rows);
    if (headerIndex < 0) return failure('no_columns', widestRow(rows));
    const headerRow = rows[headerIndex]!;
    const roles = classifyHeaderRow(headerRow);
    const foundColumns = nonEmpty(headerRow);

    const lines: BomLine[] = [];
    for (const row of rows.slice(headerIndex + 1)) {
      if (lines.length >= BOM_LIMITS.lines) break;
      const line = readBomRow(row, roles, lines.length + 1);
      if (line) lines.push(line);
    }
    if (lines.length === 0) return failure('empty', foundColumns);

    const columns = BOM_COLUMNS.filter((column) =>
      column === 'quantity' ? true : column === 'designators' ? lines.some((line) => line.designators.length > 0) : lines.some((line) => line[column] !== ''),
    );
    return { columns, lines, foundColumns };
  } catch {
    return failure('unreadable');
  }
}
