import { describe, expect, it } from 'vitest';
import { BoardError, type SourceFile } from '../../../src/server/electronics/errors.ts';
import { identifyLayers, parseFileFunction } from '../../../src/server/electronics/layers.ts';
import { loadBoard, type BoardName } from '../../helpers/board-fixtures.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** A minimal valid RS-274X file, with optional header lines (attributes, comments). */
const miniGerber = (header = '') => encode(`${header}%FSLAX46Y46*%\n%MOMM*%\n%ADD10C,0.1*%\nD10*\nX0Y0D03*\nM02*\n`);

function thrown(run: () => unknown): BoardError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BoardError);
    return error as BoardError;
  }
  throw new Error('expected a BoardError');
}

/** Every fixture file with the layer it is, and the tool, as the files say. */
const EXPECTED: Record<BoardName, { tool: string; layers: Record<string, string> }> = {
  'altium-bga24': {
    tool: 'altium',
    layers: {
      'PCB1.GBL': 'copper/bottom', 'PCB1.GBO': 'silkscreen/bottom', 'PCB1.GBP': 'solderpaste/bottom', 'PCB1.GBS': 'soldermask/bottom',
      'PCB1.GM1': 'outline/all', 'PCB1.GTL': 'copper/top', 'PCB1.GTO': 'silkscreen/top', 'PCB1.GTP': 'solderpaste/top',
      'PCB1.GTS': 'soldermask/top', 'PCB1.TXT': 'drill/all',
    },
  },
  'eagle-snapper': {
    tool: 'eagle',
    layers: {
      'copper_bottom.gbr': 'copper/bottom', 'copper_top.gbr': 'copper/top', 'drills.xln': 'drill/all', 'profile.gbr': 'outline/all',
      'silkscreen_bottom.gbr': 'silkscreen/bottom', 'silkscreen_top.gbr': 'silkscreen/top', 'soldermask_bottom.gbr': 'soldermask/bottom',
      'soldermask_top.gbr': 'soldermask/top', 'solderpaste_bottom.gbr': 'solderpaste/bottom', 'solderpaste_top.gbr': 'solderpaste/top',
    },
  },
  'kicad-rrf': {
    tool: 'kicad',
    layers: {
      'rrf_rpi_skr_adapter-B_Cu.gbr': 'copper/bottom', 'rrf_rpi_skr_adapter-B_Mask.gbr': 'soldermask/bottom',
      'rrf_rpi_skr_adapter-B_Silkscreen.gbr': 'silkscreen/bottom', 'rrf_rpi_skr_adapter-Edge_Cuts.gbr': 'outline/all',
      'rrf_rpi_skr_adapter-F_Cu.gbr': 'copper/top', 'rrf_rpi_skr_adapter-F_Mask.gbr': 'soldermask/top',
      'rrf_rpi_skr_adapter-F_Silkscreen.gbr': 'silkscreen/top', 'rrf_rpi_skr_adapter-NPTH.drl': 'drill/all', 'rrf_rpi_skr_adapter-PTH.drl': 'drill/all',
    },
  },
  'kicad-sanga04': {
    tool: 'kicad',
    layers: {
      'sangaboard_v0.4-B_Cu.gbl': 'copper/bottom', 'sangaboard_v0.4-B_Mask.gbs': 'soldermask/bottom', 'sangaboard_v0.4-B_Paste.gbp': 'solderpaste/bottom',
      'sangaboard_v0.4-B_SilkS.gbo': 'silkscreen/bottom', 'sangaboard_v0.4-Edge_Cuts.gm1': 'outline/all', 'sangaboard_v0.4-F_Cu.gtl': 'copper/top',
      'sangaboard_v0.4-F_Mask.gts': 'soldermask/top', 'sangaboard_v0.4-F_Paste.gtp': 'solderpaste/top', 'sangaboard_v0.4-F_SilkS.gto': 'silkscreen/top',
      'sangaboard_v0.4-NPTH.drl': 'drill/all', 'sangaboard_v0.4-PTH.drl': 'drill/all',
    },
  },
};

describe('identifyLayers on the fixture boards', () => {
  it.each(Object.keys(EXPECTED) as BoardName[])('%s: every file is the layer it is, two copper layers, the tool named', (name) => {
    const set = identifyLayers(loadBoard(name));
    expect(Object.fromEntries(set.layers.map((layer) => [layer.filename, `${layer.type}/${layer.side}`]))).toEqual(EXPECTED[name].layers);
    expect(set.copperLayerCount).toBe(2);
    expect(set.tool).toBe(EXPECTED[name].tool);
  });

  it('takes the job file first, then in-file attributes, then names', () => {
    const rrf = identifyLayers(loadBoard('kicad-rrf'));
    // KiCad 6 lists its Gerbers in the job file, not its drill files (those carry the attribute)
    expect(rrf.layers.find((layer) => layer.filename.endsWith('F_Cu.gbr'))?.evidence).toBe('job');
    expect(rrf.layers.find((layer) => layer.filename.endsWith('PTH.drl'))?.evidence).toBe('attribute');
    expect(rrf.jobSizeMm).toEqual({ width: 17.626, height: 13.816 });
    expect(identifyLayers(loadBoard('kicad-sanga04')).layers.every((layer) => layer.evidence === 'attribute')).toBe(true);
    expect(identifyLayers(loadBoard('altium-bga24')).layers.every((layer) => layer.evidence === 'name')).toBe(true);
  });

  it('believes an in-file attribute over a misleading name', () => {
    const board = loadBoard('kicad-sanga04').map((file) => (file.name.endsWith('F_Cu.gtl') ? { ...file, name: 'renamed.gbl' } : file));
    expect(identifyLayers(board).layers.find((layer) => layer.filename === 'renamed.gbl')).toMatchObject({ type: 'copper', side: 'top' });
  });

  it('leaves out documentation, pictures and a .txt that is no drill file', () => {
    const board: SourceFile[] = [
      ...loadBoard('altium-bga24'),
      { name: 'README.md', bytes: encode('# BGA adapter\n') },
      { name: 'notes.txt', bytes: encode('order 5 boards, 1.6 mm, green\n') },
      { name: 'render.pdf', bytes: encode('%PDF-1.7\n%\u00e2\u00e3\n') },
    ];
    const set = identifyLayers(board);
    expect(set.ignored.sort()).toEqual(['README.md', 'notes.txt', 'render.pdf']);
    expect(set.layers).toHaveLength(10);
  });

  it('names a file whose name says layer but whose bytes are no Gerber (a PNG called F_Cu.gbr)', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
    const board = loadBoard('kicad-rrf').map((file) => (file.name.endsWith('F_Cu.gbr') ? { ...file, bytes: png } : file));
    const error = thrown(() => identifyLayers(board));
    expect(error.key).toBe('not_gerber');
    expect(error.file).toBe('rrf_rpi_skr_adapter-F_Cu.gbr');
  });

  it('names a file of random bytes called .gtl', () => {
    const random = new Uint8Array(4096).map(() => Math.floor(Math.random() * 256));
    const error = thrown(() => identifyLayers([...loadBoard('altium-bga24'), { name: 'noise.gtl', bytes: random }]));
    expect(error).toMatchObject({ key: 'not_gerber', file: 'noise.gtl' });
  });

  it('says a Gerber cut short is unreadable, naming it', () => {
    const board = loadBoard('kicad-sanga04').map((file) => (file.name.endsWith('F_Cu.gtl') ? { ...file, bytes: file.bytes.subarray(0, Math.floor(file.bytes.byteLength / 2)) } : file));
    expect(thrown(() => identifyLayers(board))).toMatchObject({ key: 'unreadable', file: 'sangaboard_v0.4-F_Cu.gtl' });
  });

  it('says a set of non-Gerber files has no layers', () => {
    const files = [
      { name: 'README.md', bytes: encode('hello') },
      { name: 'photo.jpg', bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]) },
      { name: 'notes.txt', bytes: encode('nothing') },
    ];
    expect(thrown(() => identifyLayers(files)).key).toBe('no_layers');
  });
});

describe('copper layer count', () => {
  /** A copy of the rrf top copper declaring another copper layer. */
  function rrfCopper(layer: string): Uint8Array {
    const top = loadBoard('kicad-rrf').find((file) => file.name.endsWith('F_Cu.gbr'))!;
    return encode(decode(top.bytes).replace('%TF.FileFunction,Copper,L1,Top*%', `%TF.FileFunction,Copper,${layer}*%`));
  }

  it('counts inner layers declared by attributes: 4 and 6 layers, in stack order', () => {
    const four = [...loadBoard('kicad-rrf'), { name: 'x-L3.gbr', bytes: rrfCopper('L3,Inr') }, { name: 'x-L2.gbr', bytes: rrfCopper('L2,Inr') }];
    const set4 = identifyLayers(four);
    expect(set4.copperLayerCount).toBe(4);
    expect(set4.layers.filter((layer) => layer.side === 'inner').map((layer) => layer.filename)).toEqual(['x-L2.gbr', 'x-L3.gbr']);

    const six = [...loadBoard('kicad-rrf'), ...[2, 3, 4, 5].map((n) => ({ name: `rrf-In${n - 1}_Cu.gbr`, bytes: rrfCopper(`L${n},Inr`) }))];
    const set6 = identifyLayers(six);
    expect(set6.copperLayerCount).toBe(6);
    expect(set6.layers.filter((layer) => layer.type === 'copper' && layer.side === 'inner')).toHaveLength(4);
  });

  it('counts inner layers known by name: Altium .G1/.G2 and KiCad In1.Cu', () => {
    const copper = loadBoard('altium-bga24').find((file) => file.name === 'PCB1.GTL')!.bytes;
    const four = [...loadBoard('altium-bga24'), { name: 'PCB1.G1', bytes: copper }, { name: 'PCB1.G2', bytes: copper }];
    expect(identifyLayers(four).copperLayerCount).toBe(4);
    const six = [...loadBoard('altium-bga24'), ...['PCB1.G1', 'PCB1.G2', 'board-In3.Cu.gbr', 'board-In4_Cu.gbr'].map((name) => ({ name, bytes: copper }))];
    expect(identifyLayers(six).copperLayerCount).toBe(6);
  });
});

describe('tool detection', () => {
  const outline = { name: 'x.gko', bytes: miniGerber() };
  it.each([
    ['easyeda', [{ name: 'Gerber_TopLayer.GTL', bytes: miniGerber() }, { name: 'Gerber_BoardOutlineLayer.GKO', bytes: miniGerber() }]],
    ['easyeda', [{ name: 'top.gtl', bytes: miniGerber('G04 EasyEDA Pro v2.2.32, 2024-10-01*\n') }, outline]],
    ['fusion', [{ name: 'top.gtl', bytes: miniGerber('%TF.GenerationSoftware,Autodesk,Fusion 360,2.0.18*%\n') }, outline]],
    ['kicad', [{ name: 'b-F_Cu.gbr', bytes: miniGerber() }, { name: 'b-Edge_Cuts.gbr', bytes: miniGerber() }]],
    ['altium', [{ name: 'b.GTL', bytes: miniGerber() }, { name: 'b.GM1', bytes: miniGerber() }]],
    ['other', [{ name: 'top.gtl', bytes: miniGerber() }, outline]],
  ])('%s', (tool, files) => {
    expect(identifyLayers(files).tool).toBe(tool);
  });
});

describe('parseFileFunction', () => {
  it.each([
    ['Copper,L1,Top', { type: 'copper', side: 'top', copperIndex: 1 }],
    ['Copper,L4,Bot', { type: 'copper', side: 'bottom', copperIndex: 4 }],
    ['Copper,L2,Inr,Plane', { type: 'copper', side: 'inner', copperIndex: 2 }],
    ['Soldermask,Top', { type: 'soldermask', side: 'top', copperIndex: null }],
    ['Legend,Bot', { type: 'silkscreen', side: 'bottom', copperIndex: null }],
    ['Paste,Top', { type: 'solderpaste', side: 'top', copperIndex: null }],
    // KiCad's job files
    ['SolderPaste,Bot', { type: 'solderpaste', side: 'bottom', copperIndex: null }],
    ['Profile,NP', { type: 'outline', side: 'all', copperIndex: null }],
    ['Plated,1,2,PTH', { type: 'drill', side: 'all', copperIndex: null }],
    ['NonPlated,1,2,NPTH,Drill', { type: 'drill', side: 'all', copperIndex: null }],
    // KiCad 9's one drill file for plated and non-plated holes
    ['MixedPlating,1,2', { type: 'drill', side: 'all', copperIndex: null }],
    // KiCad 9's documentation layers: what each is for, where its function says it
    ['AssemblyDrawing,Top', { type: 'drawing', side: 'top', copperIndex: null, purpose: 'fab' }],
    ['Glue,Bot', { type: 'drawing', side: 'bottom', copperIndex: null, purpose: 'adhesive' }],
    ['Other,User', { type: 'drawing', side: 'all', copperIndex: null, purpose: 'user' }],
    ['Other,Comment', { type: 'drawing', side: 'all', copperIndex: null, purpose: 'comments' }],
    ['Other,ECO1', { type: 'drawing', side: 'all', copperIndex: null, purpose: 'eco' }],
    ['OtherDrawing,Comment', { type: 'drawing', side: 'all', copperIndex: null, purpose: 'drawings' }],
  ])('%s', (value, expected) => {
    expect(parseFileFunction(value)).toEqual(expected);
  });
});
