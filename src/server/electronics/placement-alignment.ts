/**
 * Puts the parts of a placement file on the rendered board. CAD tools write placement files in
 * their own origin: the Gerbers' absolute coordinates, the board's lower-left corner, or an
 * auxiliary origin the designer placed anywhere (KiCad's "drill/place file origin"). The offset
 * between the two is chosen by evidence: pads on the board's paste layer, when given, match part
 * centroids at exactly one offset; otherwise the candidate that puts the most parts on the board.
 */
import type { RawPlacement } from './placements.ts';
import type { Placement } from '../../lib/contract/schemas/eda.ts';

/** A placement on the board, in the contract's frame: mm from the left and top edges seen from the top, y down. */
export type AlignedPlacement = Omit<Placement, 'boardId'>;

/** How far outside the outline a part's centroid may sit and still count as on the board (edge connectors overhang). */
const EDGE_TOLERANCE_MM = 1;
/** Parts and pad points used to vote for an offset (enough to be sure, few enough to stay fast). */
const MAX_VOTING_PARTS = 300;
const MAX_VOTING_POINTS = 20_000;
/** Pads further apart than this are not two pads of one small part. */
const PAD_PAIR_MM = 6;
/** Resolution of the vote (mm). */
const BIN_MM = 0.1;

type Offset = { dx: number; dy: number };

function countInside(placements: RawPlacement[], offset: Offset, [vx, vy, w, h]: readonly number[]): number {
  let inside = 0;
  for (const part of placements) {
    const gx = part.x + offset.dx;
    const gy = part.y + offset.dy;
    if (gx >= vx! - EDGE_TOLERANCE_MM && gx <= vx! + w! + EDGE_TOLERANCE_MM && gy >= vy! - EDGE_TOLERANCE_MM && gy <= vy! + h! + EDGE_TOLERANCE_MM) inside++;
  }
  return inside;
}

/** Points a part centroid may sit on: every pad, and the midpoint of every pad with its near neighbours. */
function centroidCandidates(pads: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...pads].sort((a, b) => a[0] - b[0]);
  const points: Array<[number, number]> = [...sorted];
  for (let i = 0; i < sorted.length && points.length < MAX_VOTING_POINTS; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j]![0] - sorted[i]![0] <= PAD_PAIR_MM; j++) {
      if (Math.abs(sorted[j]![1] - sorted[i]![1]) > PAD_PAIR_MM) continue;
      points.push([(sorted[i]![0] + sorted[j]![0]) / 2, (sorted[i]![1] + sorted[j]![1]) / 2]);
      if (points.length >= MAX_VOTING_POINTS) break;
    }
  }
  return points;
}

/** The offset at which most parts sit on a pad or between two pads; null without a clear winner. */
function offsetFromPads(placements: RawPlacement[], pads: Array<[number, number]>): Offset | null {
  if (pads.length === 0 || placements.length === 0) return null;
  const points = centroidCandidates(pads);
  const step = Math.max(1, Math.ceil(placements.length / MAX_VOTING_PARTS));
  const voters = placements.filter((_, i) => i % step === 0);
  const votes = new Map<number, number>();
  // Bins as one number: x and y bin indices shifted to be non-negative, side by side.
  const SHIFT = 2 ** 21;
  const key = (dx: number, dy: number) => (Math.round(dx / BIN_MM) + SHIFT) * 2 * SHIFT + (Math.round(dy / BIN_MM) + SHIFT);
  for (const part of voters) {
    // One vote per part and bin, so a part with many pads does not outvote the others.
    const seen = new Set<number>();
    for (const [px, py] of points) {
      const k = key(px - part.x, py - part.y);
      if (seen.has(k)) continue;
      seen.add(k);
      votes.set(k, (votes.get(k) ?? 0) + 1);
    }
  }
  let bestKey = 0;
  let bestVotes = 0;
  for (const [k, n] of votes) {
    if (n > bestVotes) {
      bestKey = k;
      bestVotes = n;
    }
  }
  if (bestVotes < Math.max(3, voters.length * 0.25)) return null;
  const binX = Math.floor(bestKey / (2 * SHIFT)) - SHIFT;
  const binY = (bestKey % (2 * SHIFT)) - SHIFT;
  return { dx: binX * BIN_MM, dy: binY * BIN_MM };
}

/**
 * The parts of a placement file in the board's frame. `boardViewBoxMm` is the board render's
 * view box in Gerber coordinates (`[minX, minY, width, height]`, mm, y up); `pads`, when known,
 * are the flash centres of the board's paste (or copper) layers in the same coordinates
 * (`gerberFlashes`). Parts keep their side; coordinates are as seen from the top.
 */
export function alignPlacements(
  placements: RawPlacement[],
  boardViewBoxMm: readonly [number, number, number, number],
  board: { widthMm: number; heightMm: number },
  pads: Array<[number, number]> = [],
): AlignedPlacement[] {
  if (placements.length === 0) return [];
  const [vx, vy] = boardViewBoxMm;
  const bounds = [vx, vy, board.widthMm, board.heightMm] as const;
  const inside = (offset: Offset) => countInside(placements, offset, bounds);

  const absolute: Offset = { dx: 0, dy: 0 };
  const lowerLeft: Offset = { dx: vx, dy: vy };
  let chosen = inside(lowerLeft) > inside(absolute) ? lowerLeft : absolute;

  const registered = offsetFromPads(placements, pads);
  if (registered && inside(registered) >= Math.max(inside(chosen), placements.length * 0.8)) {
    chosen = registered;
  } else if (inside(chosen) < placements.length * 0.95) {
    // An origin the files do not tell: centre the parts on the board when they fit there.
    const xs = placements.map((part) => part.x);
    const ys = placements.map((part) => part.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const centred: Offset = { dx: vx + board.widthMm / 2 - (minX + maxX) / 2, dy: vy + board.heightMm / 2 - (minY + maxY) / 2 };
    if (inside(centred) > inside(chosen)) chosen = centred;
  }

  const top = vy + board.heightMm;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return placements.map((part) => ({
    designator: part.designator,
    xMm: round(part.x + chosen.dx - vx),
    yMm: round(top - (part.y + chosen.dy)),
    rotation: part.rotation,
    side: part.side,
  }));
}
