/**
 * Search latency for `npm run bench`: about 200 English and 200 Chinese queries (single words,
 * phrases, part numbers, mixed Chinese + Latin, different sorts and pages, some without hits)
 * against `GET /api/project/search`, one at a time after a warm-up. Answers a Markdown table
 * with p50/p95 per language. Also runnable alone: `node bench/search.ts http://127.0.0.1:4402`.
 */

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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
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
  const rows = [await run(baseUrl, 'English (full-text, stemming, prefixes)', english), await run(baseUrl, 'Chinese (trigram substring; some mixed with Latin)', chinese)];
  const ms = (value: number) => value.toFixed(1);
  return [
    '`GET /api/project/search`, one request at a time, 20 results per page, sorts relevance/newest/stars, pages 1–2.',
    '',
    '| queries | count | p50 ms | p95 ms | max ms | avg matches | no match | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.language} | ${row.queries} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.max)} | ${Math.round(row.hits / Math.max(1, row.queries - row.empty - row.errors))} | ${row.empty} | ${row.errors} |`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchSearch(process.argv[2] ?? 'http://127.0.0.1:4321'));
}
