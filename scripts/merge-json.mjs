#!/usr/bin/env node
// A git merge driver for the locale files: a three-way merge of JSON objects by key, so two
// branches that each add messages merge without a textual conflict.
// Usage (git config merge.json.driver "node scripts/merge-json.mjs %O %A %B").
import { readFileSync, writeFileSync } from 'node:fs';

const [base, ours, theirs] = process.argv.slice(2).map((file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
});
let conflicts = 0;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function merge(o, a, b) {
  if (same(a, b)) return a;
  if (same(a, o)) return b;
  if (same(b, o)) return a;
  if (isObject(a) && isObject(b)) {
    const out = {};
    const base = isObject(o) ? o : {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const value = merge(base[key], a[key], b[key]);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  conflicts += 1;
  process.stderr.write(`merge-json: both sides changed a value differently; keeping ours\n`);
  return a;
}

const merged = merge(base, ours, theirs);
writeFileSync(process.argv[3], `${JSON.stringify(merged, null, 2)}\n`);
process.exit(conflicts ? 1 : 0);
