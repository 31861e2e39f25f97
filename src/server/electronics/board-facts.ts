/**
 * What the fabrication files of a board tell a fab, measured from the files themselves: the
 * smallest trace drawn on copper, the smallest drill, the holes (plated, non-plated, vias) and the
 * smallest annular ring. gerber-parser (the parser gerber-to-svg renders with) reads the geometry;
 * the Gerber X2 attributes it skips (`%TA.AperFunction…%`, KiCad's `#@! TA…` comments in drill
 * files) are read from the text. A fact the files cannot tell is null, never a guess.
 *
 * Runs inside the render worker (`render-worker.ts`), so only erasable TypeScript here.
 */
import gerberParser from 'gerber-parser';
import type { LayerSide, LayerType } from '../../lib/contract/schemas/eda.ts';

export interface MeasuredLayer {
  filename: string;
  type: LayerType;
  side: LayerSide;
  filetype: 'gerber' | 'drill';
  bytes: Uint8Array;
}

/** The facts read from the layers' contents (size, layers and thickness come from elsewhere). */
export interface MeasuredFacts {
  /** Narrowest aperture drawing lines (D01) on copper; in X2 files, of `Conductor` apertures only. */
  minTraceMm: number | null;
  /** Smallest tool that drills at least one hole. */
  minDrillMm: number | null;
  /** Drill hits of every drill file. */
  holes: number | null;
  /** Plated holes, vias included; null unless the plating of every hole is known. */
  platedHoles: number | null;
  nonPlatedHoles: number | null;
  /** Holes whose tool is a `ViaDrill`; null unless every plated tool says what it drills. */
  vias: number | null;
  /** Smallest (pad − drill) / 2 over holes with a round or rectangular pad flashed on them on outer copper. */
  minAnnularRingMm: number | null;
}

interface ParsedObject {
  type: string;
  prop?: string;
  value?: unknown;
  op?: string;
  code?: string;
  coord?: { x?: number; y?: number };
  tool?: { shape: string; params: number[] };
}

interface SyncParser {
  parseSync(text: string): ParsedObject[];
}

const round = (value: number) => Number(value.toFixed(4));

/** A pad or hit is on a hole when their centres are this close (mm): files round to 0.01 mm at worst. */
const SAME_PLACE_MM = 0.02;

/**
 * Aperture (Gerber `%ADDnn`) and tool (Excellon `Tnn C…`) functions from X2 attributes: the
 * `TA.AperFunction` in force when each is defined, until `TD` deletes it.
 */
function apertureFunctions(text: string): Map<string, string> {
  const functions = new Map<string, string>();
  let current: string | null = null;
  for (const match of text.matchAll(/TA\.AperFunction,([^*\r\n%]*)|(%TD[^%]*%|#@! TD\b)|%ADD(\d+)|^T(\d+)C/gm)) {
    if (match[1] !== undefined) current = match[1].trim();
    else if (match[2] !== undefined) current = null;
    else if (current !== null) functions.set(String(Number(match[3] ?? match[4])), current);
  }
  return functions;
}

/** The narrowest width of a standard aperture, in its file's units; null for macros (not measured). */
function apertureWidth(tool: { shape: string; params: number[] }): number | null {
  const [a, b] = tool.params;
  switch (tool.shape) {
    case 'circle':
      return a ?? null;
    case 'rect':
    case 'obround':
      return a !== undefined && b !== undefined ? Math.min(a, b) : null;
    case 'poly':
      // the inscribed circle of a regular polygon with this outer diameter and this many vertices
      return a !== undefined && b !== undefined && b >= 3 ? a * Math.cos(Math.PI / b) : null;
    default:
      return null;
  }
}

interface Walk {
  mmPerUnit: number;
  tools: Map<string, { shape: string; params: number[] }>;
  objects: ParsedObject[];
}

function parse(layer: MeasuredLayer, text: string): Walk | null {
  let objects: ParsedObject[];
  try {
    objects = (gerberParser({ filetype: layer.filetype }) as unknown as SyncParser).parseSync(text);
  } catch {
    return null;
  }
  const units = objects.find((object) => object.type === 'set' && object.prop === 'units')?.value;
  const tools = new Map<string, { shape: string; params: number[] }>();
  for (const object of objects) if (object.type === 'tool' && object.code !== undefined && object.tool) tools.set(String(Number(object.code)), object.tool);
  return { mmPerUnit: units === 'in' ? 25.4 : 1, tools, objects };
}

/** Calls `visit` for each operation with the tool in use and whether a region (G36) is open. */
function eachOperation(walk: Walk, visit: (op: string, code: string | null, x: number, y: number, inRegion: boolean) => void) {
  let code: string | null = null;
  let region = false;
  let x = 0;
  let y = 0;
  for (const object of walk.objects) {
    if (object.type === 'set' && object.prop === 'tool') code = String(Number(object.value));
    else if (object.type === 'set' && object.prop === 'region') region = object.value === true;
    else if (object.type === 'op' && object.op) {
      if (typeof object.coord?.x === 'number') x = object.coord.x;
      if (typeof object.coord?.y === 'number') y = object.coord.y;
      visit(object.op, code, x * walk.mmPerUnit, y * walk.mmPerUnit, region);
    }
  }
}

function smallestTrace(layer: MeasuredLayer, text: string): number | null {
  const walk = parse(layer, text);
  if (!walk) return null;
  const functions = apertureFunctions(text);
  // X2 files say which apertures draw conductors; text, outlines and graphics on copper are left out
  const conductorOnly = functions.size > 0;
  const used = new Set<string>();
  eachOperation(walk, (op, code, _x, _y, inRegion) => {
    if (op === 'int' && !inRegion && code !== null) used.add(code);
  });
  let smallest: number | null = null;
  for (const code of used) {
    if (conductorOnly && !functions.get(code)?.startsWith('Conductor')) continue;
    const tool = walk.tools.get(code);
    const width = tool ? apertureWidth(tool) : null;
    // a zero-width aperture draws nothing (some tools stroke region outlines with one)
    if (width === null || width <= 0) continue;
    const mm = width * walk.mmPerUnit;
    if (smallest === null || mm < smallest) smallest = mm;
  }
  return smallest;
}

type Plating = 'plated' | 'nonplated' | null;

function platingOf(value: string | undefined): Plating {
  if (!value) return null;
  if (/^NonPlated\b|^NPTH\b|^non_plated$|^npth$/i.test(value)) return 'nonplated';
  if (/^Plated\b|^PTH\b|^plated$|^pth$/i.test(value)) return 'plated';
  return null;
}

interface Hit {
  x: number;
  y: number;
  drillMm: number | null;
  plating: Plating;
  via: boolean | null;
}

function drillHits(layer: MeasuredLayer, text: string): { hits: Hit[]; usedDiameters: number[] } | null {
  const walk = parse(layer, text);
  if (!walk) return null;
  const functions = apertureFunctions(text);
  // the file as a whole: X2 `TF.FileFunction` (KiCad, Altium's X2 drills), or Altium's `;TYPE=PLATED`
  const fileFunction = /TF\.FileFunction,([^*\r\n%]*)/.exec(text)?.[1]?.trim();
  const holePlating = walk.objects.find((object) => object.type === 'set' && object.prop === 'holePlating')?.value;
  const filePlating = platingOf(fileFunction) ?? platingOf(typeof holePlating === 'string' ? holePlating : undefined);
  const hits: Hit[] = [];
  const used = new Set<string>();
  eachOperation(walk, (op, code, x, y) => {
    if (code === null) return;
    if (op === 'int' || op === 'flash') used.add(code);
    if (op !== 'flash') return;
    const tool = walk.tools.get(code);
    const width = tool ? apertureWidth(tool) : null;
    const aperFunction = functions.get(code);
    const plating = platingOf(aperFunction) ?? filePlating;
    hits.push({
      x,
      y,
      drillMm: width === null ? null : width * walk.mmPerUnit,
      plating,
      via: aperFunction ? /ViaDrill/i.test(aperFunction) : null,
    });
  });
  const usedDiameters: number[] = [];
  for (const code of used) {
    const tool = walk.tools.get(code);
    const width = tool ? apertureWidth(tool) : null;
    if (width !== null && width > 0) usedDiameters.push(width * walk.mmPerUnit);
  }
  return { hits, usedDiameters };
}

/** Pads flashed on an outer copper layer, bucketed by place for the lookup from drill hits. */
function padIndex(layer: MeasuredLayer, text: string): Map<string, Array<{ x: number; y: number; sizeMm: number }>> {
  const index = new Map<string, Array<{ x: number; y: number; sizeMm: number }>>();
  const walk = parse(layer, text);
  if (!walk) return index;
  eachOperation(walk, (op, code, x, y, inRegion) => {
    if (op !== 'flash' || inRegion || code === null) return;
    const tool = walk.tools.get(code);
    const width = tool ? apertureWidth(tool) : null;
    if (width === null || width <= 0) return;
    const key = `${Math.round(x / SAME_PLACE_MM)},${Math.round(y / SAME_PLACE_MM)}`;
    const bucket = index.get(key) ?? [];
    bucket.push({ x, y, sizeMm: width * walk.mmPerUnit });
    index.set(key, bucket);
  });
  return index;
}

function padsAt(index: Map<string, Array<{ x: number; y: number; sizeMm: number }>>, x: number, y: number): number[] {
  const sizes: number[] = [];
  const cx = Math.round(x / SAME_PLACE_MM);
  const cy = Math.round(y / SAME_PLACE_MM);
  for (let dx = -1; dx <= 1; dx += 1) {
    for (let dy = -1; dy <= 1; dy += 1) {
      for (const pad of index.get(`${cx + dx},${cy + dy}`) ?? []) {
        if (Math.hypot(pad.x - x, pad.y - y) <= SAME_PLACE_MM) sizes.push(pad.sizeMm);
      }
    }
  }
  return sizes;
}

const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** Nothing measured: what a set whose measuring failed is stored with. */
export const UNMEASURED: MeasuredFacts = {
  minTraceMm: null,
  minDrillMm: null,
  holes: null,
  platedHoles: null,
  nonPlatedHoles: null,
  vias: null,
  minAnnularRingMm: null,
};

/** A drill hit as the 3D model drills it: Gerber coordinates in mm; plating null when the files do not say. */
export interface BoardHole {
  xMm: number;
  yMm: number;
  diameterMm: number;
  plated: boolean | null;
}

/** Measures the copper and drill layers of an identified Gerber set. */
export function measureLayers(layers: MeasuredLayer[]): MeasuredFacts {
  return measureBoard(layers).facts;
}

/** The facts, and the holes they were counted from (read once, for the facts and the 3D model). */
export function measureBoard(layers: MeasuredLayer[]): { facts: MeasuredFacts; holes: BoardHole[] } {
  const copper = layers.filter((layer) => layer.type === 'copper');
  const drills = layers.filter((layer) => layer.type === 'drill');

  let minTraceMm: number | null = null;
  for (const layer of copper) {
    const width = smallestTrace(layer, decode(layer.bytes));
    if (width !== null && (minTraceMm === null || width < minTraceMm)) minTraceMm = width;
  }

  const hits: Hit[] = [];
  let minDrillMm: number | null = null;
  let drillsRead = drills.length > 0;
  for (const layer of drills) {
    const read = drillHits(layer, decode(layer.bytes));
    if (!read) {
      drillsRead = false;
      continue;
    }
    hits.push(...read.hits);
    for (const diameter of read.usedDiameters) if (minDrillMm === null || diameter < minDrillMm) minDrillMm = diameter;
  }

  const platingKnown = drillsRead && hits.every((hit) => hit.plating !== null);
  const plated = hits.filter((hit) => hit.plating === 'plated');
  const viasKnown = platingKnown && plated.every((hit) => hit.via !== null);

  let minAnnularRingMm: number | null = null;
  const outer = copper.filter((layer) => layer.side === 'top' || layer.side === 'bottom');
  if (hits.length > 0 && outer.length > 0) {
    const indexes = outer.map((layer) => padIndex(layer, decode(layer.bytes)));
    for (const hit of hits) {
      if (hit.plating === 'nonplated' || hit.drillMm === null) continue;
      for (const index of indexes) {
        for (const size of padsAt(index, hit.x, hit.y)) {
          const ring = (size - hit.drillMm) / 2;
          if (ring > 0 && (minAnnularRingMm === null || ring < minAnnularRingMm)) minAnnularRingMm = ring;
        }
      }
    }
  }

  const facts: MeasuredFacts = {
    minTraceMm: minTraceMm === null ? null : round(minTraceMm),
    minDrillMm: minDrillMm === null ? null : round(minDrillMm),
    holes: drillsRead ? hits.length : null,
    platedHoles: platingKnown ? plated.length : null,
    nonPlatedHoles: platingKnown ? hits.length - plated.length : null,
    vias: viasKnown ? plated.filter((hit) => hit.via).length : null,
    minAnnularRingMm: minAnnularRingMm === null ? null : round(minAnnularRingMm),
  };
  const holes = hits.flatMap((hit) => (hit.drillMm !== null && hit.drillMm > 0 ? [{ xMm: hit.x, yMm: hit.y, diameterMm: hit.drillMm, plated: hit.plating === null ? null : hit.plating === 'plated' }] : []));
  return { facts, holes };
}
