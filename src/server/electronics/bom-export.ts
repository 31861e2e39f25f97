/**
 * A BOM as the CSV a distributor's BOM upload takes, for a number of boards: JLCPCB assembly,
 * LCSC's BOM tool, Mouser's and Digi-Key's BOM managers, or every column (plain). Opened in
 * Excel it shows accents and Chinese right (UTF-8 byte-order mark) and runs no formula a BOM
 * author slipped into a cell (such cells are prefixed with a quote).
 */
import Papa from 'papaparse';
import { MAX_EXPORT_BOARDS, type BomExportFormat } from '../../lib/contract/eda.ts';
import type { BomLine } from '../../lib/contract/schemas/eda.ts';

/** Cells a spreadsheet would run as a formula (or a DDE command) when the file is opened. */
const FORMULA_START = /^[=+\-@\t\r]/;

type Layout = { header: string[]; row: (line: BomLine, quantity: number) => Array<string | number> };

const designatorList = (line: BomLine) => line.designators.join(',');
const describe = (line: BomLine) => line.description || line.value;

/**
 * Column layouts of the distributors' BOM uploads. Every line appears in every layout, even
 * without that distributor's part number (the manufacturer part number is there to search by),
 * so nothing drops out of an order unnoticed.
 */
const LAYOUTS: Record<BomExportFormat, Layout> = {
  // JLCPCB's assembly BOM template: the part count per board comes from the designators, and the
  // number of boards is entered in the order form, so this layout has no quantity column. JLC
  // searches its parts by Comment when there is no part number: the MPN finds more than prose.
  jlc: {
    header: ['Comment', 'Designator', 'Footprint', 'JLCPCB Part #'],
    row: (line) => [line.value || line.mpn || line.description, designatorList(line), line.footprint, line.lcsc],
  },
  lcsc: {
    header: ['Quantity', 'Manufacture Part Number', 'Manufacturer', 'LCSC Part Number', 'Description', 'Package', 'Designator'],
    row: (line, quantity) => [quantity, line.mpn, line.manufacturer, line.lcsc, describe(line), line.footprint, designatorList(line)],
  },
  mouser: {
    header: ['Mouser Part Number', 'Manufacturer Part Number', 'Manufacturer', 'Quantity', 'Description', 'Customer Part Number'],
    row: (line, quantity) => [line.mouser, line.mpn, line.manufacturer, quantity, describe(line), designatorList(line)],
  },
  digikey: {
    header: ['Digi-Key Part Number', 'Manufacturer Part Number', 'Manufacturer', 'Quantity', 'Customer Reference'],
    row: (line, quantity) => [line.digikey, line.mpn, line.manufacturer, quantity, designatorList(line)],
  },
  plain: {
    header: ['Designators', 'Quantity', 'Value', 'Footprint', 'Manufacturer', 'MPN', 'LCSC', 'Mouser', 'Digi-Key', 'Farnell', 'Description', 'DNP'],
    row: (line, quantity) => [
      designatorList(line), quantity, line.value, line.footprint, line.manufacturer, line.mpn, line.lcsc, line.mouser, line.digikey, line.farnell, line.description, line.dnp ? 'DNP' : '',
    ],
  },
};

/** A board count as a whole number from 1 to `MAX_EXPORT_BOARDS` (anything else is 1). */
export function exportBoardCount(boards: number): number {
  return Number.isFinite(boards) && boards >= 1 ? Math.min(Math.floor(boards), MAX_EXPORT_BOARDS) : 1;
}

/**
 * The BOM in `format`'s columns, quantities for `boards` boards, as a CSV file and its name.
 * Parts the design marks "do not populate" are left out of a distributor's upload (nobody orders
 * them) and marked in the plain list.
 */
export function exportBom(lines: BomLine[], format: BomExportFormat, boards: number): { filename: string; csv: string } {
  const count = exportBoardCount(boards);
  const layout = LAYOUTS[format] ?? LAYOUTS.plain;
  const ordered = format === 'plain' || !(format in LAYOUTS) ? lines : lines.filter((line) => !line.dnp);
  const data = ordered.map((line) => layout.row(line, Math.round(line.quantity * count * 1000) / 1000));
  const csv = Papa.unparse({ fields: layout.header, data }, { newline: '\r\n', escapeFormulae: FORMULA_START });
  return { filename: `bom-${format in LAYOUTS ? format : 'plain'}-${count}-board${count === 1 ? '' : 's'}.csv`, csv: `\uFEFF${csv}\r\n` };
}
