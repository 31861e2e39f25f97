import { open } from 'node:fs/promises';

/**
 * The outer structure of a video file, read from its box or element headers only (a few reads,
 * whatever the file's size): which family it is, whether its declared sizes fit in the file (an
 * upload cut short leaves the last box claiming bytes that never came), and for MP4/MOV whether
 * the index (`moov`) comes before the media (`mdat`), which a browser needs to start playing
 * before it has the whole file.
 */
export interface ContainerLayout {
  family: 'isobmff' | 'matroska' | 'other';
  /** A declared size runs past the end of the file. */
  truncated: boolean;
  /** MP4/MOV: `moov` before the first `mdat`. */
  fastStart: boolean;
}

// Top-level boxes an MP4/MOV can start with (QuickTime files from old cameras may lack `ftyp`).
const ISOBMFF_FIRST = new Set(['ftyp', 'styp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot', 'uuid']);
// A file of millions of empty boxes is no video; stop walking long before it costs anything.
const MAX_BOXES = 10_000;

const EBML_MAGIC = 0x1a45dfa3;
const MATROSKA_SEGMENT = 0x18538067;

export async function readContainerLayout(file: string): Promise<ContainerLayout> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    };
    const head = await read(0, 16);
    if (head.length >= 8 && ISOBMFF_FIRST.has(head.toString('latin1', 4, 8))) return await walkBoxes(read, size);
    if (head.length >= 4 && head.readUInt32BE(0) === EBML_MAGIC) return await checkMatroska(read, size);
    return { family: 'other', truncated: false, fastStart: false };
  } finally {
    await handle.close();
  }
}

type Read = (position: number, length: number) => Promise<Buffer>;

async function walkBoxes(read: Read, fileSize: number): Promise<ContainerLayout> {
  let offset = 0;
  let moovAt = -1;
  let mdatAt = -1;
  for (let boxes = 0; offset < fileSize && boxes < MAX_BOXES; boxes++) {
    const header = await read(offset, 16);
    if (header.length < 8) return { family: 'isobmff', truncated: true, fastStart: false };
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (size === 1) {
      if (header.length < 16) return { family: 'isobmff', truncated: true, fastStart: false };
      size = Number(header.readBigUInt64BE(8));
    } else if (size === 0) {
      size = fileSize - offset; // "to the end of the file"
    }
    if (size < 8) break; // not a box: leave the judgement to ffprobe
    if (type === 'moov' && moovAt < 0) moovAt = offset;
    if (type === 'mdat' && mdatAt < 0) mdatAt = offset;
    if (offset + size > fileSize) return { family: 'isobmff', truncated: true, fastStart: moovAt >= 0 && (mdatAt < 0 || moovAt < mdatAt) };
    offset += size;
  }
  return { family: 'isobmff', truncated: false, fastStart: moovAt >= 0 && (mdatAt < 0 || moovAt < mdatAt) };
}

/** An EBML variable-length integer at `at`: its length in bytes and value (null: "unknown size"). */
function readVint(bytes: Buffer, at: number, keepMarker: boolean): { length: number; value: number | null } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = bytes[at + i]!;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { length, value: !keepMarker && allOnes ? null : value };
}

async function checkMatroska(read: Read, fileSize: number): Promise<ContainerLayout> {
  const head = await read(0, 64);
  const idLength = 4;
  const headerSize = readVint(head, idLength, false);
  if (!headerSize || headerSize.value === null) return { family: 'matroska', truncated: false, fastStart: false };
  const segmentAt = idLength + headerSize.length + headerSize.value;
  const segment = await read(segmentAt, 12);
  const id = readVint(segment, 0, true);
  if (!id) return { family: 'matroska', truncated: segment.length < 12, fastStart: false };
  if (id.value !== MATROSKA_SEGMENT) return { family: 'matroska', truncated: false, fastStart: false };
  const segmentSize = readVint(segment, id.length, false);
  if (!segmentSize) return { family: 'matroska', truncated: true, fastStart: false };
  // a live recording (a browser's MediaRecorder) writes "unknown size": nothing to compare
  if (segmentSize.value === null) return { family: 'matroska', truncated: false, fastStart: false };
  return { family: 'matroska', truncated: segmentAt + id.length + segmentSize.length + segmentSize.value > fileSize, fastStart: false };
}
