/**
 * Lighthouse's mobile performance score of a few pages, run on Debian's Chromium (a throttled
 * phone on a slow 4G line, as Lighthouse simulates it by default), one page at a time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run';
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'] as const;

interface Report {
  categories: { performance: { score: number | null } };
  audits: Record<string, { displayValue?: string }>;
}

export async function benchLighthouse(base: string, pages: [string, string][]): Promise<string> {
  const chrome = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'copperhub-lighthouse-'));
  const rows: string[] = [];
  try {
    for (const [name, pagePath] of pages) {
      console.log(`[bench] lighthouse ${name}`);
      const output = path.join(dir, 'report.json');
      const run = spawnSync(
        process.execPath,
        [path.join(root, 'node_modules', 'lighthouse', 'cli', 'index.js'), `${base}${pagePath}`, '--only-categories=performance', '--form-factor=mobile', `--chrome-flags=${CHROME_FLAGS}`, '--output=json', `--output-path=${output}`, '--quiet'],
        { env: { ...process.env, CHROME_PATH: chrome }, encoding: 'utf8', timeout: 180_000 },
      );
      if (run.status !== 0) {
        rows.push(`| ${name} | failed: ${(run.stderr || run.error?.message || '').trim().split('\n').at(-1)} | | | | | |`);
        continue;
      }
      const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
      const score = Math.round((report.categories.performance.score ?? 0) * 100);
      rows.push(`| ${name} | ${score} | ${METRICS.map((metric) => report.audits[metric]?.displayValue ?? '').join(' | ')} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    '## Lighthouse, mobile',
    '',
    `Lighthouse ${lighthouseVersion()} on Debian's Chromium, performance only, its default mobile emulation (a mid-range phone, throttled CPU, slow 4G), as a guest. Aim: 98 or more.`,
    '',
    '| page | performance | FCP | LCP | TBT | CLS | Speed Index |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

function lighthouseVersion(): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', 'lighthouse', 'package.json'), 'utf8')) as { version: string }).version;
}
