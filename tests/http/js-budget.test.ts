import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { attachments, banners, boards, bomLines, collections, designSources, edaDocuments, memberCollectionProjects, memberCollections, stars, videos } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { submitComment } from '../../src/server/services/community/index.ts';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';

/**
 * JavaScript budgets, from the build output: what each page makes the browser download, gzipped.
 *
 * A page "loads" every script it names — `<script src>`, `<link rel="modulepreload">`, and each
 * island's `component-url` and `renderer-url`, whatever its `client:` directive (an island hydrated
 * on `idle` or `visible` still loads in an ordinary visit, just later) — with everything those
 * import statically (`import … from "./x.js"`, transitively), plus the page's inline scripts.
 * Left out: chunks reached only through a dynamic `import()`, which a page fetches when the
 * visitor does something (opens the cropper, plays a video with captions, …), never at start.
 *
 * Sizes are gzip at level 9, as the server's `.gz` copies are made (`src/integrations/precompress.mjs`).
 */

const KB = 1024;
/** A page without islands ships no framework: its own small scripts only. */
const NO_ISLANDS = 10 * KB;
/**
 * The project page (the aim: 90 KB). Its islands — star and like, owner actions, comments —
 * hydrate on interaction, so a reader loads only the page's own small scripts. A signed-in member
 * also loads the header menu at once, with React (≈ 67 KB) and i18next (≈ 18 KB), because its
 * unread count stays live while the page is open.
 */
const PROJECT_PAGE = { reader: NO_ISLANDS, member: 100 * KB };

const app = useApp();
const client = path.resolve('dist/client');

/** Static imports and re-exports of a minified chunk; `import(` (dynamic) never matches. */
const STATIC_IMPORT = /(?<![\w$.])(?:import|export)\s*(?:[\w$\s{},*]*?\bfrom\s*)?["']([^"']+)["']/g;

const gzipped = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipped.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(file), { level: 9 }).length;
    gzipped.set(file, size);
  }
  return size;
}

/** `url` (a `/_astro/…` address) and everything it imports statically, as site paths. */
function staticClosure(url: string, seen: Set<string>): void {
  if (seen.has(url)) return;
  const file = path.join(client, url);
  expect(existsSync(file), `${url} is in dist/client`).toBe(true);
  seen.add(url);
  const code = readFileSync(file, 'utf8');
  for (const [, specifier] of code.matchAll(STATIC_IMPORT)) {
    staticClosure(new URL(specifier!, `http://site${url}`).pathname, seen);
  }
}

interface PageScripts {
  total: number;
  /** Each file with its gzip size, largest first (shown when a budget is exceeded). */
  files: Array<[string, number]>;
  islands: number;
  /** Islands hydrated on interaction, whose code a reading visit never loads. */
  deferred: number;
}

async function pageScripts(pathname: string, token?: string, status = 200): Promise<PageScripts> {
  const response = await app.request(pathname, { token });
  expect(response.status, pathname).toBe(status);
  const html = response.body;
  const entries = new Set<string>();
  let inline = 0;
  let deferred = 0;
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const type = /\btype="([^"]*)"/.exec(attributes!)?.[1];
    if (type && type !== 'module' && type !== 'text/javascript') continue; // JSON-LD, data
    const src = /\bsrc="([^"]*)"/.exec(attributes!)?.[1];
    if (src) entries.add(src);
    else if (body!.trim()) inline += gzipSync(body!, { level: 9 }).length;
  }
  for (const [, url] of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) entries.add(url!);
  for (const [island] of html.matchAll(/<astro-island\b[^>]*>/g)) {
    // `client:interaction` fetches an island's code when the visitor starts to use it, like a
    // dynamic import: a visit that only reads never loads it (its `ssr` HTML is the whole content).
    if (/\bclient="interaction"/.test(island!)) {
      deferred += 1;
      continue;
    }
    for (const [, url] of island!.matchAll(/\b(?:component-url|renderer-url)="([^"]+)"/g)) entries.add(url!);
  }
  for (const url of entries) expect(url, `${pathname} loads scripts from this site only`).toMatch(/^\/_astro\//);
  const seen = new Set<string>();
  for (const url of entries) staticClosure(url, seen);
  const files: Array<[string, number]> = [...seen].map((url) => [url, gzipSize(path.join(client, url))]);
  if (inline) files.push(['(inline scripts)', inline]);
  files.sort((a, b) => b[1] - a[1]);
  return { total: files.reduce((sum, [, size]) => sum + size, 0), files, islands: html.split('<astro-island').length - 1, deferred };
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const report = (scripts: PageScripts) => scripts.files.map(([file, size]) => `${kb(size)} ${file}`).join('\n');

let owner: Awaited<ReturnType<typeof createUser>>;
let member: Awaited<ReturnType<typeof createUser>>;
let projectId = '';
let videoId = '';

beforeAll(async () => {
  owner = await createUser({ nickname: 'Budget Owner' });
  member = await createUser({ nickname: 'Budget Member' });
  const project = await createProject(owner.user.id, { title: 'Budget board' });
  projectId = project.publicId;
  // Comments, and an unread message for the owner (the unread badges render).
  await submitComment(member.user.id, projectId, 'Which regulator did you use?');
  // A rendered board with a BOM: /eda shows the board viewer and the BOM table.
  const db = getDb();
  const bomId = newPublicId();
  await db.insert(attachments).values({ id: bomId, projectId: project.id, name: 'bom.csv', mime: 'text/csv', size: 100, storageKey: `attachments/${bomId}`, kind: 'bom' });
  await db.insert(boards).values({
    projectId: project.id,
    sources: ['x'],
    name: 'main',
    status: 'ready',
    tool: 'kicad',
    widthMm: 20,
    heightMm: 10,
    layerCount: 2,
    viewBoxMm: [0, 0, 20, 10],
    layers: [{ type: 'copper', side: 'top', filename: 'F_Cu.gbr', key: 'boards/x/top-copper.svg' }],
    topKey: 'boards/x/top.svg',
    bottomKey: 'boards/x/bottom.svg',
    previewKey: 'boards/x/preview.webp',
    // Its 3D model: /eda has a 3D tab, whose viewer and three.js come only when it is opened.
    modelKey: 'sources/x/board.glb',
    modelRawBytes: 1_400_000,
    modelBytes: 140_000,
  });
  await db.insert(edaDocuments).values({ projectId: project.id, status: 'ready', bomAttachmentId: bomId, bomColumns: ['designators', 'quantity', 'value'] });
  await db.insert(bomLines).values({ projectId: project.id, lineNo: 1, designators: ['R1'], quantity: 1, value: '10k' });
  // Its KiCad design, read: /eda has the board and schematic tabs, the schematic's viewer fetched only when opened.
  const kicadId = newPublicId();
  await db.insert(attachments).values({ id: kicadId, projectId: project.id, name: 'budget.zip', mime: 'application/zip', size: 100, storageKey: `attachments/${kicadId}`, kind: 'kicad' });
  await db.insert(designSources).values({
    projectId: project.id,
    sources: [kicadId],
    name: 'budget',
    status: 'ready',
    sheets: [{ name: 'budget', page: 1, path: '/', key: 'sources/x/sheet-1.svg', widthMm: 297, heightMm: 210 }],
    symbols: [{ ref: 'R1', value: '10k', footprint: 'R_0402', sheet: 1, xMm: 100, yMm: 80, dnp: false }],
    erc: { errors: 0, warnings: 1, byType: { pin_not_connected: 1 }, items: [{ type: 'pin_not_connected', severity: 'warning', description: 'Pin not connected', xMm: 100, yMm: 80, sheet: 1, refs: ['R1'] }] },
  });
  await db.insert(collections).values({ name: 'budget-kits', titleEn: 'Budget kits', titleZh: '套件' });
  // A member's public collection: guests read it without any island, its owner gets the tools.
  const [picks] = await db.insert(memberCollections).values({ ownerId: owner.user.id, slug: 'budget-picks', title: 'Budget picks' }).returning();
  await db.insert(memberCollectionProjects).values({ collectionId: picks!.id, projectId: project.id, position: 0 });
  // The home page's carousel, and a starred project (the owner's stars tab has unstar buttons).
  await db.insert(banners).values([
    { image: '/banners/one.webp', link: `/d-${projectId}`, titleEn: 'One', titleZh: '一', sort: 1 },
    { image: '/banners/two.webp', link: '/newest', titleEn: 'Two', titleZh: '二', sort: 2 },
  ]);
  await db.insert(stars).values({ userId: owner.user.id, projectId: project.id });
  videoId = newPublicId();
  await db
    .insert(videos)
    .values({ id: videoId, ownerId: owner.user.id, projectId: project.id, title: 'Budget video', storageKey: `videos/${videoId}.mp4`, mime: 'video/mp4', size: 1000, status: 'ready' });
});

describe('every script a page loads resolves in the build', () => {
  it('finds every static import of every chunk (the pattern misses none)', () => {
    // Scalar's standalone bundle (`/api/docs`) is a classic script, not a module: it imports nothing,
    // and its `from"` are in the code samples it shows.
    for (const name of readdirSync(path.join(client, '_astro')).filter((file) => file.endsWith('.js') && !file.startsWith('standalone.'))) {
      const code = readFileSync(path.join(client, '_astro', name), 'utf8');
      const found = [...code.matchAll(STATIC_IMPORT)].length;
      // every `from"./…"` (a chunk naming another chunk) belongs to a static import or re-export the
      // pattern found; text such as three.js's warning `colors from "srgb-linear"` names no chunk
      const froms = [...code.matchAll(/\bfrom\s*["'](?:\.{1,2}\/|\/)/g)].length;
      expect(found, name).toBeGreaterThanOrEqual(froms);
    }
  });
});

describe('pages without islands', () => {
  it(`ship at most ${kb(NO_ISLANDS)} of JavaScript, no framework`, async () => {
    const user = owner.user.customUrl;
    const guestPages = [
      '/newest',
      '/m/newest',
      '/search?q=board',
      '/recommend',
      '/donation-list',
      '/collection/budget-kits',
      `/user/${user}`,
      `/m/user/${user}`,
      `/user/${user}/stars`,
      `/user/${user}/collections`,
      `/user/${user}/collections/budget-picks`,
      `/m/user/${user}/collections/budget-picks`,
      `/user/${user}/makes`,
      `/m/user/${user}/makes`,
      `/user/${user}/video`,
      `/user/${user}/profile`,
      `/user/${user}/message`,
      '/preview?id=some-draft',
      '/sso/login',
      '/sso/register',
    ];
    const notFound = ['/d-doesnotexist', '/m/no/such/page'];
    for (const page of [...guestPages, ...notFound]) {
      const scripts = await pageScripts(page, undefined, notFound.includes(page) ? 404 : 200);
      expect(scripts.islands, `${page} has no island`).toBe(0);
      expect(scripts.total, `${page}: ${kb(scripts.total)}\n${report(scripts)}`).toBeLessThanOrEqual(NO_ISLANDS);
    }
  });
});

type Viewer = 'guest' | 'member' | 'owner';

describe('pages with islands, and the home page’s carousel', () => {
  /**
   * Each page a few KB above what it needs today, so that growth fails here and is a decision:
   * raise the number in the same change, and say why. What they load besides React and Astro's
   * island script (≈ 70 KB) and i18next with react-i18next (≈ 17 KB): a signed-in member's header
   * menu (≈ 5 KB with the stores and the API client it shares with other islands), the home carousel (Swiper, ≈ 27 KB), the project form
   * (Markdown preview, uploads, tags: ≈ 62 KB; the cropper comes with a click), the video player
   * (vidstack, ≈ 94 KB).
   */
  const budgets = (): Array<{ page: string; viewer: Viewer; budget: number }> => {
    const user = owner.user.customUrl;
    return [
      ...(['guest', 'member', 'owner'] as const).flatMap((viewer) => [
        { page: `/d-${projectId}`, viewer, budget: viewer === 'guest' ? PROJECT_PAGE.reader : PROJECT_PAGE.member },
        { page: `/m/d-${projectId}`, viewer, budget: viewer === 'guest' ? PROJECT_PAGE.reader : PROJECT_PAGE.member },
        // The makes tab: its "I built this" form comes with a touch, like the project page's islands.
        { page: `/d-${projectId}/makes`, viewer, budget: viewer === 'guest' ? PROJECT_PAGE.reader : PROJECT_PAGE.member },
        { page: `/m/d-${projectId}/makes`, viewer, budget: viewer === 'guest' ? PROJECT_PAGE.reader : PROJECT_PAGE.member },
      ]),
      { page: '/', viewer: 'guest', budget: 30 * KB },
      { page: '/m', viewer: 'guest', budget: 30 * KB },
      { page: '/', viewer: 'member', budget: 126 * KB },
      { page: '/m', viewer: 'member', budget: 126 * KB },
      { page: '/newest', viewer: 'member', budget: 99 * KB },
      // The board viewer and BOM table, and for a KiCad design the board and schematic tabs with the sheets as pictures
      // (≈ 4 KB with Vite's helper for the chunk they fetch): the schematic's viewer itself comes when its tab is opened.
      // The BOM table's "order the parts" block (Digi-Key's cart form for N boards, the Mouser and LCSC uploads) adds ≈ 0.6 KB
      // (table 1.7 → 2.1 KB, its store 1.0 → 1.2 KB): the form's fields follow the number of boards, so they are the island's; the budget holds.
      // The board kept in view beside the BOM list (`BomBoard`, its marks the board viewer's `PartMarkers`, now a chunk the two
      // islands share) adds ≈ 0.8 KB (103.7 → 104.5 KB): the marks follow the line in hand, so they are the island's.
      { page: `/eda/${projectId}`, viewer: 'guest', budget: 105 * KB },
      { page: `/eda/${projectId}?sheet=1&ref=R1`, viewer: 'guest', budget: 105 * KB },
      { page: `/video/player?id=${videoId}`, viewer: 'guest', budget: 188 * KB },
      // The Markdown editor's preview and pictures are a chunk shared with the build-log editor (`MarkdownEditor`), ≈ 0.1 KB of wrapper more;
      // the cover goes through the picture steps every picture field shares (`image-pick`, a 0.5 KB chunk of its own), ≈ 0.3 KB more than its own copy of them.
      { page: '/create/project', viewer: 'owner', budget: 162.5 * KB },
      { page: `/user/${user}/stars`, viewer: 'owner', budget: 101 * KB },
      // The owner's collection tools (≈ 2 KB besides the member's React, i18next and API client).
      { page: `/user/${user}/collections/budget-picks`, viewer: 'owner', budget: 104 * KB },
      { page: `/user/${user}/video`, viewer: 'owner', budget: 122 * KB },
      { page: `/user/${user}/draftbox`, viewer: 'owner', budget: 102 * KB },
      // The avatar's pick, crop and upload is the store every picture field shares (`image-pick`), ≈ 0.5 KB more.
      { page: `/user/${user}/profile`, viewer: 'owner', budget: 106 * KB },
      { page: `/user/${user}/message`, viewer: 'owner', budget: 103 * KB },
      { page: `/m/user/${user}/message`, viewer: 'owner', budget: 103 * KB },
    ];
  };

  it('the project page keeps its islands for the visitor who uses them', async () => {
    for (const page of [`/d-${projectId}`, `/m/d-${projectId}`]) {
      const reader = await pageScripts(page);
      // star and like, and the comments: in the page, their code fetched on interaction
      expect(reader.deferred, page).toBeGreaterThanOrEqual(2);
      expect(reader.islands, page).toBe(reader.deferred);
      const asOwner = await pageScripts(page, owner.token);
      expect(asOwner.deferred, `${page} for its owner (edit and delete too)`).toBeGreaterThanOrEqual(3);
    }
  });

  it('leave the schematic viewer out of the electronics page until its tab is opened, even when the address opens it', async () => {
    for (const page of [`/eda/${projectId}`, `/m/eda/${projectId}`, `/eda/${projectId}?sheet=1&ref=R1`]) {
      const scripts = await pageScripts(page);
      expect(scripts.files.map(([file]) => file).filter((file) => /EdaViews/.test(file)), `${page} has the tabs`).toHaveLength(1);
      expect(scripts.files.map(([file]) => file).filter((file) => /SchematicViewer/.test(file)), page).toEqual([]);
    }
    // …which exists, as a chunk of its own that the tabs fetch
    expect(readdirSync(path.join(client, '_astro')).some((file) => /^SchematicViewer\..*\.js$/.test(file))).toBe(true);
  });

  it('leave the 3D viewer and three.js out of the electronics page until its tab is opened, even when the address opens it', async () => {
    for (const page of [`/eda/${projectId}`, `/m/eda/${projectId}`, `/eda/${projectId}?view=3d`, `/m/eda/${projectId}?view=3d`]) {
      const response = await app.request(page);
      expect(response.body, `${page} has the 3D tab`).toContain('id="eda-tab-model"');
      const scripts = await pageScripts(page);
      expect(scripts.files.map(([file]) => file).filter((file) => /ModelViewer|three/i.test(file)), page).toEqual([]);
      // Whatever the chunks are named: no code the page loads at start holds three.js's renderer.
      for (const [file] of scripts.files) if (file.startsWith('/_astro/')) expect(readFileSync(path.join(client, file), 'utf8'), `${page}: ${file}`).not.toContain('WebGLRenderer');
    }
    // …which exists, as a chunk of its own that the tabs fetch
    expect(readdirSync(path.join(client, '_astro')).some((file) => /^ModelViewer\..*\.js$/.test(file))).toBe(true);
  });

  it('stay within their budgets', async () => {
    const tokens: Record<Viewer, string | undefined> = { guest: undefined, member: member.token, owner: owner.token };
    const over: string[] = [];
    for (const { page, viewer, budget } of budgets()) {
      const scripts = await pageScripts(page, tokens[viewer]);
      if (scripts.total > budget) over.push(`${page} as ${viewer}: ${kb(scripts.total)} > ${kb(budget)}\n${report(scripts)}`);
    }
    expect(over).toEqual([]);
  });
});
