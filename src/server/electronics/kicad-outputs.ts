/**
 * Pure readers of what `kicad-cli` 9 writes for a design source: the XML netlist
 * (`sch export netlist --format kicadxml`), the sheets' SVGs (`sch export svg`), the ERC and DRC
 * reports (`--format json`) and the placement CSV (`pcb export pos --format csv --units mm`).
 * Text in, contract types out; no files, no processes. These outputs derive from a member's
 * design, so nothing here trusts them: odd content never throws, it gives empty results (or null
 * for a check report), and the caller marks that stage failed.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { BomColumn } from '../../lib/contract/eda.ts';
import type { BomLine, CheckItem, CheckResult, SchematicSymbol } from '../../lib/contract/schemas/eda.ts';
import type { SourcePlacement } from '../db/schema/electronics.ts';
import { classifyHeaderRow, foldHeader } from './bom-columns.ts';
import { BOM_LIMITS, readBomRow } from './bom.ts';
import { parsePlacements } from './placements.ts';

/** Bounds on what one source may put in its row (and in every `eda/detail` answer). */
export const KICAD_OUTPUT_LIMITS = {
  sheets: 1000,
  symbols: 20_000,
  /**
   * Items kept per check report. A careless design gives tens of thousands (every off-grid wire
   * end, every unrouted pad): kept whole they would make the stored report and each page load
   * megabytes, and nobody reads past the first few hundred. The counts stay exact.
   */
  checkItems: 2000,
  textChars: 500,
} as const;

// ---------------------------------------------------------------------------------------------
// The netlist

interface NetlistSheet {
  /** KiCad's page number: the sheet's place in the hierarchy, 1 for the root. */
  number: number;
  /** Its path of sheet names, `/` or `/Power/`. */
  names: string;
  /** Its path of sheet uuids, `/` or `/8ec0…/`. */
  tstamps: string;
  /** Its file's name, without folders (`power.kicad_sch`). */
  source: string;
}

interface NetlistComponent {
  ref: string;
  value: string;
  footprint: string;
  /** The symbol's user fields, in the schematic's order (KiCad's own ones too: Footprint, Datasheet, Description). */
  fields: Array<[string, string]>;
  /** Netlist properties: `dnp`, `exclude_from_bom`, `Sheetfile`… (no value: ''). */
  properties: Map<string, string>;
  /** The description from the symbol or its library, when the Description field is empty. */
  libraryDescription: string;
  sheetNames: string;
  sheetTstamps: string;
  /** The uuids of its units in their sheet file. */
  uuids: string[];
}

interface Netlist {
  sheets: NetlistSheet[];
  components: NetlistComponent[];
}

type XmlNode = Record<string, unknown>;

/** KiCad escapes `& < > " '` in names and values, and writes other characters as numeric references. */
function decodeEntities(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp|#\d{1,7}|#x[0-9a-f]{1,6});/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1]!.toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[entity.toLowerCase()] ?? whole;
  });
}

/** Every element named `name` under `node` (one element or many, as the parser gives them). */
function children(node: unknown, name: string): XmlNode[] {
  if (typeof node !== 'object' || node === null || !Object.hasOwn(node, name)) return [];
  const value = (node as XmlNode)[name];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => (typeof item === 'object' && item !== null ? (item as XmlNode) : { '#text': item }));
}

/** The text of an element (or of its first child `name`), '' when absent. */
function textOf(node: unknown, name?: string): string {
  const element = name === undefined ? node : children(node, name)[0];
  if (element === undefined || element === null) return '';
  if (typeof element !== 'object') return String(element);
  const value = (element as XmlNode)['#text'];
  return value === undefined || value === null || typeof value === 'object' ? '' : String(value);
}

function attribute(node: XmlNode | undefined, name: string): string {
  const value = node?.[`@${name}`];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

const cut = (text: string) => text.trim().slice(0, KICAD_OUTPUT_LIMITS.textChars);

/**
 * The netlist as a tree: attributes as `@name`, values as written (a sheet named `007` stays a
 * string). Entities are decoded by `decodeEntities` rather than the parser's own, which leaves
 * numeric references alone. Names such as `__proto__` make the parser throw: a netlist with one
 * is not KiCad's, and is read as garbage.
 */
const NETLIST_PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  tagValueProcessor: (_name, value) => decodeEntities(value),
  attributeValueProcessor: (_name, value) => decodeEntities(value),
  // The nets are most of a netlist and none of these readers' business.
  stopNodes: ['export.nets'],
});

/** The netlist's sheets and components; null when the text is not a KiCad XML netlist. */
function readNetlist(xml: string): Netlist | null {
  if (typeof xml !== 'string' || !xml.includes('<export')) return null;
  let tree: unknown;
  try {
    if (XMLValidator.validate(xml) !== true) return null;
    tree = NETLIST_PARSER.parse(xml);
  } catch {
    return null;
  }
  const root = children(tree, 'export')[0];
  if (!root) return null;
  const design = children(root, 'design')[0];
  const sheets: NetlistSheet[] = [];
  for (const sheet of children(design, 'sheet')) {
    const number = Number(attribute(sheet, 'number'));
    const names = attribute(sheet, 'name');
    if (!Number.isInteger(number) || number < 1 || !names.startsWith('/')) continue;
    const source = textOf(children(sheet, 'title_block')[0], 'source');
    sheets.push({ number, names, tstamps: attribute(sheet, 'tstamps') || '/', source: source.split(/[\\/]/).pop() ?? '' });
  }

  // The library's description stands in for a symbol's empty Description field.
  const libraryDescriptions = new Map<string, string>();
  for (const part of children(children(root, 'libparts')[0], 'libpart')) {
    libraryDescriptions.set(`${attribute(part, 'lib')}:${attribute(part, 'part')}`, textOf(part, 'description'));
  }

  const components: NetlistComponent[] = [];
  for (const comp of children(children(root, 'components')[0], 'comp')) {
    const ref = attribute(comp, 'ref').trim();
    if (!ref) continue;
    const fields: Array<[string, string]> = children(children(comp, 'fields')[0], 'field').map((field) => [attribute(field, 'name'), textOf(field)]);
    const properties = new Map(children(comp, 'property').map((property) => [attribute(property, 'name'), attribute(property, 'value')]));
    const libsource = children(comp, 'libsource')[0];
    const sheetpath = children(comp, 'sheetpath')[0];
    components.push({
      ref,
      value: textOf(comp, 'value'),
      footprint: textOf(comp, 'footprint'),
      fields,
      properties,
      libraryDescription:
        textOf(comp, 'description') ||
        attribute(libsource, 'description') ||
        (libraryDescriptions.get(`${attribute(libsource, 'lib')}:${attribute(libsource, 'part')}`) ?? ''),
      sheetNames: attribute(sheetpath, 'names'),
      sheetTstamps: attribute(sheetpath, 'tstamps'),
      uuids: textOf(comp, 'tstamps').split(/\s+/).filter(Boolean),
    });
  }
  return { sheets, components };
}

/** Power symbols and flags (`#PWR01`, `#FLG02`) are drawing aids, not parts; KiCad names them with `#`. */
const isPart = (ref: string) => !ref.startsWith('#');

const DNP_FIELDS = new Set(['dnp', 'dnf', 'donotpopulate', 'donotplace', 'donotfit', 'nopop', 'nopopulate', 'notpopulated', 'notfitted']);
const FALSE_WORDS = new Set(['', '0', 'no', 'n', 'false', 'off', '-', '~']);

/**
 * Marked "do not populate": KiCad 8 and 9's own attribute (the netlist property `dnp`), or a user
 * field the designer kept for it in older versions (`DNP`, `Do not populate`, `DNF` set to anything
 * but no/0/false).
 */
function isDnp(component: NetlistComponent): boolean {
  if (component.properties.has('dnp')) return true;
  return component.fields.some(([name, value]) => DNP_FIELDS.has(foldHeader(name)) && !FALSE_WORDS.has(value.trim().toLowerCase()));
}

// ---------------------------------------------------------------------------------------------
// Sheets

/** A sheet of the schematic with its SVG (one of the files given) and the page size that SVG has. */
export interface SourceSheet {
  /** Its own name; the root sheet is named after the project. */
  name: string;
  page: number;
  /** Its path of sheet names (`/`, `/Power/`), as the netlist and the ERC report write it. */
  path: string;
  /** The SVG's file name, as given. */
  file: string;
  /** Its sheet file's name without folders, as the netlist gives it (`power.kicad_sch`). */
  schematicFile: string;
  widthMm: number;
  heightMm: number;
}

const MM_PER_UNIT: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72, pc: 25.4 / 6, px: 25.4 / 96, '': 25.4 / 96 };

/** The page size an SVG declares on its root element (`width="279.4000mm"`), or null. */
function svgSizeMm(svg: string): { widthMm: number; heightMm: number } | null {
  // The root element comes after the XML declaration and doctype; never search a whole drawing.
  const head = /<svg\b([^>]*)>/.exec(svg.slice(0, 64 * 1024))?.[1];
  if (!head) return null;
  const length = (name: string) => {
    const match = new RegExp(`\\s${name}\\s*=\\s*["']\\s*([0-9]*\\.?[0-9]+(?:e[+-]?\\d+)?)\\s*(mm|cm|in|pt|pc|px)?\\s*["']`, 'i').exec(head);
    if (!match) return null;
    // To the 0.1 µm KiCad writes, without the float noise of a unit conversion (8.5in → 215.89999999999998).
    const value = Math.round(Number(match[1]) * MM_PER_UNIT[(match[2] ?? '').toLowerCase()]! * 1e4) / 1e4;
    return Number.isFinite(value) && value > 0 ? value : null;
  };
  const widthMm = length('width');
  const heightMm = length('height');
  return widthMm && heightMm ? { widthMm, heightMm } : null;
}

const baseName = (file: string) => file.split(/[\\/]/).pop() ?? file;

/**
 * The sheets of the netlist (`<design><sheet number name tstamps>`), each matched to its SVG.
 *
 * `kicad-cli sch export svg` names a sheet's file after the root schematic's name followed by the
 * sheet names on its path, each after a `-`, with `/` and `\` in a name turned into `_`:
 * `bitaxeUltra.svg` (the root), `bitaxeUltra-Power.svg`, `nest-Sub A_B-Inner 2.svg` (a sheet
 * "Inner 2" in a sheet "Sub A/B"). A sheet file placed twice is drawn twice, under each placement's
 * own sheet name (`…-BiasCircuit.svg`, `…-BiasCircuit1.svg`). A sheet's own name is its names path
 * less its parent's (found by the uuid path), since a name may itself hold a `/`.
 *
 * Sorted by page. Sheets whose SVG is missing or declares no size are left out; garbage → [].
 */
export function readSheets(netlistXml: string, svgs: Array<{ file: string; svg: string }>, projectName: string): SourceSheet[] {
  try {
    const netlist = readNetlist(netlistXml);
    if (!netlist || !Array.isArray(svgs)) return [];
    const byTstamps = new Map(netlist.sheets.map((sheet) => [sheet.tstamps, sheet]));
    const root = netlist.sheets.find((sheet) => sheet.tstamps === '/');
    // KiCad names the files after the root schematic's file; the project's name is the fallback.
    const prefix = root?.source.replace(/\.kicad_sch$/i, '') || projectName;

    const chains = new Map<NetlistSheet, string[]>();
    const chainOf = (sheet: NetlistSheet, depth = 0): string[] => {
      const known = chains.get(sheet);
      if (known) return known;
      let chain: string[];
      if (sheet.tstamps === '/' || sheet.names === '/') chain = [];
      else {
        const parent = byTstamps.get(sheet.tstamps.replace(/[^/]+\/$/, ''));
        chain =
          parent && parent !== sheet && depth < 100 && sheet.names.startsWith(parent.names) && sheet.names.endsWith('/')
            ? [...chainOf(parent, depth + 1), sheet.names.slice(parent.names.length, -1)]
            : sheet.names.split('/').filter(Boolean);
      }
      chains.set(sheet, chain);
      return chain;
    };

    const files = new Map<string, { file: string; svg: string }>();
    const filesFolded = new Map<string, { file: string; svg: string }>();
    for (const entry of svgs) {
      if (typeof entry?.file !== 'string' || typeof entry.svg !== 'string') continue;
      const name = baseName(entry.file).replace(/\.svg$/i, '');
      if (!files.has(name)) files.set(name, entry);
      if (!filesFolded.has(name.toLowerCase())) filesFolded.set(name.toLowerCase(), entry);
    }

    const out: SourceSheet[] = [];
    for (const sheet of [...netlist.sheets].sort((a, b) => a.number - b.number)) {
      if (out.length >= KICAD_OUTPUT_LIMITS.sheets) break;
      const chain = chainOf(sheet);
      const expected = [prefix, ...chain.map((name) => name.replace(/[\\/]/g, '_'))].join('-');
      const entry = files.get(expected) ?? filesFolded.get(expected.toLowerCase());
      const size = entry ? svgSizeMm(entry.svg) : null;
      if (!entry || !size) continue;
      out.push({ name: cut(chain.at(-1) ?? projectName), page: sheet.number, path: sheet.names, file: entry.file, schematicFile: sheet.source, ...size });
    }
    return out;
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Symbols

/**
 * The placed symbols of one `.kicad_sch` file: each top-level `(symbol … (at x y r) … (uuid u))`
 * by its uuid (the library's symbol definitions sit one level deeper, in `lib_symbols`). The
 * format is the same from KiCad 6 to 9: KiCad 6 writes uuids bare, later versions quoted.
 */
function placedSymbols(text: string): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  const n = text.length;
  let depth = 0;
  // Whether the next word is a list's head; the placed symbol being read (depth 2) and the
  // list of it being read (depth 3), with the words it holds.
  let head = false;
  let symbol: { at: number[] | null; uuid: string | null } | null = null;
  let child: { name: string; words: string[] } | null = null;

  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c === 40 /* ( */) {
      depth++;
      head = true;
      i++;
      continue;
    }
    if (c === 41 /* ) */) {
      if (depth === 3 && symbol && child) {
        if (child.name === 'at' && !symbol.at) symbol.at = child.words.slice(0, 2).map(Number);
        if (child.name === 'uuid' && !symbol.uuid) symbol.uuid = child.words[0] ?? null;
      } else if (depth === 2 && symbol) {
        const [x, y] = symbol.at ?? [];
        if (symbol.uuid && Number.isFinite(x) && Number.isFinite(y) && !out.has(symbol.uuid)) out.set(symbol.uuid, { x: x!, y: y! });
        symbol = null;
      }
      if (depth === 3) child = null;
      depth = Math.max(0, depth - 1);
      head = false;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    let word: string;
    if (c === 34 /* " */) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 /* \ */ ? 2 : 1;
      // Only uuids and numbers are read from strings: their escapes do not matter.
      word = text.slice(i + 1, Math.min(j, n));
      i = j + 1;
    } else {
      let j = i;
      while (j < n && !'() \t\n\r"'.includes(text[j]!)) j++;
      word = text.slice(i, j);
      i = j;
    }
    if (head) {
      head = false;
      if (depth === 2 && word === 'symbol') symbol = { at: null, uuid: null };
      else if (depth === 3 && symbol) child = { name: word, words: [] };
    } else if (depth === 3 && child) {
      child.words.push(word);
    }
  }
  return out;
}

/**
 * Every placed part of the netlist (power symbols and flags left out) with where it is drawn:
 * `sheet` is the page of its sheet (by the uuid path of the netlist's `<sheetpath>`), `xMm`/`yMm`
 * its `(at x y)` in its sheet file, found by its uuid (the netlist's `<tstamps>`). Schematic
 * coordinates are millimetres from the page's top-left corner, y down — the SVG's own frame
 * (`viewBox="0 0 width height"` in mm), so a position lands on the drawing as it is.
 *
 * `schematics`: each sheet file's text by its name relative to the project folder. A symbol's file
 * is the one its `Sheetfile` names (relative to its parent sheet's folder, so the name may lack
 * folders) or else any file holding its uuid. A file placed as several sheets draws its symbols at
 * the same place on each; the netlist gives each placement its own references. A symbol of several
 * units is one entry, at its first unit found. Symbols on a sheet not among `sheets` (no drawing),
 * or whose uuid no file holds, are left out; garbage → [].
 */
export function readSymbols(netlistXml: string, schematics: Map<string, string>, sheets: SourceSheet[]): SchematicSymbol[] {
  try {
    const netlist = readNetlist(netlistXml);
    if (!netlist || !(schematics instanceof Map) || !Array.isArray(sheets)) return [];
    const pages = new Set(sheets.map((sheet) => sheet.page));
    const pageByTstamps = new Map(netlist.sheets.map((sheet) => [sheet.tstamps, sheet.number]));
    const pageByNames = new Map(netlist.sheets.map((sheet) => [sheet.names, sheet.number]));

    const positions = new Map<string, Map<string, { x: number; y: number }>>();
    for (const [file, text] of schematics) if (typeof text === 'string') positions.set(file.replace(/\\/g, '/'), placedSymbols(text));
    const filesFor = (sheetfile: string): Array<Map<string, { x: number; y: number }>> => {
      const wanted = sheetfile.replace(/\\/g, '/').replace(/^\.\//, '');
      const named = [...positions].filter(([file]) => file === wanted || (wanted !== '' && file.endsWith(`/${wanted}`))).map(([, found]) => found);
      return [...named, ...positions.values()];
    };

    const out: SchematicSymbol[] = [];
    for (const component of netlist.components) {
      if (out.length >= KICAD_OUTPUT_LIMITS.symbols) break;
      if (!isPart(component.ref)) continue;
      const page = pageByTstamps.get(component.sheetTstamps) ?? pageByNames.get(component.sheetNames);
      if (page === undefined || !pages.has(page)) continue;
      let at: { x: number; y: number } | undefined;
      for (const found of filesFor(component.properties.get('Sheetfile') ?? '')) {
        at = component.uuids.map((uuid) => found.get(uuid)).find(Boolean);
        if (at) break;
      }
      if (!at) continue;
      out.push({ ref: cut(component.ref), value: cut(component.value), footprint: cut(component.footprint), sheet: page, xMm: at.x, yMm: at.y, dnp: isDnp(component) });
    }
    return out;
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// BOM

const collator = new Intl.Collator('en', { numeric: true });
/** R2 before R10, as KiCad sorts references. */
const naturally = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** KiCad's own fields, read from the netlist's elements rather than as user fields. */
const KICAD_FIELDS = new Set(['reference', 'value', 'footprint', 'datasheet']);
const TEXT_COLUMNS = ['value', 'footprint', 'manufacturer', 'mpn', 'lcsc', 'mouser', 'digikey', 'farnell', 'description'] as const;
/** What tells two parts apart on a BOM: what one orders, and whether it is fitted. */
const GROUP_COLUMNS = ['value', 'footprint', 'manufacturer', 'mpn', 'lcsc', 'mouser', 'digikey', 'farnell'] as const;

/** A part as a BOM line of one, its fields named as BOM files name them (`bom-columns.ts`). */
function componentLine(component: NetlistComponent): BomLine {
  // A header row of the reference, value and footprint first, so a user field such as "Package"
  // or "Part" never takes their place; then the Description field, then the user fields. Empty
  // fields are left out, so an empty "Description" lets a "Notes" field be the description.
  const cells: Array<[string, string]> = [
    ['Reference', component.ref],
    ['Value', component.value],
    ['Footprint', component.footprint],
    ...component.fields.filter(([name]) => foldHeader(name) === 'description'),
    ...component.fields.filter(([name]) => !KICAD_FIELDS.has(foldHeader(name)) && foldHeader(name) !== 'description'),
  ]
    .map(([name, value]): [string, string] => [name, cut(value)])
    .filter(([, value]) => value !== '');
  const line = readBomRow(
    cells.map(([, value]) => value),
    classifyHeaderRow(cells.map(([name]) => name)),
    0,
  );
  const base = line ?? { lineNo: 0, designators: [], quantity: 0, value: '', footprint: '', manufacturer: '', mpn: '', lcsc: '', mouser: '', digikey: '', farnell: '', description: '', dnp: false };
  return {
    ...base,
    // The netlist's own value and footprint, whatever a user field said.
    value: cut(component.value),
    footprint: cut(component.footprint),
    description: base.description || cut(component.libraryDescription),
    designators: [cut(component.ref)],
    quantity: 1,
    dnp: isDnp(component),
  };
}

/**
 * The bill of materials of the netlist: the parts in the BOM (KiCad's "exclude from BOM",
 * `<property name="exclude_from_bom"/>`, and power symbols left out), one line per group of parts
 * alike in value, footprint, DNP mark, manufacturer and part numbers — KiCad's grouping by value and
 * footprint, split further where parts that share a value differ in what one orders. The
 * description does not split a group (the same capacitor drawn with two library symbols has two);
 * a line's is that of its first part in the netlist. Designators natural-sorted; lines in the order of their first
 * designator, as KiCad sorts; `quantity` counts the parts (a reference used twice counts twice but
 * is listed once). Footprints stay as KiCad writes them, `Library:Name`, as in KiCad's own BOM
 * export, so a source's BOM and an uploaded KiCad BOM of the same design compare alike.
 * User fields become columns by the names BOM files use (`MPN`, `Manufacturer Part Number`,
 * `LCSC Part #`, `DK`, `Mouser`…). `columns` lists those some line filled; garbage → no lines.
 */
export function readSourceBom(netlistXml: string): { lines: BomLine[]; columns: BomColumn[] } {
  try {
    const netlist = readNetlist(netlistXml);
    if (!netlist) return { lines: [], columns: [] };
    const groups = new Map<string, { line: BomLine; designators: Set<string>; quantity: number }>();
    for (const component of netlist.components) {
      if (!isPart(component.ref) || component.properties.has('exclude_from_bom')) continue;
      const line = componentLine(component);
      const key = JSON.stringify([...GROUP_COLUMNS.map((column) => line[column]), line.dnp]);
      const group = groups.get(key);
      if (group) {
        group.designators.add(line.designators[0]!);
        group.quantity++;
      } else {
        if (groups.size >= BOM_LIMITS.lines) continue;
        groups.set(key, { line, designators: new Set(line.designators), quantity: 1 });
      }
    }
    const lines = [...groups.values()]
      .map(({ line, designators, quantity }) => ({ ...line, designators: [...designators].sort(naturally), quantity }))
      .sort((a, b) => naturally(a.designators[0] ?? '', b.designators[0] ?? ''))
      .map((line, index) => ({ ...line, lineNo: index + 1 }));
    const columns = lines.length === 0 ? [] : (['designators', 'quantity', ...TEXT_COLUMNS.filter((column) => lines.some((line) => line[column] !== ''))] as BomColumn[]);
    return { lines, columns };
  } catch {
    return { lines: [], columns: [] };
  }
}

// ---------------------------------------------------------------------------------------------
// DRC and ERC

const MM_PER_REPORT_UNIT: Record<string, number> = { mm: 1, in: 25.4, mils: 0.0254, mil: 0.0254 };

/** The largest page KiCad offers (A0, 1189 mm): bounds ERC positions when no sheet sizes are known. */
const LARGEST_PAGE_MM = 1189;

/**
 * A reference designator an item's description names: "Symbol U3 Pin 4 […]", "Footprint R5",
 * "Pad 1 [GND] of R3 on F.Cu", "Segment of J2 on F.Silkscreen". Unannotated ones (`R?`),
 * placeholders (`REF**`) and power symbols (`#PWR01`) are not parts.
 */
const REFERENCE_MENTIONS = [/\b(?:Symbol|Footprint)\s+([A-Za-z_][\w.+-]*)(?=\s|\[|$)/g, /\bof\s+([A-Za-z_][\w.+-]*)(?=\s+on\b|\s*$)/g];

function refsIn(description: string): string[] {
  const refs: string[] = [];
  for (const pattern of REFERENCE_MENTIONS) {
    for (const match of description.matchAll(pattern)) if (/\d/.test(match[1]!)) refs.push(match[1]!.slice(0, 100));
  }
  return refs;
}

/** A violation as read, before it is counted, placed on a sheet and listed. */
interface Violation {
  type: string;
  severity: 'error' | 'warning';
  description: string;
  position: { x: number; y: number } | null;
  /** ERC: the sheet path the report files it under. */
  sheetPath: string | null;
  refs: string[];
  /** What its first item names: a part, and the uuid of the object. */
  firstRef: string | null;
  firstUuid: string | null;
}

function readViolations(violations: unknown, sheetPath: string | null, unit: number): Violation[] {
  const out: Violation[] = [];
  if (!Array.isArray(violations)) return out;
  for (const violation of violations as Array<Record<string, unknown>>) {
    if (typeof violation !== 'object' || violation === null) continue;
    // Only what KiCad counts as a problem. What the designer waived (`--severity-all` writes it
    // with its own severity and `excluded: true`), and `info`/`exclusion`/`ignore`, are left out.
    const severity = violation.severity;
    if ((severity !== 'error' && severity !== 'warning') || violation.excluded === true) continue;
    const items = (Array.isArray(violation.items) ? violation.items : []).filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
    const descriptions = items.map((item) => (typeof item.description === 'string' ? item.description.slice(0, 1000) : ''));
    const pos = items[0]?.pos as Record<string, unknown> | undefined;
    const x = typeof pos?.x === 'number' ? pos.x * unit : NaN;
    const y = typeof pos?.y === 'number' ? pos.y * unit : NaN;
    out.push({
      type: typeof violation.type === 'string' && violation.type ? violation.type.slice(0, 100) : 'unknown',
      severity,
      description: typeof violation.description === 'string' ? cut(violation.description) : '',
      position: Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null,
      sheetPath,
      refs: [...new Set(descriptions.flatMap(refsIn))].slice(0, 50),
      firstRef: refsIn(descriptions[0] ?? '')[0] ?? null,
      firstUuid: typeof items[0]?.uuid === 'string' ? items[0].uuid : null,
    });
  }
  return out;
}

/** The uuids of every object a sheet file holds (symbols, pins, wires, labels…), by file name without folders. */
function uuidsByFile(schematics: Map<string, string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [file, text] of schematics) {
    if (typeof text !== 'string') continue;
    const name = baseName(file);
    const uuids = out.get(name) ?? new Set<string>();
    for (const match of text.matchAll(/\(uuid\s+"?([0-9A-Fa-f-]{8,64})"?\s*\)/g)) uuids.add(match[1]!);
    out.set(name, uuids);
  }
  return out;
}

/** What an ERC report's items are placed on: the schematic's sheets, and to find the right one, its files and symbols. */
export interface SchematicContext {
  sheets: SourceSheet[];
  /** Each sheet file's text by its name relative to the project folder (as `readSymbols` takes them). */
  schematics?: Map<string, string>;
  symbols?: SchematicSymbol[];
}

/**
 * A DRC or ERC report (`--format json`) as counts by severity and by type, and its items.
 *
 * DRC: `violations`, `unconnected_items` and `schematic_parity` all count. A position is the first
 * item's `pos` in the board's own coordinates (mm, y down, from KiCad's page origin — the placement
 * CSV's x and −y): putting it on the rendered board is the caller's business. `sheet` is null.
 *
 * ERC: `sheets[].violations`, each placed on a page of `context.sheets` at its first item's `pos`
 * (mm from that sheet's top-left, as its SVG). KiCad 9 files most violations under the root sheet
 * (`/`) whatever sheet they are on (in the Bitaxe source, 764 of 807), so the page is found from
 * what the first item is: the sheet of the part it names (`context.symbols`; references are per
 * placement, so exact even for a sheet file placed twice), else a sheet drawing the file that holds
 * its object's uuid (`context.schematics`; the page the report names if it is one of them), else
 * the page of the report's sheet path; null when none is known.
 * kicad-cli 9.0.8 also writes ERC positions a hundredth of their size (`--units mm` gives 1.42875
 * for a pin at 142.875 mm; the text report is right; upstream KiCad issue 25582 reports the same in
 * 10.0): when every position of a report fits within a hundredth of the largest sheet, they are
 * taken as such and multiplied by 100, so a fixed KiCad's reports read right as well.
 *
 * Both: `coordinate_units` (mm, in, mils) converted to mm. Only `error` and `warning` count and are
 * listed, without the violations the designer excluded (`--severity-all` writes those too, with
 * their own severity and `"excluded": true`). Items: errors first, then
 * warnings, each in the report's order, at most `KICAD_OUTPUT_LIMITS.checkItems`. Null when the
 * text is not such a report.
 */
export function readCheckReport(json: string, kind: 'drc' | 'erc', context: SchematicContext = { sheets: [] }): CheckResult | null {
  try {
    const report: unknown = JSON.parse(json);
    if (typeof report !== 'object' || report === null || Array.isArray(report)) return null;
    const body = report as Record<string, unknown>;
    const units = typeof body.coordinate_units === 'string' ? body.coordinate_units.toLowerCase() : 'mm';
    const unit = MM_PER_REPORT_UNIT[units] ?? NaN;
    const sheets = Array.isArray(context?.sheets) ? context.sheets : [];

    let violations: Violation[] = [];
    if (kind === 'drc') {
      const lists = ['violations', 'unconnected_items', 'schematic_parity'];
      if (!lists.some((key) => Array.isArray(body[key]))) return null;
      for (const key of lists) violations.push(...readViolations(body[key], null, unit));
    } else {
      if (!Array.isArray(body.sheets)) return null;
      for (const sheet of body.sheets as Array<Record<string, unknown>>) {
        if (typeof sheet !== 'object' || sheet === null) continue;
        violations.push(...readViolations(sheet.violations, typeof sheet.path === 'string' ? sheet.path : null, unit));
      }
      const largest = sheets.length > 0 ? Math.max(...sheets.map((sheet) => Math.max(sheet.widthMm, sheet.heightMm))) : LARGEST_PAGE_MM;
      const placed = violations.flatMap((violation) => (violation.position ? [violation.position] : []));
      if (placed.length > 0 && placed.every((p) => Math.abs(p.x) <= largest / 100 && Math.abs(p.y) <= largest / 100)) {
        violations = violations.map((violation) => (violation.position ? { ...violation, position: { x: violation.position.x * 100, y: violation.position.y * 100 } } : violation));
      }
    }

    const pageOf = kind === 'erc' ? ercPages(context, sheets) : () => null;
    const byType: Record<string, number> = {};
    for (const violation of violations) byType[violation.type] = (byType[violation.type] ?? 0) + 1;
    const items: CheckItem[] = [...violations.filter((violation) => violation.severity === 'error'), ...violations.filter((violation) => violation.severity === 'warning')]
      .slice(0, KICAD_OUTPUT_LIMITS.checkItems)
      .map((violation) => ({
        type: violation.type,
        severity: violation.severity,
        description: violation.description,
        // To the nanometre, KiCad's board unit: the ERC's correction leaves float noise (142.87499999999997).
        xMm: violation.position ? Math.round(violation.position.x * 1e6) / 1e6 : null,
        yMm: violation.position ? Math.round(violation.position.y * 1e6) / 1e6 : null,
        sheet: pageOf(violation),
        refs: violation.refs,
      }));
    return {
      errors: violations.filter((violation) => violation.severity === 'error').length,
      warnings: violations.filter((violation) => violation.severity === 'warning').length,
      byType,
      items,
    };
  } catch {
    return null;
  }
}

/** How an ERC violation finds its page (`readCheckReport`). */
function ercPages(context: SchematicContext, sheets: SourceSheet[]): (violation: Violation) => number | null {
  const pageByPath = new Map(sheets.map((sheet) => [sheet.path, sheet.page]));
  const pageByRef = new Map((Array.isArray(context?.symbols) ? context.symbols : []).map((symbol) => [symbol.ref, symbol.sheet]));
  const uuids = context?.schematics instanceof Map ? uuidsByFile(context.schematics) : new Map<string, Set<string>>();
  return (violation) => {
    const named = violation.sheetPath === null ? undefined : pageByPath.get(violation.sheetPath);
    const byRef = violation.firstRef === null ? undefined : pageByRef.get(violation.firstRef);
    if (byRef !== undefined) return byRef;
    if (violation.firstUuid !== null) {
      const files = [...uuids].filter(([, held]) => held.has(violation.firstUuid!)).map(([file]) => file);
      const drawing = sheets.filter((sheet) => files.includes(sheet.schematicFile)).map((sheet) => sheet.page);
      if (drawing.length > 0) return named !== undefined && drawing.includes(named) ? named : drawing[0]!;
    }
    return named ?? null;
  };
}

// ---------------------------------------------------------------------------------------------
// Placements

/**
 * The parts of `pcb export pos --format csv --units mm` (`Ref,Val,Package,PosX,PosY,Rot,Side`),
 * read by the placement-file reader every uploaded CSV goes through: KiCad's own coordinates as
 * written (mm, y up, so mostly negative y on a board drawn below the page's origin), rotation
 * brought into [0, 360). Garbage → [].
 */
export function readSourcePlacements(csv: string): SourcePlacement[] {
  try {
    if (typeof csv !== 'string') return [];
    return parsePlacements(new TextEncoder().encode(csv), 'pos.csv').placements;
  } catch {
    return [];
  }
}
