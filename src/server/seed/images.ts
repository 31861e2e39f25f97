/**
 * Generated artwork for demo and synthetic content: PCB-like project covers, banners, avatars
 * and collection covers, drawn as SVG and rendered to WebP with sharp. Nothing is downloaded.
 * Text drawn on covers and avatars (silkscreen, part numbers, initials) is ASCII only and uses the
 * generic `sans-serif` family (CJK glyphs may be missing on the server). Banners and collection
 * covers carry no text at all: pages show their titles in the reader's language over or beside them.
 */
import pLimit from 'p-limit';
import sharp from 'sharp';
import { fileUrl, getStorage } from '../storage/index.ts';
import { createRng, hashString, type Rng } from './random.ts';

export const MASK_COLORS = ['green', 'black', 'blue', 'purple', 'red', 'white', 'yellow'] as const;
export type MaskColor = (typeof MASK_COLORS)[number];

interface Palette {
  mask: string;
  maskEdge: string;
  trace: string;
  pour: string;
  silk: string;
  pad: string;
  hole: string;
}

const PALETTES: Record<MaskColor, Palette> = {
  green: { mask: '#0f5a2a', maskEdge: '#0a3f1d', trace: '#2b8a46', pour: '#13703a', silk: '#f4f4ee', pad: '#d9b45a', hole: '#101410' },
  black: { mask: '#17191c', maskEdge: '#0b0c0e', trace: '#3b4147', pour: '#202327', silk: '#f2f2f2', pad: '#d6b25c', hole: '#050505' },
  blue: { mask: '#0c3a82', maskEdge: '#082a5e', trace: '#2c66c4', pour: '#124a9c', silk: '#f4f6fb', pad: '#cfd3d8', hole: '#0a0f1a' },
  purple: { mask: '#4a1d6e', maskEdge: '#33134d', trace: '#7a46a8', pour: '#5a2884', silk: '#f7f2fb', pad: '#dcb85e', hole: '#140a1c' },
  red: { mask: '#8a1620', maskEdge: '#610f17', trace: '#b8424a', pour: '#9c1f2a', silk: '#fbf3f3', pad: '#d0d4d8', hole: '#1a0608' },
  white: { mask: '#e9ebe8', maskEdge: '#c9ccc8', trace: '#d3d7d2', pour: '#dfe2de', silk: '#1c1f22', pad: '#d8b35b', hole: '#2a2a2a' },
  yellow: { mask: '#c9a314', maskEdge: '#9c7e0c', trace: '#dcbc3c', pour: '#d2ad1f', silk: '#1d1a10', pad: '#d0d4d8', hole: '#1d1a10' },
};

/** Escapes text for an SVG text node or attribute, keeping only printable ASCII. */
function svgText(text: string): string {
  return text
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const r1 = (n: number) => Math.round(n * 10) / 10;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const overlaps = (a: Box, b: Box, margin = 0) =>
  a.x < b.x + b.w + margin && b.x < a.x + a.w + margin && a.y < b.y + b.h + margin && b.y < a.y + a.h + margin;

/** Draws a via: a copper ring (tented in mask colour) with a drill hole. */
function via(x: number, y: number, p: Palette, size = 7): string {
  return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${size}" fill="${p.trace}"/><circle cx="${r1(x)}" cy="${r1(y)}" r="${r1(size * 0.45)}" fill="${p.hole}"/>`;
}

/**
 * A bundle of parallel traces leaving one side of a chip: straight out, a 45-degree jog, then
 * straight on to a row of vias. Coordinates are local (u outward, v along the side) and mapped
 * by `map`.
 */
function traceBundle(
  rng: Rng,
  p: Palette,
  starts: number[],
  map: (u: number, v: number) => [number, number],
  options: { first: number; pitch: number; jog: number; reach: number; width: number },
  taken: Box[],
): string {
  const dir = options.jog >= 0 ? 1 : -1;
  const ordered = dir < 0 ? starts.slice() : starts.slice().reverse();
  const parts: string[] = [];
  const ends: [number, number][] = [];
  const extra = rng.chance(0.5) ? 0 : rng.int(-30, 30);
  ordered.forEach((v, i) => {
    const bendAt = options.first + i * options.pitch * 0.83;
    const jog = Math.abs(options.jog);
    const points: [number, number][] = [
      [0, v],
      [bendAt, v],
      [bendAt + jog, v + dir * jog],
      [Math.max(bendAt + jog + 12, options.reach + extra + (i % 2) * 18), v + dir * jog],
    ];
    const mapped = points.map(([u, w]) => map(u, w));
    parts.push(`M${mapped.map(([x, y]) => `${r1(x)} ${r1(y)}`).join(' L')}`);
    for (let k = 1; k < mapped.length; k++) {
      const [x0, y0] = mapped[k - 1]!;
      const [x1, y1] = mapped[k]!;
      const pad = options.width + 8;
      taken.push({ x: Math.min(x0, x1) - pad, y: Math.min(y0, y1) - pad, w: Math.abs(x1 - x0) + pad * 2, h: Math.abs(y1 - y0) + pad * 2 });
    }
    ends.push(mapped[mapped.length - 1]!);
  });
  let svg = `<path d="${parts.join(' ')}" fill="none" stroke="${p.trace}" stroke-width="${options.width}" stroke-linecap="round" stroke-linejoin="round"/>`;
  for (const [x, y] of ends) svg += via(x, y, p, options.width * 1.2 + 2);
  return svg;
}

/** An SOIC-8 package with a few short traces to vias. */
function soic(rng: Rng, p: Palette, x: number, y: number, label: string, designator: string, taken: Box[]): string {
  const bodyW = 56;
  const bodyH = 44;
  let svg = '';
  let traces = '';
  for (let i = 0; i < 4; i++) {
    const px = x + 6 + i * 13;
    svg += `<rect x="${px}" y="${y - 12}" width="7" height="12" fill="${p.pad}"/><rect x="${px}" y="${y + bodyH}" width="7" height="12" fill="${p.pad}"/>`;
    if (rng.chance(0.6)) {
      const sx = px + 3.5;
      const up = i % 2 === 0;
      const y0 = up ? y - 12 : y + bodyH + 12;
      const y1 = up ? y0 - 14 : y0 + 14;
      const d = (i < 2 ? -1 : 1) * 12;
      traces += `<path d="M${sx} ${y0} L${sx} ${y1} L${sx + d} ${y1 + (up ? -12 : 12)}" fill="none" stroke="${p.trace}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>`;
      traces += via(sx + d, y1 + (up ? -12 : 12), p, 6);
    }
  }
  svg = traces + svg;
  svg += `<rect x="${x}" y="${y}" width="${bodyW}" height="${bodyH}" rx="3" fill="#161616"/><circle cx="${x + 7}" cy="${y + bodyH - 7}" r="3" fill="#2e2e2e"/>`;
  svg += `<text x="${x + bodyW / 2}" y="${y + bodyH / 2 + 3}" font-family="sans-serif" font-size="8" fill="#8a8a8a" text-anchor="middle">${svgText(label)}</text>`;
  svg += `<text x="${x + bodyW + 8}" y="${y + 6}" font-family="sans-serif" font-size="12" fill="${p.silk}">${designator}</text>`;
  taken.push({ x: x - 20, y: y - 40, w: bodyW + 60, h: bodyH + 80 });
  return svg;
}

/** A quad flat package with pads on four sides and a part number on its body. */
function chip(p: Palette, cx: number, cy: number, size: number, pins: number, label: string): { svg: string; pinsAt: number[] } {
  const half = size / 2;
  const pitch = (size * 0.8) / pins;
  const pinsAt: number[] = [];
  for (let i = 0; i < pins; i++) pinsAt.push(-size * 0.4 + pitch * (i + 0.5));
  const padLong = Math.max(10, size * 0.1);
  const padShort = pitch * 0.55;
  let pads = '';
  for (const offset of pinsAt) {
    pads += `<rect x="${r1(cx + offset - padShort / 2)}" y="${r1(cy - half - padLong)}" width="${r1(padShort)}" height="${r1(padLong)}" fill="${p.pad}"/>`;
    pads += `<rect x="${r1(cx + offset - padShort / 2)}" y="${r1(cy + half)}" width="${r1(padShort)}" height="${r1(padLong)}" fill="${p.pad}"/>`;
    pads += `<rect x="${r1(cx - half - padLong)}" y="${r1(cy + offset - padShort / 2)}" width="${r1(padLong)}" height="${r1(padShort)}" fill="${p.pad}"/>`;
    pads += `<rect x="${r1(cx + half)}" y="${r1(cy + offset - padShort / 2)}" width="${r1(padLong)}" height="${r1(padShort)}" fill="${p.pad}"/>`;
  }
  const fontSize = Math.min(size * 0.16, (size * 0.84) / (Math.max(label.length, 4) * 0.74));
  const svg =
    pads +
    `<rect x="${r1(cx - half)}" y="${r1(cy - half)}" width="${size}" height="${size}" rx="4" fill="#141414" stroke="#2a2a2a" stroke-width="2"/>` +
    `<circle cx="${r1(cx - half + size * 0.12)}" cy="${r1(cy - half + size * 0.12)}" r="${r1(size * 0.04)}" fill="#2c2c2c"/>` +
    `<text x="${cx}" y="${r1(cy + fontSize * 0.35)}" font-family="sans-serif" font-weight="bold" font-size="${r1(fontSize)}" fill="#8d8d8d" text-anchor="middle">${svgText(label)}</text>` +
    `<text x="${cx}" y="${r1(cy + fontSize * 1.5)}" font-family="sans-serif" font-size="${r1(fontSize * 0.45)}" fill="#6b6b6b" text-anchor="middle">2438 TW</text>`;
  return { svg, pinsAt };
}

/** A two-pad passive (resistor or capacitor) with its silkscreen designator. */
function passive(p: Palette, x: number, y: number, vertical: boolean, designator: string, body: string): string {
  const pad = 9;
  const gap = 10;
  const w = vertical ? pad * 1.4 : pad * 2 + gap;
  const h = vertical ? pad * 2 + gap : pad * 1.4;
  let svg = '';
  if (vertical) {
    svg += `<rect x="${x}" y="${y}" width="${w}" height="${pad}" fill="${p.pad}"/><rect x="${x}" y="${y + pad + gap}" width="${w}" height="${pad}" fill="${p.pad}"/>`;
    svg += `<rect x="${x + 1}" y="${y + pad - 1}" width="${w - 2}" height="${gap + 2}" fill="${body}"/>`;
    svg += `<text x="${x + w + 4}" y="${y + h / 2 + 4}" font-family="sans-serif" font-size="11" fill="${p.silk}">${designator}</text>`;
  } else {
    svg += `<rect x="${x}" y="${y}" width="${pad}" height="${h}" fill="${p.pad}"/><rect x="${x + pad + gap}" y="${y}" width="${pad}" height="${h}" fill="${p.pad}"/>`;
    svg += `<rect x="${x + pad - 1}" y="${y + 1}" width="${gap + 2}" height="${h - 2}" fill="${body}"/>`;
    svg += `<text x="${x}" y="${y - 4}" font-family="sans-serif" font-size="11" fill="${p.silk}">${designator}</text>`;
  }
  return svg;
}

export interface CoverOptions {
  /** Short ASCII title printed in silkscreen (e.g. "WX-S3 WEATHER"). */
  title: string;
  /** Part number printed on the main chip (e.g. "ESP32-S3"). */
  chip?: string;
  mask?: MaskColor;
  /** Seed of the artwork; defaults to a hash of the title. */
  seed?: number;
  width?: number;
  height?: number;
}

/** The SVG of a PCB-like project cover (default 800x600). */
export function coverSvg(options: CoverOptions): string {
  const width = options.width ?? 800;
  const height = options.height ?? 600;
  const rng = createRng(options.seed ?? hashString(options.title));
  const mask = options.mask ?? rng.pick(MASK_COLORS);
  const p = PALETTES[mask];
  const bx = 36;
  const by = 36;
  const bw = width - 72;
  const bh = height - 72;
  const taken: Box[] = [];
  let svg = '';

  // backdrop and board
  svg += `<defs><radialGradient id="bg" cx="50%" cy="45%" r="75%"><stop offset="0" stop-color="#2b3036"/><stop offset="1" stop-color="#111316"/></radialGradient></defs>`;
  svg += `<rect width="${width}" height="${height}" fill="url(#bg)"/>`;
  svg += `<rect x="${bx + 8}" y="${by + 10}" width="${bw}" height="${bh}" rx="22" fill="#000" opacity="0.45"/>`;
  svg += `<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" rx="22" fill="${p.mask}" stroke="${p.maskEdge}" stroke-width="4"/>`;

  // a ground pour with a clearance border
  const pourX = bx + 18;
  const pourY = by + 18;
  svg += `<rect x="${pourX}" y="${pourY}" width="${bw - 36}" height="${bh - 36}" rx="14" fill="${p.pour}" opacity="0.55"/>`;

  // mounting holes
  for (const [hx, hy] of [
    [bx + 30, by + 30],
    [bx + bw - 30, by + 30],
    [bx + 30, by + bh - 30],
    [bx + bw - 30, by + bh - 30],
  ] as const) {
    svg += `<circle cx="${hx}" cy="${hy}" r="16" fill="${p.pad}"/><circle cx="${hx}" cy="${hy}" r="10" fill="${p.hole}"/>`;
    taken.push({ x: hx - 20, y: hy - 20, w: 40, h: 40 });
  }

  // main chip, left of centre
  const size = rng.int(104, 136);
  const cx = Math.round(bx + bw * (0.36 + rng.next() * 0.08));
  const cy = Math.round(by + bh * (0.4 + rng.next() * 0.06));
  const pins = rng.pick([8, 10, 12]);
  const main = chip(p, cx, cy, size, pins, options.chip ?? 'MCU');
  const half = size / 2;
  const padLong = Math.max(10, size * 0.1);
  const edge = half + padLong;
  taken.push({ x: cx - edge - 40, y: cy - edge - 40, w: (edge + 40) * 2, h: (edge + 40) * 2 });

  // title block in silkscreen along the bottom edge
  const title = svgText(options.title.toUpperCase());
  const titleSize = Math.min(46, Math.floor((bw * 0.62) / Math.max(title.length, 6) / 0.62));
  const titleY = by + bh - 44;
  const titleBox = { x: bx + 60, y: titleY - titleSize - 18, w: bw - 120, h: titleSize + 40 };
  taken.push(titleBox);

  // traces fanning out of the chip on every side
  let traces = '';
  const pitch = (size * 0.8) / pins;
  const width_ = Math.max(3, Math.round(pitch * 0.38));
  const bundle = (side: 'left' | 'right' | 'top' | 'bottom', from: number, count: number, jog: number, reach: number) => {
    const starts = main.pinsAt.slice(from, from + count);
    const map = (u: number, v: number): [number, number] => {
      switch (side) {
        case 'right':
          return [cx + edge + u, cy + v];
        case 'left':
          return [cx - edge - u, cy + v];
        case 'top':
          return [cx + v, cy - edge - u];
        default:
          return [cx + v, cy + edge + u];
      }
    };
    traces += traceBundle(rng, p, starts, map, { first: 14, pitch, jog, reach, width: width_ }, taken);
  };
  const rightReach = bx + bw - 70 - (cx + edge);
  bundle('right', 0, Math.ceil(pins / 2), -rng.int(30, 70), rightReach * (0.55 + rng.next() * 0.35));
  bundle('right', Math.ceil(pins / 2) + 1, pins - Math.ceil(pins / 2) - 1, rng.int(30, 70), rightReach * (0.45 + rng.next() * 0.4));
  bundle('top', 1, Math.min(5, pins - 2), rng.pick([-1, 1]) * rng.int(20, 50), cy - edge - by - 70);
  bundle('bottom', 2, Math.min(4, pins - 3), rng.pick([-1, 1]) * rng.int(16, 36), Math.max(40, titleBox.y - (cy + edge) - 30));

  // USB-C style connector on the left edge, fed by the left side of the chip
  const usbY = cy - 40;
  const leftStarts = main.pinsAt.slice(Math.floor(pins / 2) - 2, Math.floor(pins / 2) + 2);
  for (const [i, v] of leftStarts.entries()) {
    const y0 = cy + v;
    const y1 = usbY + 22 + i * 12;
    const x0 = cx - edge;
    const x1 = bx + 64;
    const mid = x0 - 20 - i * 6;
    const dy = y1 - y0;
    const xj = Math.max(x1 + 10, mid - Math.abs(dy));
    traces += `<path d="M${x0} ${r1(y0)} L${r1(mid)} ${r1(y0)} L${r1(xj)} ${r1(y1)} L${x1} ${r1(y1)}" fill="none" stroke="${p.trace}" stroke-width="${width_}" stroke-linecap="round" stroke-linejoin="round"/>`;
    taken.push({ x: x1, y: Math.min(y0, y1) - 14, w: x0 - x1, h: Math.abs(y1 - y0) + 28 });
  }
  svg += traces;
  svg += `<rect x="${bx - 10}" y="${usbY}" width="64" height="80" rx="10" fill="#b9bec4" stroke="#7d838a" stroke-width="3"/>`;
  svg += `<rect x="${bx + 4}" y="${usbY + 16}" width="30" height="48" rx="8" fill="#3a3f45"/>`;
  svg += `<text x="${bx + 60}" y="${usbY - 8}" font-family="sans-serif" font-size="12" fill="${p.silk}">J1 USB</text>`;
  taken.push({ x: bx - 10, y: usbY - 24, w: 110, h: 120 });

  // pin header on the right edge
  const headerPins = rng.int(5, 8);
  const hx = bx + bw - 52;
  const hy = Math.round(by + (bh - headerPins * 26) / 2) - 20;
  svg += `<rect x="${hx - 16}" y="${hy - 16}" width="32" height="${headerPins * 26 + 6}" fill="none" stroke="${p.silk}" stroke-width="2"/>`;
  for (let i = 0; i < headerPins; i++) {
    const y = hy + i * 26;
    svg +=
      i === 0
        ? `<rect x="${hx - 10}" y="${y - 10}" width="20" height="20" fill="${p.pad}"/>`
        : `<circle cx="${hx}" cy="${y}" r="10" fill="${p.pad}"/>`;
    svg += `<circle cx="${hx}" cy="${y}" r="4.5" fill="${p.hole}"/>`;
  }
  svg += `<text x="${hx - 6}" y="${hy - 22}" font-family="sans-serif" font-size="12" fill="${p.silk}">J2</text>`;
  taken.push({ x: hx - 30, y: hy - 40, w: 60, h: headerPins * 26 + 50 });

  // one or two small ICs (flash, regulator) where there is room
  const smallChips = rng.sample(['W25Q128', 'AMS1117', 'TPS7A02', 'CH340C', 'LM358', 'AT24C02', 'SY8089', 'TLV9062'], rng.int(1, 2));
  let designator = 2;
  for (const label of smallChips) {
    for (let attempt = 0; attempt < 300; attempt++) {
      const x = rng.int(bx + 60, bx + bw - 130);
      const y = rng.int(by + 70, by + bh - 160);
      if (taken.some((t) => overlaps(t, { x: x - 20, y: y - 40, w: 116, h: 124 }, 4))) continue;
      svg += soic(rng, p, x, y, label, `U${designator++}`, taken);
      break;
    }
  }

  // passives scattered where there is room
  const bodies = ['#2b2b2b', '#c8a878', '#8c6d4b'];
  let placed = 0;
  for (let attempt = 0; attempt < 200 && placed < 14; attempt++) {
    const vertical = rng.chance(0.4);
    const w = vertical ? 40 : 50;
    const h = vertical ? 50 : 40;
    const x = rng.int(bx + 50, bx + bw - 50 - w);
    const y = rng.int(by + 50, by + bh - 50 - h);
    const box = { x: x - 6, y: y - 18, w: w + 12, h: h + 24 };
    if (taken.some((t) => overlaps(t, box, 6))) continue;
    taken.push(box);
    placed++;
    const isCap = rng.chance(0.5);
    svg += passive(p, x + 6, y + 4, vertical, `${isCap ? 'C' : 'R'}${placed}`, isCap ? rng.pick(bodies) : '#1e1e1e');
  }

  // the main chip on top of its fan-out, and a row of stitching vias
  svg += main.svg;
  svg += `<text x="${cx - half}" y="${r1(cy - edge - 10)}" font-family="sans-serif" font-size="13" fill="${p.silk}">U1</text>`;
  for (let i = 0; i < 10; i++) svg += via(bx + 150 + i * 30, by + 22, p, 4);

  // silkscreen title block
  svg += `<text x="${bx + bw / 2}" y="${titleY}" font-family="sans-serif" font-weight="bold" font-size="${titleSize}" fill="${p.silk}" text-anchor="middle" letter-spacing="2">${title}</text>`;
  svg += `<line x1="${titleBox.x + 40}" y1="${titleY + 12}" x2="${titleBox.x + titleBox.w - 40}" y2="${titleY + 12}" stroke="${p.silk}" stroke-width="2"/>`;
  svg += `<text x="${bx + bw - 70}" y="${by + bh - 14}" font-family="sans-serif" font-size="12" fill="${p.silk}" text-anchor="end">REV ${String.fromCharCode(65 + rng.int(0, 3))}  OPEN HARDWARE</text>`;

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${svg}</svg>`;
}

export interface GradientArtOptions {
  /** The two colours of the diagonal gradient. */
  from: string;
  to: string;
  /** Seed of the decoration. */
  seed: number;
}

/**
 * A 1200x360 banner: a diagonal gradient and decorative traces on the right, leaving the left
 * free for the title the page lays over it.
 */
export function bannerSvg(options: GradientArtOptions): string {
  const width = 1200;
  const height = 360;
  const rng = createRng(options.seed);
  // a chip with a bundle of traces fanning out to the right and stubs to vias on the left
  let deco = '';
  const lanes = 8;
  const jog = rng.int(30, 60);
  for (let i = 0; i < lanes; i++) {
    const y = 112 + i * 20;
    const bend = 955 + i * 16;
    deco += `<path d="M930 ${y} L${bend} ${y} L${bend + jog} ${y - jog} L${width + 10} ${y - jog}" fill="none" stroke="#ffffff" stroke-opacity="0.28" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>`;
  }
  for (let i = 0; i < 5; i++) {
    const y = 120 + i * 30;
    const end = 790 - (i % 2) * 26;
    deco += `<path d="M830 ${y} L${end} ${y}" stroke="#ffffff" stroke-opacity="0.28" stroke-width="6" stroke-linecap="round"/>`;
    deco += `<circle cx="${end - 8}" cy="${y}" r="9" fill="none" stroke="#ffffff" stroke-opacity="0.4" stroke-width="4"/>`;
  }
  deco += `<rect x="830" y="95" width="100" height="170" rx="8" fill="#000" fill-opacity="0.28" stroke="#fff" stroke-opacity="0.4" stroke-width="3"/>`;
  deco += `<circle cx="848" cy="113" r="6" fill="#fff" fill-opacity="0.3"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${options.from}"/><stop offset="1" stop-color="${options.to}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>${deco}` +
    `</svg>`
  );
}

const AVATAR_COLOURS = ['#e4572e', '#17bebb', '#ffc914', '#2e282a', '#76b041', '#3f88c5', '#d7263d', '#8e44ad', '#f49d37', '#1b998b', '#c5283d', '#255f85'];

/** A 160x160 avatar: initials on a coloured circle (transparent corners). */
export function avatarSvg(initials: string, seed: number): string {
  const colour = AVATAR_COLOURS[seed % AVATAR_COLOURS.length]!;
  const text = svgText(initials.toUpperCase()).slice(0, 2);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">` +
    `<circle cx="80" cy="80" r="80" fill="${colour}"/>` +
    `<circle cx="80" cy="80" r="66" fill="none" stroke="#ffffff" stroke-opacity="0.18" stroke-width="3"/>` +
    `<text x="80" y="99" font-family="sans-serif" font-weight="bold" font-size="56" fill="#ffffff" text-anchor="middle">${text}</text>` +
    `</svg>`
  );
}

/** An 800x600 collection cover: a gradient and a centred grid of small boards. */
export function collectionSvg(options: GradientArtOptions): string {
  const rng = createRng(options.seed);
  let tiles = '';
  for (let i = 0; i < 6; i++) {
    const x = 60 + (i % 3) * 240;
    const y = 155 + Math.floor(i / 3) * 160;
    const mask = PALETTES[MASK_COLORS[rng.int(0, MASK_COLORS.length - 1)]!];
    tiles += `<rect x="${x}" y="${y}" width="200" height="130" rx="12" fill="${mask.mask}" stroke="#000" stroke-opacity="0.3" stroke-width="3"/>`;
    tiles += `<rect x="${x + 70}" y="${y + 35}" width="60" height="60" rx="3" fill="#151515"/>`;
    for (let k = 0; k < 4; k++) {
      const ty = y + 45 + k * 12;
      tiles += `<path d="M${x + 130} ${ty} L${x + 150 + k * 4} ${ty} L${x + 170 + k * 4} ${ty - 20} L${x + 190} ${ty - 20}" fill="none" stroke="${mask.trace}" stroke-width="4"/>`;
    }
    tiles += `<circle cx="${x + 16}" cy="${y + 16}" r="7" fill="${mask.pad}"/><circle cx="${x + 184}" cy="${y + 114}" r="7" fill="${mask.pad}"/>`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${options.from}"/><stop offset="1" stop-color="${options.to}"/></linearGradient></defs>` +
    `<rect width="800" height="600" fill="url(#g)"/>` +
    tiles +
    `</svg>`
  );
}

export interface ArtworkJob {
  /** Storage key of the WebP file. */
  key: string;
  width: number;
  height: number;
  svg: () => string;
}

export interface StoredArtwork {
  key: string;
  /** Public URL of the stored file. */
  url: string;
  /** Bytes stored. */
  size: number;
}

/**
 * Renders each job's SVG to WebP and stores it under its key, keeping the jobs' order. A few at
 * a time: sharp renders on libuv's thread pool, which scrypt and file writes share.
 */
export async function storeArtwork<J extends ArtworkJob>(jobs: readonly J[]): Promise<(J & StoredArtwork)[]> {
  const storage = getStorage();
  const limit = pLimit(4);
  return Promise.all(
    jobs.map((job) =>
      limit(async () => {
        const data = await sharp(Buffer.from(job.svg())).webp({ quality: 80, effort: 2 }).toBuffer();
        await storage.put(job.key, data);
        return { ...job, url: fileUrl(job.key), size: data.length };
      }),
    ),
  );
}

export interface MakePhotoOptions {
  /** The built board's silkscreen label and chip, as on the project's cover. */
  title: string;
  chip?: string;
  mask: MaskColor;
  /** Seed of the desk, the board's angle and the board's layout. */
  seed: number;
}

const DESK_WOODS = [
  ['#8a5a32', '#6e4424'],
  ['#b07c4f', '#8f6139'],
  ['#5b4636', '#43332a'],
] as const;

/**
 * An 800x600 "built board on a desk" photo for a make: the cover's board (without its backdrop),
 * turned a little, on a wooden desk or a green cutting mat, with a USB cable plugged in and a
 * spool of solder beside it. Each make's photos differ by seed, so a gallery does not repeat.
 */
export function makePhotoSvg(options: MakePhotoOptions): string {
  const rng = createRng(options.seed);
  const width = 800;
  const height = 600;
  let desk = '';
  if (rng.chance(0.4)) {
    // a self-healing cutting mat with its grid
    desk += `<rect width="${width}" height="${height}" fill="#2f6b4a"/>`;
    for (let x = 20; x < width; x += 40) desk += `<line x1="${x}" y1="0" x2="${x}" y2="${height}" stroke="#ffffff" stroke-opacity="0.14" stroke-width="1.5"/>`;
    for (let y = 20; y < height; y += 40) desk += `<line x1="0" y1="${y}" x2="${width}" y2="${y}" stroke="#ffffff" stroke-opacity="0.14" stroke-width="1.5"/>`;
  } else {
    const [light, dark] = rng.pick(DESK_WOODS);
    desk += `<defs><linearGradient id="wood" x1="0" y1="0" x2="1" y2="0.2"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>`;
    desk += `<rect width="${width}" height="${height}" fill="url(#wood)"/>`;
    for (let i = 0; i < 26; i++) {
      const y = rng.int(0, height);
      const wave = rng.int(-14, 14);
      desk += `<path d="M0 ${y} Q${width / 2} ${y + wave} ${width} ${y + rng.int(-6, 6)}" fill="none" stroke="#000" stroke-opacity="${r1(0.05 + rng.next() * 0.08)}" stroke-width="${rng.int(1, 4)}"/>`;
    }
  }
  // a spool of solder in a corner
  const sx = rng.pick([110, width - 110]);
  const sy = rng.pick([100, height - 100]);
  desk += `<circle cx="${sx + 6}" cy="${sy + 8}" r="78" fill="#000" opacity="0.3"/>`;
  desk += `<circle cx="${sx}" cy="${sy}" r="78" fill="#c8ccd0"/><circle cx="${sx}" cy="${sy}" r="62" fill="#9aa0a6"/><circle cx="${sx}" cy="${sy}" r="24" fill="#e84a3c"/><circle cx="${sx}" cy="${sy}" r="10" fill="#2a2a2a"/>`;

  // the board: the cover without its backdrop, smaller, turned, with a shadow
  const angle = r1(rng.int(-9, 9) + rng.next());
  const bw = 520;
  const bh = Math.round((bw * 528) / 728);
  const bx = Math.round((width - bw) / 2 + rng.int(-40, 40));
  const by = Math.round((height - bh) / 2 + rng.int(-30, 30));
  const board = coverSvg({ title: options.title, chip: options.chip, mask: options.mask, seed: options.seed }).replace(
    /^<svg[^>]*>/,
    `<svg x="${bx}" y="${by}" width="${bw}" height="${bh}" viewBox="36 36 728 528">`,
  );
  // a USB cable plugged into the board's left edge
  const cy = by + bh / 2;
  const cable =
    `<path d="M${bx - 34} ${cy} C${bx - 140} ${cy} ${bx - 120} ${height - 40} ${-20} ${height - 70}" fill="none" stroke="#1b1b1b" stroke-width="16" stroke-linecap="round"/>` +
    `<rect x="${bx - 44}" y="${cy - 16}" width="52" height="32" rx="5" fill="#2a2a2a"/><rect x="${bx + 4}" y="${cy - 10}" width="14" height="20" rx="2" fill="#c9ced3"/>`;
  const turned =
    `<g transform="rotate(${angle} ${bx + bw / 2} ${by + bh / 2})">` +
    `<rect x="${bx + 10}" y="${by + 14}" width="${bw}" height="${bh}" rx="14" fill="#000" opacity="0.4"/>` +
    cable +
    board +
    `</g>`;
  // light falling from the top left
  const light = `<defs><radialGradient id="light" cx="25%" cy="15%" r="90%"><stop offset="0" stop-color="#fff" stop-opacity="0.18"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></radialGradient></defs><rect width="${width}" height="${height}" fill="url(#light)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${desk}${turned}${light}</svg>`;
}
