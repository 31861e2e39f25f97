import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KICAD_OUTPUT_LIMITS, readCheckReport, readSheets, readSourceBom, readSourcePlacements, readSymbols, type SourceSheet } from '../../../src/server/electronics/kicad-outputs.ts';

/**
 * The readers of kicad-cli's outputs on what no real design gives: broken and hostile files, and
 * small hand-written outputs in kicad-cli 9's own layout for the cases the four fixture designs do
 * not hold (tests/integration/kicad-outputs.test.ts reads what kicad-cli writes for those).
 */

/** A netlist as `sch export netlist --format kicadxml` lays it out, around the given sheets and components. */
const netlist = (sheets: string, components: string, libparts = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<export version="E">\n  <design>\n    <source>/tmp/x/demo.kicad_sch</source>\n${sheets}  </design>\n  <components>\n${components}  </components>\n  <libparts>\n${libparts}  </libparts>\n  <nets>\n    <net code="1" name="GND" class="Default"><node ref="R1" pin="2"/></net>\n  </nets>\n</export>\n`;

const sheet = (number: number, name: string, tstamps: string, source: string) =>
  `    <sheet number="${number}" name="${name}" tstamps="${tstamps}">\n      <title_block>\n        <title/>\n        <source>${source}</source>\n      </title_block>\n    </sheet>\n`;

type Comp = { ref: string; value: string; footprint?: string; fields?: Record<string, string>; properties?: Record<string, string | null>; sheet?: [string, string]; uuids?: string; lib?: [string, string, string] };
const comp = ({ ref, value, footprint = 'Resistor_SMD:R_0603_1608Metric', fields = {}, properties = {}, sheet: [names, tstamps] = ['/', '/'], uuids = `uuid-${ref}`, lib = ['Device', 'R', 'Resistor'] }: Comp) =>
  `    <comp ref="${ref}">\n      <value>${value}</value>\n      <footprint>${footprint}</footprint>\n      <fields>\n` +
  Object.entries({ ...fields, Footprint: footprint })
    .map(([name, text]) => `        <field name="${name}">${text}</field>\n`)
    .join('') +
  `      </fields>\n      <libsource lib="${lib[0]}" part="${lib[1]}" description="${lib[2]}"/>\n` +
  Object.entries({ Sheetfile: 'demo.kicad_sch', ...properties })
    .map(([name, text]) => (text === null ? `      <property name="${name}"/>\n` : `      <property name="${name}" value="${text}"/>\n`))
    .join('') +
  `      <sheetpath names="${names}" tstamps="${tstamps}"/>\n      <tstamps>${uuids}</tstamps>\n    </comp>\n`;

const svg = (width: string, height: string) =>
  `<?xml version="1.0" standalone="no"?>\n <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" \n "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"> \n<svg\n  xmlns="http://www.w3.org/2000/svg"\n  version="1.1"\n  width="${width}" height="${height}" viewBox="0 0 1 1">\n</svg>\n`;

const GARBAGE = [
  '',
  'garbage',
  '<export version="E"><design><sheet number="1" name="/"',
  '<?xml version="1.0"?><export version="E"></export>',
  '<export><components><comp ref="R1"><value>1k</value></comp></components>',
  '<export><design><sheet number="-4" name="no slash" tstamps="x"/></design><components><comp/><comp ref=""/></components></export>',
  '{"sheets": 5, "violations": "many"}',
  '[1, 2, 3]',
  'null',
  '((((((((((((((((((((((((((((((((((((((((('.repeat(10_000),
  ')))))))))) (symbol (at x y) (uuid)) "unterminated',
  randomBytes(4096).toString('latin1'),
  '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><export version="E">&b;&b;&b;</export>',
];

describe('readers of kicad-cli outputs on garbage', () => {
  it.each(GARBAGE.map((text, index) => [index, text] as const))('give empty results and never throw (input %i)', (_, text) => {
    expect(readSheets(text, [{ file: 'x.svg', svg: text }], 'x')).toEqual([]);
    expect(readSymbols(text, new Map([['x.kicad_sch', text]]), [])).toEqual([]);
    expect(readSourceBom(text)).toEqual({ lines: [], columns: [] });
    expect(readCheckReport(text, 'drc')).toBeNull();
    expect(readCheckReport(text, 'erc')).toBeNull();
    expect(readSourcePlacements(text)).toEqual([]);
  });

  it('take inputs of the wrong type without throwing', () => {
    const wrong = [null, undefined, 42, {}, []] as unknown as string[];
    for (const value of wrong) {
      expect(readSheets(value, value as never, value)).toEqual([]);
      expect(readSymbols(value, value as never, value as never)).toEqual([]);
      expect(readSourceBom(value)).toEqual({ lines: [], columns: [] });
      expect(readCheckReport(value, 'erc', value as never)).toBeNull();
      expect(readSourcePlacements(value)).toEqual([]);
    }
  });

  it('never throw on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        readSheets(text, [{ file: 'x.svg', svg: text }], 'x');
        readSymbols(text, new Map([['x.kicad_sch', text]]), []);
        readSourceBom(text);
        readCheckReport(text, 'erc');
        readSourcePlacements(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readSheets', () => {
  const xml = netlist(sheet(1, '/', '/', 'demo.kicad_sch') + sheet(2, '/Power/', '/aaaa/', 'power.kicad_sch') + sheet(3, '/Power/LDO/', '/aaaa/bbbb/', 'ldo.kicad_sch'), '');

  it('leaves out a sheet without its SVG or whose SVG declares no size, and reads sizes in other units', () => {
    const sheets = readSheets(xml, [{ file: 'sheets/demo.svg', svg: svg('11in', '8.5in') }, { file: 'demo-Power.svg', svg: svg('', '') }, { file: 'demo-Power-LDO.svg', svg: svg('29.7cm', '21cm') }], 'Demo');
    expect(sheets).toEqual([
      { name: 'Demo', page: 1, path: '/', file: 'sheets/demo.svg', schematicFile: 'demo.kicad_sch', widthMm: 279.4, heightMm: 215.9 },
      { name: 'LDO', page: 3, path: '/Power/LDO/', file: 'demo-Power-LDO.svg', schematicFile: 'ldo.kicad_sch', widthMm: 297, heightMm: 210 },
    ]);
  });
});

describe('readSymbols', () => {
  const sheets: SourceSheet[] = [{ name: 'demo', page: 1, path: '/', file: 'demo.svg', schematicFile: 'demo.kicad_sch', widthMm: 297, heightMm: 210 }];
  const schematic = `(kicad_sch (version 20250114) (generator "eeschema")
  (lib_symbols (symbol "Device:R" (property "Reference" "R" (at 0 0 0)) (symbol "R_0_1" (rectangle (start -1 -2) (end 1 2)))))
  (symbol (lib_id "Device:R") (at 10 20 90) (uuid "unit-a") (property "Reference" "U1" (at 0 0 0)))
  (symbol (lib_name "R_1") (lib_id "Device:R") (at 30.48 40.64 0) (mirror x) (uuid "uuid-R1")
    (property "Value" "a \\"quoted\\" (value)" (at 1 2 0)))
  (symbol (lib_id "Device:R") (at 50 60 0) (uuid "uuid-R2"))
)`;

  it('finds each part by its uuid in its sheet file, a part of several units at the first unit found', () => {
    const xml = netlist(
      sheet(1, '/', '/', 'demo.kicad_sch'),
      comp({ ref: 'R1', value: '1k' }) +
        comp({ ref: 'R2', value: '1k', properties: { dnp: null } }) +
        comp({ ref: 'U1', value: 'LM358', uuids: 'unit-missing unit-a' }) +
        comp({ ref: 'R3', value: 'nowhere' }) +
        comp({ ref: 'R4', value: 'other sheet', sheet: ['/Gone/', '/gone/'] }),
    );
    expect(readSymbols(xml, new Map([['demo.kicad_sch', schematic]]), sheets)).toEqual([
      { ref: 'R1', value: '1k', footprint: 'Resistor_SMD:R_0603_1608Metric', sheet: 1, xMm: 30.48, yMm: 40.64, dnp: false },
      { ref: 'R2', value: '1k', footprint: 'Resistor_SMD:R_0603_1608Metric', sheet: 1, xMm: 50, yMm: 60, dnp: true },
      { ref: 'U1', value: 'LM358', footprint: 'Resistor_SMD:R_0603_1608Metric', sheet: 1, xMm: 10, yMm: 20, dnp: false },
    ]);
  });
});

describe('readSourceBom', () => {
  it('groups parts alike in value, footprint, DNP and part numbers, natural-sorted, with KiCad’s exclusions left out', () => {
    const xml = netlist(
      sheet(1, '/', '/', 'demo.kicad_sch'),
      comp({ ref: 'R10', value: '10k', fields: { MPN: 'RC0603FR-0710KL', Manufacturer: 'Yageo', Description: '' } }) +
        comp({ ref: 'R2', value: '10k', fields: { MPN: 'RC0603FR-0710KL', Manufacturer: 'Yageo', 'LCSC Part #': 'C98220' } }) +
        comp({ ref: 'R3', value: '10k', fields: { MPN: 'ERJ-3EKF1002V', Manufacturer: 'Panasonic' } }) +
        comp({ ref: 'R4', value: '10k', fields: { MPN: 'RC0603FR-0710KL', Manufacturer: 'Yageo' }, properties: { dnp: null } }) +
        comp({ ref: 'R5', value: '10k', fields: { MPN: 'RC0603FR-0710KL', Manufacturer: 'Yageo', DNP: 'yes' } }) +
        comp({ ref: 'R6', value: '10k', fields: { MPN: 'RC0603FR-0710KL', Manufacturer: 'Yageo', DNP: 'no' } }) +
        comp({ ref: 'C1', value: '100n &amp; more', footprint: 'Capacitor_SMD:C_0402_1005Metric', fields: { Part: 'cap', Package: '0402', Notes: 'X7R', DK: '1276-1000-1-ND' } }) +
        comp({ ref: 'FID1', value: 'Fiducial', footprint: 'Fiducial:Fiducial_1mm', properties: { exclude_from_bom: null } }) +
        comp({ ref: '#PWR01', value: 'GND', footprint: '' }),
    );
    const bom = readSourceBom(xml);
    expect(bom.lines.map(({ lineNo, designators, quantity, value, mpn, dnp }) => ({ lineNo, designators, quantity, value, mpn, dnp }))).toEqual([
      { lineNo: 1, designators: ['C1'], quantity: 1, value: '100n & more', mpn: '', dnp: false },
      { lineNo: 2, designators: ['R2'], quantity: 1, value: '10k', mpn: 'RC0603FR-0710KL', dnp: false },
      { lineNo: 3, designators: ['R3'], quantity: 1, value: '10k', mpn: 'ERJ-3EKF1002V', dnp: false },
      { lineNo: 4, designators: ['R4', 'R5'], quantity: 2, value: '10k', mpn: 'RC0603FR-0710KL', dnp: true },
      { lineNo: 5, designators: ['R6', 'R10'], quantity: 2, value: '10k', mpn: 'RC0603FR-0710KL', dnp: false },
    ]);
    // A user field named like a BOM column never replaces KiCad's reference or footprint; an empty
    // Description gives way to a Notes field, and then to the library's description.
    expect(bom.lines[0]).toMatchObject({ footprint: 'Capacitor_SMD:C_0402_1005Metric', description: 'X7R', digikey: '1276-1000-1-ND' });
    expect(bom.lines[1]).toMatchObject({ lcsc: 'C98220', manufacturer: 'Yageo' });
    expect(bom.lines[4]).toMatchObject({ description: 'Resistor' });
    expect(bom.columns).toEqual(['designators', 'quantity', 'value', 'footprint', 'manufacturer', 'mpn', 'lcsc', 'digikey', 'description']);
  });
});

describe('readCheckReport', () => {
  const violation = (severity: string, type: string, items: Array<[string, number, number]>, extra: Record<string, unknown> = {}) => ({
    description: `a ${type}`,
    items: items.map(([description, x, y]) => ({ description, pos: { x, y }, uuid: 'a0a0a0a0-0000-4000-8000-000000000001' })),
    severity,
    type,
    ...extra,
  });

  it('keeps the counts exact past the item cap, errors listed first', () => {
    const report = {
      coordinate_units: 'mm',
      violations: [...Array.from({ length: 2500 }, (_, i) => violation('warning', 'silk_overlap', [[`Segment of J${i + 1} on F.Silkscreen`, i, 1]])), violation('error', 'clearance', [['Pad 1 [GND] of R3 on F.Cu', 5, 6]])],
      unconnected_items: [violation('error', 'unconnected_items', [['Pad 2 [Net-(R1-Pad2)] of R1 on F.Cu', 7, 8], ['Via [GND] on F.Cu - B.Cu', 9, 10]])],
      schematic_parity: [violation('warning', 'missing_footprint', [['Symbol U7 [LM358]', 0, 0]])],
    };
    const drc = readCheckReport(JSON.stringify(report), 'drc')!;
    expect(drc).toMatchObject({ errors: 2, warnings: 2501, byType: { silk_overlap: 2500, clearance: 1, unconnected_items: 1, missing_footprint: 1 } });
    expect(drc.items).toHaveLength(KICAD_OUTPUT_LIMITS.checkItems);
    expect(drc.items.slice(0, 3).map(({ severity, refs, xMm, yMm, sheet }) => ({ severity, refs, xMm, yMm, sheet }))).toEqual([
      { severity: 'error', refs: ['R3'], xMm: 5, yMm: 6, sheet: null },
      { severity: 'error', refs: ['R1'], xMm: 7, yMm: 8, sheet: null },
      { severity: 'warning', refs: ['J1'], xMm: 0, yMm: 1, sheet: null },
    ]);
  });

  it('leaves out what the designer excluded, converts inches and mils, and names only annotated parts', () => {
    const report = (units: string) => ({
      coordinate_units: units,
      violations: [
        violation('error', 'solder_mask_bridge', [['Polygon of G***1 on F.Mask', 1, 1]], { excluded: true }),
        violation('exclusion', 'clearance', [['Track [GND] on F.Cu, length 1.2 mm', 1, 1]]),
        violation('warning', 'duplicate_footprints', [['Footprint REF**', 1, 2], ['Footprint R? [x]', 3, 4], ['Symbol #PWR01 Hidden pin 1', 5, 6], ['Reference field of C12', 0, 0]]),
      ],
    });
    expect(readCheckReport(JSON.stringify(report('in')), 'drc')).toEqual({
      errors: 0,
      warnings: 1,
      byType: { duplicate_footprints: 1 },
      items: [{ type: 'duplicate_footprints', severity: 'warning', description: 'a duplicate_footprints', xMm: 25.4, yMm: 50.8, sheet: null, refs: ['C12'] }],
    });
    expect(readCheckReport(JSON.stringify(report('mils')), 'drc')!.items[0]).toMatchObject({ xMm: 0.0254, yMm: 0.0508 });
    expect(readCheckReport(JSON.stringify(report('furlongs')), 'drc')!.items[0]).toMatchObject({ xMm: null, yMm: null });
  });

  it('puts ERC positions that kicad-cli 9 wrote a hundredth too small back on the sheet, and leaves right ones alone', () => {
    const sheets: SourceSheet[] = [
      { name: 'demo', page: 1, path: '/', file: 'demo.svg', schematicFile: 'demo.kicad_sch', widthMm: 279.4, heightMm: 215.9 },
      { name: 'Power', page: 2, path: '/Power/', file: 'demo-Power.svg', schematicFile: 'power.kicad_sch', widthMm: 279.4, heightMm: 215.9 },
    ];
    const erc = (x: number, y: number, path = '/Power/') =>
      JSON.stringify({ coordinate_units: 'mm', sheets: [{ path, uuid_path: '/r/p', violations: [violation('error', 'pin_not_connected', [['Symbol U3 Pin 4 [VIN, Input, Line]', x, y]])] }] });
    expect(readCheckReport(erc(1.42875, 1.26365), 'erc', { sheets })!.items[0]).toMatchObject({ xMm: 142.875, yMm: 126.365, sheet: 2, refs: ['U3'] });
    expect(readCheckReport(erc(142.875, 126.365), 'erc', { sheets })!.items[0]).toMatchObject({ xMm: 142.875, yMm: 126.365, sheet: 2 });
    expect(readCheckReport(erc(142.875, 126.365, '/Elsewhere/'), 'erc', { sheets })!.items[0]).toMatchObject({ sheet: null });
    // Filed under the root, as KiCad 9 files most violations: the part it names decides.
    const symbols = [{ ref: 'U3', value: 'LDO', footprint: '', sheet: 2, xMm: 142.875, yMm: 126.365, dnp: false }];
    expect(readCheckReport(erc(1.42875, 1.26365, '/'), 'erc', { sheets, symbols })!.items[0]).toMatchObject({ sheet: 2 });
    // … or the sheet file holding the object the item is about.
    const schematics = new Map([['demo.kicad_sch', '(kicad_sch)'], ['sub/power.kicad_sch', '(kicad_sch (wire (pts) (uuid "a0a0a0a0-0000-4000-8000-000000000001")))']]);
    expect(readCheckReport(erc(1.42875, 1.26365, '/'), 'erc', { sheets, schematics })!.items[0]).toMatchObject({ sheet: 2 });
  });
});

describe('readSourcePlacements', () => {
  it('reads the CSV of pcb export pos in KiCad’s own coordinates', () => {
    const csv = 'Ref,Val,Package,PosX,PosY,Rot,Side\n"C28","220uF","CP_Elec_6.3x7.7",103.490000,-141.420000,-90.000000,bottom\n"R1","100","R_0603_1608Metric",146.495000,-93.472000,180.000000,top\n';
    expect(readSourcePlacements(csv)).toEqual([
      { designator: 'C28', x: 103.49, y: -141.42, rotation: 270, side: 'bottom' },
      { designator: 'R1', x: 146.495, y: -93.472, rotation: 180, side: 'top' },
    ]);
  });
});
