/**
 * A 3D model of a board known only from its Gerber files, whatever tool made them: the outline
 * extruded to the board's thickness, the top and bottom renders as its two faces, plated holes
 * lined with copper. It is built in the same frame as the models `kicad-cli` exports (glTF:
 * metres, y up through the board, x along the drawing's x and z along its y downwards, the
 * board's corner at the origin), so the viewer treats both alike: a part at (x, y) mm of the
 * board view sits at (x / 1000, y / 1000) from the model's corner.
 *
 * The faces are rectangles over the renders' frame; the renders are transparent outside the
 * outline and in the drilled holes, and the faces' materials cut there (`alphaMode: MASK`), so
 * the board's shape and its holes need no triangulation of the outline. The walls stand on the
 * outline's pieces and in each hole.
 */
import { Document, Logger, type Material, type Primitive } from '@gltf-transform/core';
import { EXTTextureWebP } from '@gltf-transform/extensions';
import type { BoardHole } from './board-facts.ts';
import type { EdgePiece } from './board-outline.ts';
import { compressModelDocument, modelBytes } from './board-model.ts';
import { previewWidthFor, PREVIEW_WIDTH_PX, rasterizeTexture } from './preview.ts';
import type { ProcessedBoard } from './process-board.ts';

/** A board whose `.gbrjob` names no thickness is the common 1.6 mm. */
export const DEFAULT_THICKNESS_MM = 1.6;
/** Holes lined in the model; past this many (a dense BGA board) the rest show as the faces' cut-outs only. */
export const MAX_MODEL_HOLES = 20_000;
/** Texture pixels per millimetre of board: a 0.15 mm trace is two or three pixels wide. */
const TEXTURE_PX_PER_MM = 16;
const TEXTURE_MIN_PX = 1024;
const TEXTURE_MAX_PX = 2048;

export interface GerberModelInput {
  name: string;
  /** The renders' frame in Gerber coordinates (mm): lower-left x, y, width, height. */
  viewBoxMm: [number, number, number, number];
  thicknessMm: number | null;
  /** The renders: top as seen from above, bottom mirrored as seen turned over. */
  top: string;
  bottom: string;
  edge: EdgePiece[];
  holes: BoardHole[];
}

export interface GerberModel {
  glb: Buffer;
  /** The same model before compression. */
  rawBytes: number;
  timings: { texturesMs: number; buildMs: number; compressMs: number };
}

/** The model's input from what the board job's render gave (`processGerberSet`). */
export function gerberModelInput(name: string, board: ProcessedBoard): GerberModelInput {
  return { name, viewBoxMm: board.viewBoxMm, thicknessMm: board.facts.thicknessMm, top: board.top, bottom: board.bottom, edge: board.shape.edge, holes: board.shape.holes };
}

/** How wide the faces' pictures are: sharp enough to read traces, smaller when the render is slow to rasterize. */
export function textureWidthFor(svg: string, widthMm: number): number {
  if (previewWidthFor(svg) < PREVIEW_WIDTH_PX) return TEXTURE_MIN_PX;
  return Math.min(TEXTURE_MAX_PX, Math.max(TEXTURE_MIN_PX, Math.round(widthMm * TEXTURE_PX_PER_MM)));
}

/** glTF colours are linear; these are written as the sRGB a person would pick. */
const linear = (hex: number): [number, number, number, number] => {
  const channel = (shift: number) => {
    const c = ((hex >> shift) & 0xff) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return [channel(16), channel(8), channel(0), 1];
};
/** The glass-fibre core seen on a board's edge and in unplated holes. */
const CORE_COLOUR = 0xc2b67e;
/** Plated barrels: the copper of the hole walls under their finish. */
const BARREL_COLOUR = 0xd4a964;

class MeshBuilder {
  readonly positions: number[] = [];
  readonly normals: number[] = [];
  readonly uvs: number[] = [];
  readonly indices: number[] = [];

  vertex(x: number, y: number, z: number, normal: [number, number, number], uv?: [number, number]): number {
    this.positions.push(x, y, z);
    this.normals.push(...normal);
    if (uv) this.uvs.push(...uv);
    return this.positions.length / 3 - 1;
  }

  triangle(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }

  get empty(): boolean {
    return this.indices.length === 0;
  }

  primitive(document: Document, material: Material): Primitive {
    const buffer = document.getRoot().listBuffers()[0]!;
    const accessor = (type: 'VEC2' | 'VEC3' | 'SCALAR', array: Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>) => document.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    const primitive = document
      .createPrimitive()
      .setMaterial(material)
      .setAttribute('POSITION', accessor('VEC3', new Float32Array(this.positions)))
      .setAttribute('NORMAL', accessor('VEC3', new Float32Array(this.normals)))
      .setIndices(accessor('SCALAR', new Uint32Array(this.indices)));
    if (this.uvs.length > 0) primitive.setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array(this.uvs)));
    return primitive;
  }
}

/** Segments around a hole: round at a glance, few for the many small vias. */
const holeSegments = (diameterMm: number) => Math.max(8, Math.min(24, Math.ceil((Math.PI * diameterMm) / 0.2)));

/**
 * Builds the model: a face per side, the edge's walls, a lined barrel per hole (plated holes in
 * copper, the others in the core's colour). Throws `BoardError` when a face cannot be rasterized.
 */
export async function buildGerberModel(input: GerberModelInput): Promise<GerberModel> {
  const started = performance.now();
  const [x0, y0, widthMm, heightMm] = input.viewBoxMm;
  const texturePx = textureWidthFor(input.top, widthMm);
  const [top, bottom] = await Promise.all([rasterizeTexture(input.top, texturePx), rasterizeTexture(input.bottom, texturePx)]);
  const texturesMs = Math.round(performance.now() - started);

  const buildStart = performance.now();
  const m = (mm: number) => mm / 1000;
  const width = m(widthMm);
  const depth = m(heightMm);
  const thickness = m(input.thicknessMm && input.thicknessMm > 0 ? input.thicknessMm : DEFAULT_THICKNESS_MM);
  // Gerber y grows upwards, the model's z downwards across the drawing.
  const px = (xMm: number) => m(xMm - x0);
  const pz = (yMm: number) => m(y0 + heightMm - yMm);

  const document = new Document().setLogger(new Logger(Logger.Verbosity.WARN));
  document.createBuffer();
  document.createExtension(EXTTextureWebP).setRequired(true);
  const face = (name: string, picture: Buffer) =>
    document
      .createMaterial(name)
      .setBaseColorTexture(document.createTexture(name).setImage(new Uint8Array(picture)).setMimeType('image/webp'))
      .setAlphaMode('MASK')
      .setAlphaCutoff(0.5)
      .setMetallicFactor(0)
      .setRoughnessFactor(0.55);
  const plain = (name: string, colour: number, metallic: number, roughness: number) =>
    document.createMaterial(name).setBaseColorFactor(linear(colour)).setMetallicFactor(metallic).setRoughnessFactor(roughness).setDoubleSided(true);

  // The faces: normals out of the board, the top's picture as seen from above, the bottom's mirrored back.
  const topFace = new MeshBuilder();
  const corners: Array<[number, number]> = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  const topIds = corners.map(([u, v]) => topFace.vertex(u * width, thickness, v * depth, [0, 1, 0], [u, v]));
  topFace.triangle(topIds[0]!, topIds[2]!, topIds[1]!);
  topFace.triangle(topIds[0]!, topIds[3]!, topIds[2]!);
  const bottomFace = new MeshBuilder();
  const bottomIds = corners.map(([u, v]) => bottomFace.vertex(u * width, 0, v * depth, [0, -1, 0], [1 - u, v]));
  bottomFace.triangle(bottomIds[0]!, bottomIds[1]!, bottomIds[2]!);
  bottomFace.triangle(bottomIds[0]!, bottomIds[2]!, bottomIds[3]!);

  // The edge: a wall on each piece of the outline (seen from either side: which side is out is not known).
  const core = new MeshBuilder();
  for (const [ax, ay, bx, by] of input.edge) {
    const x1 = px(ax);
    const z1 = pz(ay);
    const x2 = px(bx);
    const z2 = pz(by);
    const length = Math.hypot(x2 - x1, z2 - z1);
    if (length === 0) continue;
    const normal: [number, number, number] = [(z2 - z1) / length, 0, -(x2 - x1) / length];
    const a = core.vertex(x1, 0, z1, normal);
    const b = core.vertex(x2, 0, z2, normal);
    const c = core.vertex(x2, thickness, z2, normal);
    const d = core.vertex(x1, thickness, z1, normal);
    core.triangle(a, b, c);
    core.triangle(a, c, d);
  }

  // The holes: a barrel through the board, its normals facing the hole's axis. A hole on the
  // board's edge (castellated pads) keeps only the part of its barrel inside the board's frame.
  const inside = (x: number, z: number) => x >= 0 && x <= width && z >= 0 && z <= depth;
  const barrels = new MeshBuilder();
  for (const hole of input.holes.slice(0, MAX_MODEL_HOLES)) {
    const into = hole.plated === false ? core : barrels;
    const segments = holeSegments(hole.diameterMm);
    const radius = m(hole.diameterMm / 2);
    const cx = px(hole.xMm);
    const cz = pz(hole.yMm);
    const ring = Array.from({ length: segments }, (_, i) => {
      const angle = (2 * Math.PI * i) / segments;
      return { x: cx + radius * Math.cos(angle), z: cz + radius * Math.sin(angle), normal: [-Math.cos(angle), 0, -Math.sin(angle)] as [number, number, number] };
    });
    for (let i = 0; i < segments; i += 1) {
      const a = ring[i]!;
      const b = ring[(i + 1) % segments]!;
      if (!inside(a.x, a.z) || !inside(b.x, b.z)) continue;
      const low = into.vertex(a.x, 0, a.z, a.normal);
      const high = into.vertex(a.x, thickness, a.z, a.normal);
      const nextLow = into.vertex(b.x, 0, b.z, b.normal);
      const nextHigh = into.vertex(b.x, thickness, b.z, b.normal);
      into.triangle(low, high, nextHigh);
      into.triangle(low, nextHigh, nextLow);
    }
  }

  const mesh = document.createMesh(input.name);
  mesh.addPrimitive(topFace.primitive(document, face('top', top.webp)));
  mesh.addPrimitive(bottomFace.primitive(document, face('bottom', bottom.webp)));
  if (!core.empty) mesh.addPrimitive(core.primitive(document, plain('core', CORE_COLOUR, 0, 0.8)));
  if (!barrels.empty) mesh.addPrimitive(barrels.primitive(document, plain('plating', BARREL_COLOUR, 0.85, 0.35)));
  document.createScene(input.name).addChild(document.createNode(input.name).setMesh(mesh));
  document.getRoot().setDefaultScene(document.getRoot().listScenes()[0]!);
  const buildMs = Math.round(performance.now() - buildStart);

  const compressStart = performance.now();
  const rawBytes = await modelBytes(document);
  const glb = await compressModelDocument(document);
  return { glb, rawBytes, timings: { texturesMs, buildMs, compressMs: Math.round(performance.now() - compressStart) } };
}
