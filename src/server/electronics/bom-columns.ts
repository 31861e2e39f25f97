/**
 * Which BOM column a header cell names. Every CAD tool and BOM plugin has its own words for the
 * same thing (KiCad `Reference`, EAGLE `Parts`, Altium `Designator`, 1-click-BOM `References`,
 * EasyEDA `位号`); headers are compared after folding case, spaces and punctuation, so
 * `LCSC Part #`, `lcsc_part_number` and `LCSC-PartNumber` are one name.
 */
import type { BomColumn } from '../../lib/contract/eda.ts';

/** A header folded for comparison: lower case, `#` read as "number", everything but letters and digits dropped. */
export function foldHeader(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/#/g, 'number')
    .replace(/\bno\.?(?=\s|$)/g, 'number')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Synonyms per column, already folded. Order of columns matters only for `value` and
 * `description`: a header is looked up exactly, never by substring, so "Description/Value"
 * (EAGLE BOM exports) is listed where it belongs.
 */
const SYNONYMS: Record<BomColumn, string[]> = {
  designators: [
    'reference', 'references', 'ref', 'refs', 'refdes', 'referencedesignator', 'referencedesignators', 'designator', 'designators',
    'designation', 'parts', 'part', 'partreference', 'partreferences', 'location', 'locations', 'components', 'position', '位号', '标号', '元件位号',
  ],
  quantity: ['quantity', 'qty', 'qnty', 'quantityperpcb', 'qtyperboard', 'quantityperboard', 'count', 'amount', 'pcs', 'quantity1', '数量', '用量'],
  value: ['value', 'val', 'comment', 'name', 'partvalue', 'values', '值', '名称', '参数', '标称值'],
  footprint: ['footprint', 'package', 'packagefootprint', 'footprintpackage', 'case', 'casepackage', 'pcbfootprint', 'packagecase', 'footprintname', '封装'],
  manufacturer: ['manufacturer', 'manufacturer1', 'manufacturername', 'mfr', 'mfg', 'mfrname', 'mfgname', 'manufacture', 'maker', 'brand', '制造商', '厂家', '品牌', '生产商'],
  mpn: [
    'mpn', 'mpn1', 'partnumber', 'mfrpartnumber', 'mfgpartnumber', 'mfrpn', 'mfgpn', 'mfrpart', 'mfgpart', 'manufacturerpartnumber',
    'manufacturerpartnumber1', 'manufacturerpart', 'manufacturerpn', 'manufacturepartnumber', 'partno', 'partnum', 'pn',
    '制造商料号', '制造商型号', '厂家型号', '型号', '料号',
  ],
  lcsc: [
    'lcsc', 'lcscpart', 'lcscpartnumber', 'lcscpn', 'lcscsku', 'lcscnumber', 'lcscpartno', 'lcsccode', 'jlcpcbpartnumber', 'jlcpcbpart',
    'jlcpart', 'jlcpartnumber', 'jlcpcb', 'jlc', 'jlcpn', '商品编号', '立创编号',
  ],
  mouser: ['mouser', 'mousersku', 'mouserpartnumber', 'mouserpn', 'mousernumber', 'mouserpart'],
  digikey: ['digikey', 'digikeysku', 'digikeypartnumber', 'digikeypn', 'digikeynumber', 'digikeypart', 'dk', 'dkpn'],
  farnell: ['farnell', 'farnellsku', 'farnellpartnumber', 'farnellpn', 'farnellordercode', 'element14', 'element14sku', 'ordercode'],
  description: ['description', 'desc', 'descriptionvalue', 'partdescription', 'notes', 'note', 'characteristics', '描述', '说明', '备注'],
};

const LOOKUP = new Map<string, BomColumn>();
for (const [column, names] of Object.entries(SYNONYMS) as [BomColumn, string[]][]) {
  for (const name of names) LOOKUP.set(name, column);
}

/** Headers naming the distributor of the part number beside it (EasyEDA `Supplier` + `Supplier Part`, Altium `Supplier 1` + `Supplier Part Number 1`). */
const SUPPLIER_NAME = /^(supplier|distributor|vendor|供应商)(\d*)$/u;
const SUPPLIER_PART = /^(supplierpart|supplierpartnumber|supplierpn|suppliersku|suppliernumber|supplierordercode|distributorpartnumber|distributorpn|vendorpartnumber|供应商编号|供应商料号)(\d*)$/u;

/** The column a header names, or null. */
export function matchBomHeader(header: string): BomColumn | null {
  return LOOKUP.get(foldHeader(header)) ?? null;
}

/** The distributor a supplier name stands for in a row (`LCSC`, `Digi-Key`, `Mouser Electronics`…). */
export function supplierColumn(name: string): BomColumn | null {
  const folded = foldHeader(name);
  if (/^(lcsc|jlc|jlcpcb|szlcsc|立创)/u.test(folded)) return 'lcsc';
  if (folded.startsWith('mouser')) return 'mouser';
  if (folded.startsWith('digikey') || folded.startsWith('digi')) return 'digikey';
  if (folded.startsWith('farnell') || folded.startsWith('element14')) return 'farnell';
  return null;
}

/** How each cell of a header row is read. */
export type HeaderRole = { kind: 'column'; column: BomColumn } | { kind: 'supplierName'; group: string } | { kind: 'supplierPart'; group: string } | null;

/** The role of every header cell; the first cell naming a column wins, later duplicates are ignored. */
export function classifyHeaderRow(cells: string[]): HeaderRole[] {
  const taken = new Set<BomColumn>();
  return cells.map((cell) => {
    const folded = foldHeader(cell);
    if (!folded) return null;
    const supplierName = SUPPLIER_NAME.exec(folded);
    if (supplierName) return { kind: 'supplierName', group: supplierName[2] || '1' };
    const supplierPart = SUPPLIER_PART.exec(folded);
    if (supplierPart) return { kind: 'supplierPart', group: supplierPart[2] || '1' };
    const column = LOOKUP.get(folded);
    if (!column || taken.has(column)) return null;
    taken.add(column);
    return { kind: 'column', column };
  });
}

/** How many distinct columns a header row names (supplier pairs count once): the header is the row that names most. */
export function headerScore(cells: string[]): number {
  const roles = classifyHeaderRow(cells);
  const columns = new Set(roles.flatMap((role) => (role?.kind === 'column' ? [role.column] : [])));
  const supplier = roles.some((role) => role?.kind === 'supplierPart') ? 1 : 0;
  return columns.size + supplier;
}
