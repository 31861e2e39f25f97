import { computed, map } from 'nanostores';
import { MAX_EXPORT_BOARDS, type BomColumn, type BomExportFormat } from '../lib/contract/eda.ts';
import type { BomLine } from '../lib/contract/schemas/eda.ts';
import { digikeyCartFields, type FormField } from '../lib/eda-order.ts';

export type SortDirection = 'ascending' | 'descending';

export interface BomSort {
  column: BomColumn;
  direction: SortDirection;
}

/** The largest "number of boards" the table multiplies by: the exports' own cap, so every link it builds answers. */
export const MAX_BOARDS = MAX_EXPORT_BOARDS;

// Numeric collation puts R2 before R10 and C1 before c2 whatever the case, in every language.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Natural order of designators and texts: `R2` < `R10`, `C1` < `c2`, empty values last. */
export function compareNatural(a: string, b: string): number {
  if (!a || !b) return a ? -1 : b ? 1 : 0;
  return collator.compare(a, b);
}

/** A line's text in `column`, as the table shows it and the filter searches it. */
export function cellText(line: BomLine, column: BomColumn): string {
  if (column === 'designators') return line.designators.join(', ');
  if (column === 'quantity') return String(line.quantity);
  return line[column];
}

/** Lines ordered by `sort` (stable: equal lines keep the file's order). */
export function sortLines(lines: readonly BomLine[], sort: BomSort | null): BomLine[] {
  if (!sort) return [...lines];
  const { column, direction } = sort;
  const sign = direction === 'ascending' ? 1 : -1;
  const compare = (a: BomLine, b: BomLine): number => {
    if (column === 'quantity') return a.quantity - b.quantity;
    if (column === 'designators') return compareNatural(a.designators[0] ?? '', b.designators[0] ?? '');
    return compareNatural(a[column], b[column]);
  };
  return [...lines].sort((a, b) => sign * compare(a, b) || a.lineNo - b.lineNo);
}

/** Lines with `query` (any case, spaces around ignored) in any of `columns`. */
export function filterLines(lines: readonly BomLine[], columns: readonly BomColumn[], query: string): BomLine[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...lines];
  return lines.filter((line) => columns.some((column) => cellText(line, column).toLowerCase().includes(needle)));
}

/**
 * The count a "number of boards" field's text stands for, or null while it stands for none
 * (empty, `0`, a sign or a fraction being typed): a whole number from 1, capped at `MAX_BOARDS`.
 */
export function boardsFromText(text: string): number | null {
  const digits = text.trim();
  if (!/^\d+$/.test(digits)) return null;
  const value = Number(digits);
  return value >= 1 ? Math.min(MAX_BOARDS, value) : null;
}

/** The parts a line needs for `boards` boards. */
export const quantityFor = (line: BomLine, boards: number): number => line.quantity * boards;

/** The ordering export of the project's BOM for `boards` boards (`GET /eda/{id}/bom.csv`). */
export function exportHref(projectId: string, format: BomExportFormat, boards: number): string {
  return `/eda/${encodeURIComponent(projectId)}/bom.csv?format=${format}&boards=${boards}`;
}

/** Columns holding a distributor's part number, linked to that distributor's product page or search. */
export type SupplierColumn = 'lcsc' | 'mouser' | 'digikey' | 'farnell';
export const SUPPLIER_COLUMNS: readonly SupplierColumn[] = ['lcsc', 'mouser', 'digikey', 'farnell'];

export const isSupplierColumn = (column: BomColumn): column is SupplierColumn => (SUPPLIER_COLUMNS as readonly string[]).includes(column);

/** Where a distributor shows `part`: LCSC's own page for a `C…` number, otherwise its search. */
export function supplierUrl(column: SupplierColumn, part: string): string {
  const code = part.trim();
  const query = encodeURIComponent(code);
  switch (column) {
    case 'lcsc':
      return /^C\d+$/i.test(code) ? `https://www.lcsc.com/product-detail/${code.toUpperCase()}.html` : `https://www.lcsc.com/search?q=${query}`;
    case 'mouser':
      return `https://www.mouser.com/c/?q=${query}`;
    case 'digikey':
      return `https://www.digikey.com/en/products/result?keywords=${query}`;
    case 'farnell':
      return `https://www.farnell.com/search?st=${query}`;
  }
}

export interface BomTableInit {
  columns: BomColumn[];
  lines: BomLine[];
}

export interface BomTableState {
  sort: BomSort | null;
  query: string;
  /** The last valid number of boards: what the quantities and the export links are for. */
  boards: number;
  /** The field's text as typed, which may be empty or unfinished while the person types. */
  boardsText: string;
}

/**
 * One BOM table: its order, its filter and the number of boards its quantities and exports are
 * for. `$rows` are the lines it shows.
 */
export function createBomTable({ columns, lines }: BomTableInit) {
  const $table = map<BomTableState>({ sort: null, query: '', boards: 1, boardsText: '1' });
  const $rows = computed($table, ({ sort, query }) => sortLines(filterLines(lines, columns, query), sort));
  /** The hidden fields of Digi-Key's "add all to cart" form, for the number of boards in force (every line, whatever the filter). */
  const $digikeyCart = computed($table, ({ boards }): FormField[] => digikeyCartFields(lines, boards));

  /** A column header was pressed: sorts by it ascending, then descending, then ascending again. */
  function sortBy(column: BomColumn): void {
    const current = $table.get().sort;
    const direction: SortDirection = current?.column === column && current.direction === 'ascending' ? 'descending' : 'ascending';
    $table.setKey('sort', { column, direction });
  }

  const setQuery = (query: string): void => $table.setKey('query', query);

  /**
   * The boards field was typed in. Its text is kept as typed (a cleared field stays empty, so
   * typing 5 next gives 5, not 15); the count moves only when the text is a valid one.
   */
  function typeBoards(text: string): void {
    const count = boardsFromText(text);
    $table.set({ ...$table.get(), boardsText: text, ...(count === null ? {} : { boards: count }) });
  }

  /** The field was left: it shows the count in force again (an empty or invalid text is forgotten). */
  const settleBoards = (): void => $table.setKey('boardsText', String($table.get().boards));

  /** Makes sure the line `lineNo` is among the shown rows (a part picked on the board clears a filter that hides it). */
  function reveal(lineNo: number): void {
    if (!$rows.get().some((line) => line.lineNo === lineNo)) $table.setKey('query', '');
  }

  return { $table, $rows, $digikeyCart, sortBy, setQuery, typeBoards, settleBoards, reveal };
}
