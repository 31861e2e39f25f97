/**
 * Where a server's CPU time went: summarises a `.cpuprofile` written by `node --cpu-prof` (see
 * docs/performance.md for how one is taken) into the functions that cost the most, counting a
 * function's callees with it ("inclusive") and leaving out idle time and start-up (module
 * loading), so a profile of a few hundred requests reads as what one request costs.
 *
 *   node bench/profile.ts <file.cpuprofile> [filter regex] [rows]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const [file, filter = '.', rows = '50'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile.ts <file.cpuprofile> [filter regex] [rows]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const selfTime = new Map<number, number>();
profile.samples.forEach((id, index) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));

/** A frame's place: its package under node_modules, its file in the build or the source, else its URL's end. */
const place = (url: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? /((?:dist\/server|src)\/[^?]+)/.exec(url)?.[1]?.replace(/_[\w-]{8}\.mjs$/, '.mjs') ?? url.slice(-48);
const NOT_WORK = new Set(['(idle)', '(program)', '(garbage collector)']);
const STARTUP = /node:internal\/(modules|main)\//;

let busy = 0;
let collector = 0;
const inclusive = new Map<string, number>();
for (const [id, time] of selfTime) {
  const stack: ProfileNode[] = [];
  for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) stack.push(nodes.get(current)!);
  const name = stack[0]!.callFrame.functionName;
  if (name === '(garbage collector)') collector += time;
  if (NOT_WORK.has(name) || stack.some((node) => STARTUP.test(node.callFrame.url))) continue;
  busy += time;
  const seen = new Set<string>();
  for (const node of stack) {
    const key = `${node.callFrame.functionName || '(anonymous)'}  ${place(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
}
const pattern = new RegExp(filter);
console.log(`busy ${(busy / 1000).toFixed(0)} ms (start-up and idle left out), garbage collection ${(collector / 1000).toFixed(0)} ms`);
for (const [key, time] of [...inclusive].filter(([key]) => pattern.test(key)).sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) {
  console.log(`${((100 * time) / busy).toFixed(1).padStart(5)} %  ${key}`);
}
