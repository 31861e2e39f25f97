/**
 * Synthetic bulk data for benchmarks and load tests: many users and published projects with
 * mixed English/Chinese titles composed from word lists, tags from the tag tree, stars, likes and
 * comments. Rows go in with multi-row `INSERT ... SELECT FROM unnest(...)` statements inside one
 * transaction, projects in chunks built while PostgreSQL inserts the previous one (its generated
 * search columns are most of the work); ids are reserved from the sequences so rows can be built in
 * memory. Into empty tables, indexes are built once after the load. Covers are a handful of shared
 * generated images, not one per project.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { getDb } from '../db/client.ts';
import { LICENCE_IDS } from '../../lib/licences.ts';
import { newPublicId } from '../lib/ids.ts';
import { loadDemoContent } from './demo-content.ts';
import { coverSvg, MASK_COLORS, storeArtwork } from './images.ts';
import { projectTextColumns } from './project-text.ts';
import { createRng, type Rng } from './random.ts';
import { ensureTagTree } from './tag-tree.ts';

export interface SyntheticOptions {
  users: number;
  projects: number;
  /** Seed of the content choices (default 42); ids are random regardless. */
  seed?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface SyntheticSummary {
  users: number;
  projects: number;
  projectTags: number;
  stars: number;
  likes: number;
  comments: number;
  covers: number;
  /** Milliseconds per phase, and `total`. */
  timings: Record<string, number>;
}

const DAY = 24 * 60 * 60 * 1000;
/** Projects built and inserted at a time. */
const CHUNK = 10_000;
const SHARED_COVERS = 8;

// ---- word lists ----

interface Chip {
  name: string;
  tag: string;
}

const CHIPS: Chip[] = [
  { name: 'ESP32', tag: 'esp32' },
  { name: 'ESP32-S3', tag: 'esp32' },
  { name: 'ESP32-C3', tag: 'esp32' },
  { name: 'ESP32-C6', tag: 'esp32' },
  { name: 'STM32F103', tag: 'stm32' },
  { name: 'STM32G431', tag: 'stm32' },
  { name: 'STM32H743', tag: 'stm32' },
  { name: 'STM32L072', tag: 'stm32' },
  { name: 'RP2040', tag: 'rp2040' },
  { name: 'RP2350', tag: 'rp2040' },
  { name: 'ATmega328P', tag: 'avr' },
  { name: 'ATtiny1616', tag: 'avr' },
  { name: 'CH32V003', tag: 'ch32' },
  { name: 'CH32V307', tag: 'ch32' },
  { name: 'nRF52840', tag: 'ble' },
  { name: 'STM32WLE5', tag: 'lora' },
];

interface Thing {
  en: string;
  zh: string;
  tag: string | null;
}

const THINGS: Thing[] = [
  { en: 'Weather Station', zh: '气象站', tag: 'temperature-humidity' },
  { en: 'Thermostat', zh: '温控器', tag: 'temperature-humidity' },
  { en: 'Smart Plug', zh: '智能插座', tag: 'current-sensing' },
  { en: 'Power Monitor', zh: '功率计', tag: 'current-sensing' },
  { en: 'Macro Keypad', zh: '宏键盘', tag: null },
  { en: 'Motor Driver', zh: '电机驱动板', tag: null },
  { en: 'LED Matrix Clock', zh: 'LED 点阵时钟', tag: 'wifi' },
  { en: 'Buck Converter', zh: '降压模块', tag: 'buck-converter' },
  { en: 'USB-PD Trigger', zh: 'PD 诱骗板', tag: 'usb-pd' },
  { en: 'Battery Charger', zh: '锂电池充电板', tag: 'battery-management' },
  { en: 'Solar Charger', zh: '太阳能充电器', tag: 'solar' },
  { en: 'LoRa Gateway', zh: 'LoRa 网关', tag: 'lora' },
  { en: 'BLE Beacon', zh: '蓝牙信标', tag: 'ble' },
  { en: 'Zigbee Sensor', zh: 'Zigbee 传感器', tag: 'zigbee' },
  { en: 'SDR Front End', zh: 'SDR 射频前端', tag: 'sdr' },
  { en: 'Air Quality Monitor', zh: '空气质量检测仪', tag: 'air-quality' },
  { en: 'IMU Breakout', zh: '姿态传感器模块', tag: 'imu' },
  { en: 'Robot Controller', zh: '机器人控制板', tag: 'imu' },
  { en: 'Headphone Amplifier', zh: '耳机放大器', tag: 'amplifier' },
  { en: 'USB DAC', zh: 'USB 解码器', tag: 'dac' },
  { en: 'Drum Machine', zh: '鼓机', tag: 'synthesizer' },
  { en: 'Microphone Array', zh: '麦克风阵列', tag: 'microphone' },
  { en: 'Oscilloscope', zh: '示波器', tag: 'oscilloscope' },
  { en: 'Logic Analyzer', zh: '逻辑分析仪', tag: 'logic-analyzer' },
  { en: 'Bench Power Supply', zh: '数控电源', tag: 'bench-supply' },
  { en: 'Debug Probe', zh: '调试器', tag: 'debug-probe' },
  { en: 'Electronic Load', zh: '电子负载', tag: 'electronic-load' },
  { en: 'E-Paper Badge', zh: '墨水屏胸牌', tag: null },
];

const ADJ_EN = ['Compact', 'Low-Power', 'Open', 'Tiny', 'Modular', 'Portable', 'Wireless', 'Minimal', 'Pocket', 'Dual-Channel', 'High-Efficiency', 'Low-Noise', 'DIY', 'Smart', 'Rugged', 'Battery-Powered'];
const ADJ_ZH = ['迷你', '低功耗', '开源', '便携式', '模块化', '无线', '简易', '高效率', '低噪声', '双通道', '桌面', '智能', '超小型', '电池供电'];
const BENEFIT_EN = ['designed for hand soldering', 'with a fully documented layout', 'that runs for months on batteries', 'with USB-C and ESD protection', 'tested over several revisions', 'made to be cheap to build', 'with open firmware'];
const BENEFIT_ZH = ['适合手工焊接', '布局有详细说明', '电池可以用好几个月', '带 Type-C 接口和 ESD 保护', '经过多次迭代测试', '成本很低', '固件完全开源'];
const FEATURE_EN = ['USB-C for power and programming', 'ESD protection on every external connector', 'All passives 0603 or larger', 'Deep-sleep current below 20 µA', 'Qwiic / STEMMA QT connector', 'Castellated edges for mounting on a carrier', 'Status LEDs for power and activity', 'Reverse-polarity protection', 'Test points on every rail', 'Fits a standard enclosure', 'Single-sided assembly', 'Works with Arduino, PlatformIO and the vendor SDK'];
const FEATURE_ZH = ['Type-C 接口供电和下载', '所有外部接口都有 ESD 保护', '阻容全部 0603 以上封装', '休眠电流低于 20 µA', '预留 I2C 扩展接口', '邮票孔设计，可以贴在底板上', '电源和状态指示灯', '电源防反接保护', '每一路电源都有测试点', '适配常见的外壳尺寸', '单面贴片，方便生产', '支持 Arduino、PlatformIO 和官方 SDK'];
const INTRO_EN = [
  'I needed a {thing} for my workshop and could not find an open design that I liked, so I drew my own around the {chip}.',
  'This is the third revision of my {thing}. The {chip} replaced an older microcontroller and made the firmware much simpler.',
  'A small {thing} built around the {chip}, designed to be easy to build and easy to modify.',
  'The goal of this project was a {thing} that costs less than a takeaway dinner and still measures well.',
];
const INTRO_ZH = [
  '一直想要一个好用的{thing}，找了一圈没有满意的开源方案，于是自己用 {chip} 画了一块。',
  '这是{thing}的第三个版本，主控换成了 {chip}，固件简单了很多。',
  '一个基于 {chip} 的{thing}，目标是好焊、好改、好用。',
  '这个项目的目标是做一个成本很低、但性能不打折的{thing}。',
];
const BUILD_EN = [
  'Solder the smallest parts first, then the connectors. Check every supply rail before you plug in the microcontroller.',
  'The board is designed for a standard 2-layer process with 1.6 mm FR-4. Flash the firmware over USB, no programmer needed.',
  'A hot-air station makes the QFN easy; everything else is fine with a regular iron. The firmware is in the attachments.',
];
const BUILD_ZH = [
  '先焊小元件，再焊接插件。上电前请先测量各路电源是否正常。',
  '按常规两层板 1.6 mm 工艺打样即可，固件通过 USB 下载，不需要额外的下载器。',
  'QFN 封装建议用热风枪焊接，其余元件用烙铁即可。固件在附件中。',
];
const FIRST_EN = ['Alex', 'Sam', 'Jordan', 'Maria', 'Lukas', 'Emma', 'Noah', 'Olivia', 'Ethan', 'Ava', 'Mika', 'Hugo', 'Nina', 'Omar', 'Ines', 'Felix', 'Zoe', 'Ivan', 'Chloe', 'Daniel', 'Ana', 'Kenji', 'Leah', 'Mateus'];
const LAST_EN = ['Miller', 'Schmidt', 'Rossi', 'Novak', 'Silva', 'Martin', 'Kowalski', 'Dubois', 'Jensen', 'Moreau', 'Tanaka', 'Haddad', 'Costa', 'Becker', 'Clarke', 'Ivanova', 'Nguyen', 'Park', 'Singh', 'Walsh'];
const NICK_ZH_HEAD = ['电子', '硬件', '嵌入式', '单片机', '射频', '电源', '焊台', '创客', 'PCB', '示波器', '烙铁', '开源'];
const NICK_ZH_TAIL = ['小王', '老张', '爱好者', '玩家', '工程师', '达人', '小白', '阿明', '老陈', '少年', '研究员', '小李'];
const SLUG_ZH_HEAD = ['dianzi', 'yingjian', 'qianrushi', 'danpianji', 'shepin', 'dianyuan', 'hantai', 'chuangke', 'pcb', 'shiboqi', 'laotie', 'kaiyuan'];
const SLUG_ZH_TAIL = ['xiaowang', 'laozhang', 'fan', 'player', 'eng', 'pro', 'newbie', 'aming', 'laochen', 'kid', 'lab', 'xiaoli'];
const CITIES_EN = ['Berlin, Germany', 'Austin, TX, USA', 'Lyon, France', 'Kraków, Poland', 'Osaka, Japan', 'Melbourne, Australia', 'São Paulo, Brazil', 'Toronto, Canada', 'Leeds, UK', 'Utrecht, Netherlands'];
const CITIES_ZH = ['广东 深圳', '浙江 杭州', '上海', '北京', '四川 成都', '江苏 南京', '湖北 武汉', '陕西 西安', '福建 厦门', '台湾 新竹'];
const BIO_EN = ['Hardware hobbyist. Mostly sensors and small robots.', 'Firmware engineer learning PCB design.', 'Maker, teacher, occasional RF experimenter.', 'I break things and then design boards to fix them.', ''];
const BIO_ZH = ['业余硬件爱好者，喜欢做小玩意儿。', '嵌入式软件工程师，正在学画板子。', '电子专业学生。', '开源硬件爱好者，欢迎交流。', ''];
const COMMENT_EN = ['Nice work! Which PCB fab did you use?', 'Built one, works great.', 'How much did the parts cost?', 'Could you share the firmware source?', 'The layout is very clean.', 'Is there a 3D-printable case?', 'What is the idle current?', 'Thanks for sharing, starred!'];
const COMMENT_ZH = ['做得不错！请问在哪家打样的？', '已复刻，效果很好。', '元件成本大概多少？', '可以分享一下固件源码吗？', '布局很漂亮。', '有 3D 打印外壳吗？', '待机电流是多少？', '感谢分享，已收藏！'];
const REPLY_EN = ['Thanks! Details are in the README.', 'About 10 USD in parts.', 'Yes, it is in the attachments.', 'Glad it worked for you!'];
const REPLY_ZH = ['谢谢！详细说明在文档里。', '元件大概五六十块钱。', '有的，在附件里。', '复刻成功就好！'];

const fill = (template: string, chip: string, thing: string) => template.replace('{chip}', chip).replace('{thing}', thing);

/** Joins Chinese words, with a space where Chinese meets Latin letters or digits ("电池供电 SDR"). */
function zhJoin(...parts: string[]): string {
  const cjk = /[\u4e00-\u9fff]/;
  const latin = /[A-Za-z0-9]/;
  return parts.reduce((out, part) => {
    const a = out.slice(-1);
    const b = part.slice(0, 1);
    return (cjk.test(a) && latin.test(b)) || (latin.test(a) && cjk.test(b)) ? `${out} ${part}` : out + part;
  }, '');
}

interface ComposedProject {
  title: string;
  summary: string;
  markdown: string;
  tags: string[];
  chip: string;
}

/** Title, summary, Markdown description and tag slugs of one synthetic project. */
function composeProject(rng: Rng, zh: boolean): ComposedProject {
  const chip = rng.pick(CHIPS);
  const thing = rng.pick(THINGS);
  const version = rng.chance(0.25) ? rng.pick([' v2', ' v3', ' Rev B', ' Mk II']) : '';
  let title: string;
  let summary: string;
  const parts: string[] = [];
  if (zh) {
    const adj = rng.pick(ADJ_ZH);
    title = rng.pick([
      `基于 ${chip.name} 的${zhJoin(adj, thing.zh)}${version}`,
      `${zhJoin(adj, thing.zh)}（${chip.name}）${version}`,
      `${chip.name} ${thing.zh}${version}`,
    ]);
    summary = `一个基于 ${chip.name} 的${zhJoin(adj, thing.zh)}，${rng.pick(BENEFIT_ZH)}。`;
    parts.push('## 项目简介', fill(rng.pick(INTRO_ZH), chip.name, thing.zh), '## 功能特点', rng.sample(FEATURE_ZH, rng.int(3, 5)).map((f) => `- ${f}`).join('\n'));
    if (rng.chance(0.4)) parts.push('## 规格参数', `| 参数 | 数值 |\n| --- | --- |\n| 主控 | ${chip.name} |\n| 供电 | ${rng.pick(['5 V USB', '3.7 V 锂电池', '12 V 直流', '2 节 AA 电池'])} |\n| 尺寸 | ${rng.int(20, 120)} × ${rng.int(15, 90)} mm |`);
    parts.push('## 制作说明', rng.pick(BUILD_ZH));
  } else {
    const adj = rng.pick(ADJ_EN);
    title = rng.pick([`${adj} ${chip.name} ${thing.en}${version}`, `${thing.en} with ${chip.name}${version}`, `${adj} ${thing.en} (${chip.name})${version}`]);
    summary = `A ${adj.toLowerCase()} ${thing.en.toLowerCase()} built around the ${chip.name}, ${rng.pick(BENEFIT_EN)}.`;
    parts.push('## Overview', fill(rng.pick(INTRO_EN), chip.name, thing.en.toLowerCase()), '## Features', rng.sample(FEATURE_EN, rng.int(3, 5)).map((f) => `- ${f}`).join('\n'));
    if (rng.chance(0.4)) parts.push('## Specifications', `| Parameter | Value |\n| --- | --- |\n| MCU | ${chip.name} |\n| Supply | ${rng.pick(['5 V USB', '3.7 V Li-ion', '12 V DC', '2 × AA'])} |\n| Size | ${rng.int(20, 120)} × ${rng.int(15, 90)} mm |`);
    parts.push('## Build notes', rng.pick(BUILD_EN));
  }
  const tags = [chip.tag];
  if (thing.tag && thing.tag !== chip.tag) tags.push(thing.tag);
  return { title, summary, markdown: parts.join('\n\n') + '\n', tags, chip: chip.name };
}

// ---- bulk insert helpers ----

type Column = [name: string, pgType: string];

/** `INSERT INTO table (...) SELECT * FROM unnest($1::type[], ...)`, in batches of `batch` rows. */
async function insertUnnest(client: pg.PoolClient, table: string, columns: Column[], data: unknown[][], batch: number): Promise<void> {
  const rows = data[0]?.length ?? 0;
  if (rows === 0) return;
  const sql = `INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')}) SELECT * FROM unnest(${columns
    .map(([, type], i) => `$${i + 1}::${type}[]`)
    .join(', ')})`;
  for (let start = 0; start < rows; start += batch) {
    await client.query(sql, data.map((column) => column.slice(start, start + batch)));
  }
}

/**
 * Before a bulk load into empty tables: drops their indexes that back no constraint and answers
 * the statements that build them again, at once after the load (faster than row by row).
 */
async function dropIndexesWhenEmpty(client: pg.PoolClient, tables: string[]): Promise<string[]> {
  const definitions: string[] = [];
  for (const table of tables) {
    const { rows: [row] } = await client.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`);
    if (!row?.empty) continue;
    const { rows } = await client.query<{ name: string; definition: string }>(
      `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition FROM pg_index
       WHERE indrelid = $1::regclass AND indexrelid NOT IN (SELECT conindid FROM pg_constraint WHERE conrelid = $1::regclass)`,
      [table],
    );
    for (const index of rows) {
      await client.query(`DROP INDEX ${index.name}`);
      definitions.push(index.definition);
    }
  }
  return definitions;
}

async function reserveIds(client: pg.PoolClient | pg.Pool, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await client.query<{ id: number }>(
    `SELECT nextval(pg_get_serial_sequence($1, 'id'))::int AS id FROM generate_series(1, $2)`,
    [table, count],
  );
  return rows.map((row) => row.id);
}

/** A count with a long tail: mostly small, sometimes large. */
function tail(rng: Rng, mean: number, max: number): number {
  return Math.min(max, Math.floor(-Math.log(1 - rng.next()) * mean));
}

/** Inserts `users` synthetic users and `projects` published projects (plus reactions). */
export async function seedSynthetic(options: SyntheticOptions): Promise<SyntheticSummary> {
  const log = options.log ?? (() => undefined);
  const rng = createRng(options.seed ?? 42);
  const timings: Record<string, number> = {};
  const started = Date.now();
  let mark = started;
  const phase = (name: string) => {
    const now = Date.now();
    timings[name] = now - mark;
    mark = now;
    log(`${name}: ${timings[name]} ms`);
  };
  const now = Date.now();
  const db = getDb();

  // shared covers, rendered once
  const coverTitles = ['Open Hardware', 'Sensor Node', 'Power Stage', 'RF Board', 'Audio Board', 'Test Gear', 'Dev Board', 'Controller'];
  const coverChips = ['ESP32-S3', 'STM32G4', 'TPS54331', 'SX1262', 'PCM5102A', 'RP2040', 'CH32V307', 'NRF52840'];
  const rendered = await storeArtwork(
    Array.from({ length: SHARED_COVERS }, (_, i) => ({
      key: `synthetic/covers/cover-${i + 1}.webp`,
      width: 800,
      height: 600,
      svg: () => coverSvg({ title: coverTitles[i]!, chip: coverChips[i]!, mask: MASK_COLORS[i % MASK_COLORS.length]!, seed: 1000 + i }),
    })),
  );
  const coverKeys = rendered.map((cover) => cover.key);
  const coverUrls = rendered.map((cover) => cover.url);
  phase('covers');

  const client = await db.$client.connect();
  const counts = { users: 0, projects: 0, projectTags: 0, stars: 0, likes: 0, comments: 0 };
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL synchronous_commit TO off');
    await client.query("SET LOCAL maintenance_work_mem TO '256MB'");
    // the demo's tag tree, when the database has no tags yet
    const tagBySlug = await ensureTagTree(drizzle(client), loadDemoContent().tags, { onlyIfEmpty: true });
    const allTags = [...tagBySlug.entries()];
    const known = await client.query<{ storage_key: string }>('SELECT storage_key FROM uploads WHERE storage_key = ANY($1)', [coverKeys]);
    const missing = rendered.filter((cover) => !known.rows.some((row) => row.storage_key === cover.key));
    if (missing.length) {
      await insertUnnest(
        client,
        'uploads',
        [['id', 'text'], ['purpose', 'text'], ['storage_key', 'text'], ['name', 'text'], ['mime', 'text'], ['size', 'bigint'], ['width', 'int'], ['height', 'int']],
        [missing.map(() => newPublicId()), missing.map(() => 'cover'), missing.map((c) => c.key), missing.map((c) => c.key.split('/').pop()), missing.map(() => 'image/webp'), missing.map((c) => c.size), missing.map((c) => c.width), missing.map((c) => c.height)],
        1000,
      );
    }

    // users
    const userIds = await reserveIds(client, 'users', options.users);
    const run = newPublicId(4);
    const u = { id: userIds, url: [] as string[], nickname: [] as string[], bio: [] as string[], location: [] as string[], website: [] as string[], created: [] as Date[] };
    for (let i = 0; i < options.users; i++) {
      const zh = rng.chance(0.5);
      const suffix = `${run}${i.toString(36)}`;
      let slug: string;
      if (zh) {
        const head = rng.int(0, NICK_ZH_HEAD.length - 1);
        const tailIndex = rng.int(0, NICK_ZH_TAIL.length - 1);
        u.nickname.push(`${NICK_ZH_HEAD[head]}${NICK_ZH_TAIL[tailIndex]}${rng.chance(0.4) ? rng.int(1, 999) : ''}`);
        slug = `${SLUG_ZH_HEAD[head]}-${SLUG_ZH_TAIL[tailIndex]}-${suffix}`;
        u.bio.push(rng.pick(BIO_ZH));
        u.location.push(rng.chance(0.7) ? rng.pick(CITIES_ZH) : '');
      } else {
        const first = rng.pick(FIRST_EN);
        const last = rng.pick(LAST_EN);
        u.nickname.push(`${first} ${last}`);
        slug = `${first}-${last}-${suffix}`.toLowerCase();
        u.bio.push(rng.pick(BIO_EN));
        u.location.push(rng.chance(0.7) ? rng.pick(CITIES_EN) : '');
      }
      u.url.push(slug);
      u.website.push(rng.chance(0.25) ? `https://${slug}.example.com` : '');
      u.created.push(new Date(now - rng.int(400, 1100) * DAY - rng.int(0, DAY)));
    }
    await insertUnnest(
      client,
      'users',
      [['id', 'int'], ['custom_url', 'text'], ['nickname', 'text'], ['bio', 'text'], ['location', 'text'], ['website', 'text'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz']],
      [u.id, u.url, u.nickname, u.bio, u.location, u.website, u.created, u.created],
      5000,
    );
    counts.users = options.users;
    phase('users');

    // Projects and their reactions, in chunks: while PostgreSQL inserts one chunk (each table in
    // one statement, queued on this connection), the next is built here, yielding now and then
    // so the connection can send what is queued. A chunk's tables are inserted in order (tags,
    // stars, likes and comments point at its projects).
    const projectIds = await reserveIds(client, 'projects', options.projects);
    const dropped = await dropIndexesWhenEmpty(client, ['projects', 'project_tags', 'stars', 'likes', 'comments']);
    const pickUsers = (count: number, exclude: number): number[] => {
      const picked = new Set<number>();
      const limit = Math.min(count, userIds.length - 1);
      while (picked.size < limit) {
        const id = userIds[rng.int(0, userIds.length - 1)]!;
        if (id !== exclude) picked.add(id);
      }
      return [...picked];
    };
    type CommentRow = { project: number; author: number; parent: number | null; replyTo: number | null; body: string; replies: number; at: Date };
    const inserts: Promise<unknown>[] = [];
    let generating = 0;
    for (let from = 0; from < options.projects; from += CHUNK) {
      // At most one chunk waits while the next is built: PostgreSQL is the slower side, and the
      // memory of waiting chunks adds up.
      if (inserts.length >= 2) await inserts[inserts.length - 2];
      let segment = Date.now();
      const to = Math.min(options.projects, from + CHUNK);
      const p = {
        id: projectIds.slice(from, to), publicId: [] as string[], owner: [] as number[], title: [] as string[], summary: [] as string[], cover: [] as string[],
        md: [] as string[], html: [] as string[], licence: [] as string[], views: [] as number[], stars: [] as number[], likes: [] as number[],
        comments: [] as number[], created: [] as Date[], published: [] as Date[], updated: [] as Date[], search: [] as string[],
      };
      const pt = { project: [] as number[], tag: [] as number[] };
      const st = { user: [] as number[], project: [] as number[], at: [] as Date[] };
      const lk = { user: [] as number[], project: [] as number[], at: [] as Date[] };
      const tops: CommentRow[] = [];
      const replies: { row: CommentRow; topIndex: number }[] = [];
      for (let i = from; i < to; i++) {
        if ((i - from) % 500 === 499) {
          generating += Date.now() - segment;
          await new Promise((resolve) => setImmediate(resolve));
          segment = Date.now();
        }
        const zh = rng.chance(0.5);
        const composed = composeProject(rng, zh);
        // a few prolific authors: owners skewed towards the start of the user list
        const owner = userIds[Math.floor(Math.pow(rng.next(), 2) * userIds.length)]!;
        const published = now - Math.floor(Math.pow(rng.next(), 1.3) * 365 * DAY);
        const projectId = projectIds[i]!;
        const tagIds = new Set<number>();
        const tagNames: string[] = [];
        for (const slug of composed.tags) {
          const tag = tagBySlug.get(slug) ?? rng.pick(allTags)[1];
          if (tagIds.has(tag.id)) continue;
          tagIds.add(tag.id);
          tagNames.push(tag.nameEn, tag.nameZh);
        }
        if (tagIds.size < 3 && rng.chance(0.2)) {
          const extra = rng.pick(allTags)[1];
          if (!tagIds.has(extra.id)) {
            tagIds.add(extra.id);
            tagNames.push(extra.nameEn, extra.nameZh);
          }
        }
        for (const tagId of tagIds) {
          pt.project.push(projectId);
          pt.tag.push(tagId);
        }
        const starUsers = pickUsers(tail(rng, 3, 60), owner);
        const likeUsers = pickUsers(tail(rng, 5, 80), owner);
        const since = (skew: number) => new Date(published + (now - published) * Math.pow(rng.next(), skew));
        for (const user of starUsers) {
          st.user.push(user);
          st.project.push(projectId);
          st.at.push(since(1.5));
        }
        for (const user of likeUsers) {
          lk.user.push(user);
          lk.project.push(projectId);
          lk.at.push(since(1.5));
        }
        let commentTotal = 0;
        const topCount = tail(rng, 1, 12);
        for (let c = 0; c < topCount; c++) {
          const author = userIds[rng.int(0, userIds.length - 1)]!;
          const lang = rng.chance(0.9) ? zh : !zh;
          const top: CommentRow = { project: projectId, author, parent: null, replyTo: null, body: rng.pick(lang ? COMMENT_ZH : COMMENT_EN), replies: 0, at: since(1.8) };
          tops.push(top);
          commentTotal++;
          if (rng.chance(0.35) && author !== owner) {
            const at = new Date(top.at.getTime() + (now - top.at.getTime()) * rng.next() * 0.5);
            replies.push({ row: { project: projectId, author: owner, parent: null, replyTo: author, body: rng.pick(lang ? REPLY_ZH : REPLY_EN), replies: 0, at }, topIndex: tops.length - 1 });
            top.replies++;
            commentTotal++;
          }
        }
        const text = projectTextColumns({ title: composed.title, summary: composed.summary, markdown: composed.markdown, tagNames });
        p.publicId.push(newPublicId());
        p.owner.push(owner);
        p.title.push(composed.title);
        p.summary.push(composed.summary);
        p.cover.push(coverUrls[rng.int(0, coverUrls.length - 1)]!);
        p.md.push(text.descriptionMd);
        p.html.push(text.descriptionHtml);
        p.licence.push(rng.pick(LICENCE_IDS));
        p.views.push(rng.int(5, 200) + starUsers.length * rng.int(20, 60) + likeUsers.length * rng.int(5, 20) + commentTotal * 15);
        p.stars.push(starUsers.length);
        p.likes.push(likeUsers.length);
        p.comments.push(commentTotal);
        p.created.push(new Date(published - rng.int(0, 30) * DAY - rng.int(0, DAY)));
        p.published.push(new Date(published));
        p.updated.push(rng.chance(0.3) ? since(2) : new Date(published));
        p.search.push(text.searchText);
      }
      generating += Date.now() - segment;
      // Reserved on another connection: this one is busy with the inserts queued before.
      const topIds = await reserveIds(db.$client, 'comments', tops.length);
      const replyIds = await reserveIds(db.$client, 'comments', replies.length);
      const all = [
        ...tops.map((row, k) => ({ id: topIds[k]!, ...row })),
        ...replies.map(({ row, topIndex }, k) => ({ id: replyIds[k]!, ...row, parent: topIds[topIndex]! })),
      ];
      const projectColumns: Column[] = [
        ['id', 'int'], ['public_id', 'text'], ['owner_id', 'int'], ['title', 'text'], ['summary', 'text'], ['cover', 'text'],
        ['description_md', 'text'], ['description_html', 'text'], ['licence', 'text'], ['view_count', 'int'], ['star_count', 'int'],
        ['like_count', 'int'], ['comment_count', 'int'], ['created_at', 'timestamptz'], ['published_at', 'timestamptz'],
        ['updated_at', 'timestamptz'], ['search_text', 'text'],
      ];
      const commentColumns: Column[] = [
        ['id', 'int'], ['project_id', 'int'], ['author_id', 'int'], ['parent_id', 'int'], ['reply_to_user_id', 'int'], ['body', 'text'], ['reply_count', 'int'], ['created_at', 'timestamptz'],
      ];
      const chunk = Promise.all([
        insertUnnest(client, 'projects', projectColumns, [p.id, p.publicId, p.owner, p.title, p.summary, p.cover, p.md, p.html, p.licence, p.views, p.stars, p.likes, p.comments, p.created, p.published, p.updated, p.search], CHUNK),
        insertUnnest(client, 'project_tags', [['project_id', 'int'], ['tag_id', 'int']], [pt.project, pt.tag], pt.project.length),
        insertUnnest(client, 'stars', [['user_id', 'int'], ['project_id', 'int'], ['created_at', 'timestamptz']], [st.user, st.project, st.at], st.user.length),
        insertUnnest(client, 'likes', [['user_id', 'int'], ['project_id', 'int'], ['created_at', 'timestamptz']], [lk.user, lk.project, lk.at], lk.user.length),
        insertUnnest(
          client,
          'comments',
          commentColumns,
          [all.map((c) => c.id), all.map((c) => c.project), all.map((c) => c.author), all.map((c) => c.parent), all.map((c) => c.replyTo), all.map((c) => c.body), all.map((c) => c.replies), all.map((c) => c.at)],
          all.length,
        ),
      ]);
      // Its failure is thrown where it is awaited, never left unhandled.
      chunk.catch(() => undefined);
      inserts.push(chunk);
      counts.projects = to;
      counts.projectTags += pt.project.length;
      counts.stars += st.user.length;
      counts.likes += lk.user.length;
      counts.comments += all.length;
    }
    timings.generate = generating;
    log(`generate: ${generating} ms (while inserting)`);
    await Promise.all(inserts);
    phase('insert');
    for (const definition of dropped) await client.query(definition);
    phase('indexes');

    await client.query('COMMIT');
    phase('commit');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  // fresh statistics for the planner after a bulk load
  await db.$client.query('ANALYZE users, projects, project_tags, stars, likes, comments');
  phase('analyze');
  timings.total = Date.now() - started;
  return { ...counts, covers: SHARED_COVERS, timings };
}
