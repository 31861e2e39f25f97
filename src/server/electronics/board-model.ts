/**
 * A board's 3D model made small enough to send: `kicad-cli pcb export glb` writes one to a few
 * tens of MB (every track and pad as its own mesh); here meshes are deduplicated, their vertices
 * welded, primitives of one material joined, positions and normals quantized and the buffers
 * compressed with meshopt (`EXT_meshopt_compression`), which the viewer decodes with three.js's
 * small meshopt decoder. The model built from Gerbers (`gerber-model.ts`) goes through the same
 * steps. Pure: bytes or a glTF document in, bytes out.
 */
import { getBounds, Logger, NodeIO, type Document } from '@gltf-transform/core';
import { EXTMeshoptCompression, EXTTextureWebP, KHRMeshQuantization, KHRMaterialsClearcoat, KHRMaterialsSpecular, KHRMaterialsIOR } from '@gltf-transform/extensions';
import { dedup, flatten, join, meshopt, prune, quantize, weld } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

async function modelIo(): Promise<NodeIO> {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
  return new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.WARN))
    .registerExtensions([EXTMeshoptCompression, EXTTextureWebP, KHRMeshQuantization, KHRMaterialsClearcoat, KHRMaterialsSpecular, KHRMaterialsIOR])
    .registerDependencies({ 'meshopt.encoder': MeshoptEncoder, 'meshopt.decoder': MeshoptDecoder });
}

/** Compresses a GLB from `kicad-cli`; the model looks the same to within a hundredth of a millimetre. */
export async function compressBoardModel(glb: Uint8Array): Promise<Buffer> {
  const io = await modelIo();
  return compressModelDocument(await io.readBinary(glb));
}

/** A model as a compressed GLB: the document is changed in place. */
export async function compressModelDocument(document: Document): Promise<Buffer> {
  const io = await modelIo();
  await document.transform(
    dedup(),
    flatten(),
    join({ keepNamed: false }),
    weld(),
    prune(),
    // 14 bits over a board of up to ~160 mm keeps positions to ~0.01 mm, like kicad-cli's own --min-distance.
    quantize({ quantizePosition: 14, quantizeNormal: 8 }),
    meshopt({ encoder: MeshoptEncoder, level: 'medium' }),
  );
  return Buffer.from(await io.writeBinary(document));
}

/** The bytes of a model not compressed, as a GLB (what compressing saves is measured against it). */
export async function modelBytes(document: Document): Promise<number> {
  return (await (await modelIo()).writeBinary(document)).length;
}

/** A compressed model read back (its meshes decoded), to measure or inspect. */
export async function readBoardModel(glb: Uint8Array): Promise<Document> {
  return (await modelIo()).readBinary(glb);
}

/** A model's extent in millimetres (glTF is in metres, y up): width, depth and thickness. */
export async function measureBoardModel(glb: Uint8Array): Promise<{ min: number[]; max: number[]; sizeMm: [number, number, number] }> {
  const document = await readBoardModel(glb);
  const scene = document.getRoot().getDefaultScene() ?? document.getRoot().listScenes()[0]!;
  const { min, max } = getBounds(scene);
  const mm = (axis: number) => Math.round((max[axis]! - min[axis]!) * 1000 * 1000) / 1000;
  return { min: [...min], max: [...max], sizeMm: [mm(0), mm(2), mm(1)] };
}
