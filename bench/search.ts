/**
 * Search latency for `npm run bench`: about 200 English and 200 Chinese queries (single words,
 * phrases, part numbers, mixed Chinese + Latin, different sorts and pages, some without hits)
 * against `GET /api/project/search`, one at a time after a warm-up. Answers a Markdown table
 * with p50/p95 per language.
 *
 * `benchSearchAtScale` measures it, and the list pages (`bench/lists.ts`), on a database of its own
 * (seeded into bench/.work, deleted after): `npm run bench` runs it for 100,000 projects after the rest, and
 * `npm run bench:search -- [--projects N] [--users N] [--port N] [--keep] [--reuse]` runs it alone
 * (default 100,000 projects; about two minutes, most of it the seed; a million projects take
 * about 25 minutes). `--keep` leaves the database under bench/.work, `--reuse` measures a database
 * kept before instead of seeding again (and keeps it). Against a running server:
 * `node bench/search.ts http://127.0.0.1:4402`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchLists } from './lists.ts';
import { benchFeed } from './feed.ts';
import { percentile } from './stats.ts';

const ENGLISH_TERMS = [
  'weather station', 'thermostat', 'smart plug', 'power monitor', 'macro keypad', 'motor driver', 'clock', 'buck converter',
  'usb-pd trigger', 'battery charger', 'solar', 'lora gateway', 'ble beacon', 'zigbee sensor', 'sdr', 'air quality',
  'imu', 'robot', 'headphone amplifier', 'dac', 'drum machine', 'microphone', 'oscilloscope', 'logic analyzer',
  'bench power supply', 'debug probe', 'electronic load', 'e-paper badge', 'esp32', 'stm32', 'rp2040', 'nrf52',
  'ch32', 'attiny', 'low power', 'open source', 'wireless', 'sensor', 'amplifiers', 'charging', 'converters',
  'display', 'firmware', 'enclosure', 'reflow', 'usb-c', 'i2c', 'spi', 'uart', 'quadcopter flight controller',
];
const CHINESE_TERMS = [
  '气象站', '温控器', '智能插座', '功率计', '宏键盘', '电机驱动', '点阵时钟', '降压模块', '诱骗板', '锂电池', '充电板',
  '太阳能', '网关', '蓝牙信标', '传感器', '射频前端', '空气质量', '姿态', '机器人', '耳机放大器', '解码器', '鼓机',
  '麦克风', '示波器', '逻辑分析仪', '数控电源', '调试器', '电子负载', '墨水屏', '开源', '项目简介', '低功耗', '基于',
  '制作说明', '功能特点', '温湿度', '开发板', '无线', '充电', '放大器', '量子计算机', '基于 ESP32', 'STM32 电源',
  'LoRa 网关', '电池 供电', '开源 硬件', 'USB 解码器', '电源 模块', '蓝牙 传感器', '时钟 WiFi',
];
const SORTS = ['relevance', 'newest', 'stars'] as const;

/** About `count` query strings built from `terms`, cycling through sorts and the first pages. */
function buildQueries(terms: string[], count = 200): string[] {
  const queries: string[] = [];
  for (let i = 0; queries.length < count; i += 1) {
    const term = terms[i % terms.length]!;
    const sort = SORTS[Math.floor(i / terms.length) % SORTS.length]!;
    const page = i % 7 === 6 ? 2 : 1;
    queries.push(`q=${encodeURIComponent(term)}&sort=${sort}&page=${page}&pageSize=20`);
  }
  return queries;
}


interface Result {
  language: string;
  queries: number;
  p50: number;
  p95: number;
  max: number;
  hits: number;
  empty: number;
  errors: number;
}

async function run(baseUrl: string, language: string, queries: string[]): Promise<Result> {
  const times: number[] = [];
  let hits = 0;
  let empty = 0;
  let errors = 0;
  for (const query of queries) {
    const started = performance.now();
    try {
      const response = await fetch(`${baseUrl}/api/project/search?${query}`, { headers: { 'accept-language': 'en-US' } });
      const body = (await response.json()) as { retCode: number; result?: { total: number } };
      times.push(performance.now() - started);
      if (body.retCode !== 0 || !body.result) errors += 1;
      else if (body.result.total === 0) empty += 1;
      else hits += body.result.total;
    } catch {
      errors += 1;
    }
  }
  times.sort((a, b) => a - b);
  return { language, queries: queries.length, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) ?? 0, hits, empty, errors };
}

/** Runs the English and Chinese query sets against `baseUrl` and answers a Markdown table. */
export async function benchSearch(baseUrl: string): Promise<string> {
  const english = buildQueries(ENGLISH_TERMS);
  const chinese = buildQueries(CHINESE_TERMS);
  // Warm-up: JIT, connection pool and PostgreSQL's buffer cache.
  await run(baseUrl, 'warm-up', [...english.slice(0, 20), ...chinese.slice(0, 20)]);
  const rows = [await run(baseUrl, 'English (full-text, stemming, prefixes)', english), await run(baseUrl, 'Chinese (substring, any length; some mixed with Latin)', chinese)];
  const ms = (value: number) => value.toFixed(1);
  return [
    '`GET /api/project/search`, one request at a time, 20 results per page, sorts relevance/newest/stars, pages 1–2; "avg matches" averages the answers\' `total`, an estimate beyond 1,000.',
    '',
    '| queries | count | p50 ms | p95 ms | max ms | avg matches | no match | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.language} | ${row.queries} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.max)} | ${Math.round(row.hits / Math.max(1, row.queries - row.empty - row.errors))} | ${row.empty} | ${row.errors} |`),
  ].join('\n');
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Seeds `projects` projects and `users` users into a fresh database under bench/.work, starts the
 * built server on it (page cache off: search goes through the API, which is never cached, and the
 * list pages are rendered per request), measures search and the list pages and deletes the data.
 * Answers a Markdown section.
 */
export async function benchSearchAtScale(options: { projects: number; users: number; port: number; keep?: boolean; reuse?: boolean }): Promise<string> {
  const dataDir = path.join(root, 'bench', '.work', `search-${options.projects}`);
  const env = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: '0' };
  // What the seed answered, kept beside the database (--keep) for a later run with --reuse.
  const seededFile = path.join(dataDir, 'bench-seeded.json');
  let seeded: { seedSeconds: number; feed: Parameters<typeof benchFeed>[1] };
  if (options.reuse && existsSync(seededFile)) {
    seeded = JSON.parse(readFileSync(seededFile, 'utf8')) as typeof seeded;
    console.log(`[bench] search: reusing the database under ${dataDir}`);
  } else {
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`[bench] search: seeding ${options.users} users and ${options.projects} projects`);
    const seedStart = Date.now();
    const seedRun = spawnSync(process.execPath, ['scripts/seed.ts', '--users', String(options.users), '--projects', String(options.projects)], { cwd: root, stdio: 'inherit', env });
    if (seedRun.status !== 0) throw new Error('search bench: the seed failed');
    const seedSeconds = (Date.now() - seedStart) / 1000;
    // The Following feed of one member with 10,000 follows, on the same database (bench/feed.ts).
    console.log('[bench] feed: 10,000 follows, every project an activity, fanned out');
    const feedSeed = spawnSync(process.execPath, ['bench/feed.ts', 'seed'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env });
    if (feedSeed.status !== 0) throw new Error('search bench: the feed seed failed');
    seeded = { seedSeconds, feed: JSON.parse(feedSeed.stdout.toString().trim().split('\n').at(-1)!) as Parameters<typeof benchFeed>[1] };
    writeFileSync(seededFile, JSON.stringify(seeded));
  }
  const { seedSeconds, feed: feedSeeded } = seeded;
  const base = `http://127.0.0.1:${options.port}`;
  const server = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, NODE_ENV: 'production', PORT: String(options.port), HOST: '127.0.0.1', SITE_URL: base, JOB_WORKERS: '0', PAGE_CACHE: '0', ASTRO_TELEMETRY_DISABLED: '1' },
  });
  try {
    const until = Date.now() + 120_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > until || server.exitCode !== null) throw new Error('search bench: the server did not come up');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.log(`[bench] search over ${options.projects.toLocaleString('en-US')} projects`);
    // The machine's load while measuring: other work on a shared machine moves every figure.
    const loads = [loadavg()[0]!];
    const sampling = setInterval(() => loads.push(loadavg()[0]!), 5000).unref();
    const table = await benchSearch(base);
    console.log(`[bench] list pages over ${options.projects.toLocaleString('en-US')} projects`);
    const lists = await benchLists(base);
    console.log(`[bench] the Following feed over ${options.projects.toLocaleString('en-US')} projects`);
    const feed = await benchFeed(base, feedSeeded);
    clearInterval(sampling);
    const load = `Load average (1 min) of the ${cpus().length}-core machine while measuring: ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}.`;
    const scale = options.projects.toLocaleString('en-US');
    return `## Search over ${scale} projects\n\n${scale} projects and ${options.users.toLocaleString('en-US')} users seeded in ${seedSeconds.toFixed(1)} s into a database of their own; with the feed's follows, activities and feed entries it takes ${(feedSeeded.databaseBytes / 1024 ** 3).toFixed(2)} GiB (\`pg_database_size\`). ${load}\n\n${table}\n\n### List pages over ${scale} projects\n\n${lists}\n\n### The Following feed over ${scale} projects\n\n${feed}`;
  } finally {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    if (options.keep) console.log(`[bench] kept the database under ${dataDir} (--keep)`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args[0]?.startsWith('http')) {
    console.log(await benchSearch(args[0]));
  } else {
    const flag = (name: string, fallback: number) => {
      const index = args.indexOf(`--${name}`);
      return index >= 0 ? Number(args[index + 1]) : fallback;
    };
    if (!args.includes('--no-build')) {
      const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
      if (built.status !== 0) process.exit(1);
    }
    const projects = flag('projects', 100_000);
    console.log(`\n${await benchSearchAtScale({ projects, users: flag('users', Math.max(2, Math.round(projects / 10))), port: flag('port', 4520), keep: args.includes('--keep') || args.includes('--reuse'), reuse: args.includes('--reuse') })}`);
  }
}
