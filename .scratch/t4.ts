import fs from 'node:fs';
import { rasterizePreview } from '../src/server/electronics/preview.ts';
const svg = fs.readFileSync(`/tmp/exp/eagle-snapper-top.svg`, 'utf8');
for (const w of [800, 600, 400, 800]) { const t = Date.now(); await rasterizePreview(svg, { widthPx: w }); console.log(w, Date.now() - t); }
console.log((svg.match(/<mask/g)||[]).length, svg.length);
