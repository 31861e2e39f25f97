import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/app.ts';
import { BOARD_FIXTURES, loadBoard, zipBoard, zipEntryNames } from '../helpers/board-fixtures.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { MAX_EXPORT_BOARDS } from '../../src/lib/contract/eda.ts';
import type { EdaDetail } from '../../src/lib/contract/schemas/eda.ts';

/**
 * The electronics API and downloads over HTTP, as an app or a script uses them: upload a Gerber
 * zip and a BOM with a Bearer token, publish, and read the board the queue renders.
 */
const app = useApp();
let maker: Awaited<ReturnType<typeof createUser>>;
let projectId = '';

async function upload(name: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.set('purpose', 'attachment');
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${app.origin()}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${maker.token}` } });
  const body = (await response.json()) as { retCode: number; result: { id: string } };
  expect(body.retCode).toBe(0);
  return body.result.id;
}

beforeAll(async () => {
  maker = await createUser({ nickname: 'Board Maker' });
  await createTag('adapters', 'Adapters', '转接板');
  const ids = [
    await upload('adapter.zip', Buffer.from(await zipBoard('kicad-rrf', 'fab', (name) => /F_Cu|B_Cu|Edge_Cuts|F_Mask|PTH\.drl/.test(name)))),
    await upload('1-click-bom.tsv', readFileSync(path.join(BOARD_FIXTURES, 'bom/rrf-1-click-bom.tsv'))),
    // a placement file with its header and no parts: the page says why no part is on the board
    await upload('adapter-pos.csv', Buffer.from('Designator,Mid X,Mid Y,Rotation,Layer\n')),
  ];
  const started = Date.now();
  const saved = await app.request('/api/release/saveProject', {
    method: 'POST',
    headers: { authorization: `Bearer ${maker.token}` },
    body: { title: 'Pi adapter', summary: 'Connects a Pi', description: 'An adapter.', tags: ['adapters'], licence: 'CC-BY-4.0', attachments: ids, publish: true },
  });
  expect(saved.json()).toMatchObject({ retCode: 0, result: { status: 'published' } });
  // publishing renders nothing: it answers at once
  expect(Date.now() - started).toBeLessThan(3_000);
  projectId = saved.json<{ result: { id: string } }>().result.id;
});

afterAll(() => stopJobWorkers());

async function edaDetail(token?: string): Promise<EdaDetail> {
  const response = await app.request(`/api/eda/detail?id=${projectId}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(response.status).toBe(200);
  return response.json<{ result: EdaDetail }>().result;
}

describe('eda/detail', () => {
  it('shows the owner a queued board, then everyone the rendered board, BOM and fabrication files', async () => {
    expect((await edaDetail(maker.token)).boards).toMatchObject([{ status: 'queued', widthMm: null, top: null }]);
    expect((await edaDetail()).boards).toEqual([]);

    await startJobWorkers();
    const deadline = Date.now() + 60_000;
    let detail = await edaDetail();
    while ((detail.boards.length === 0 || detail.bom.lines.length === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      detail = await edaDetail();
    }
    expect(Object.keys(detail).sort()).toEqual(['boards', 'bom', 'fabrication', 'placementErrors', 'placements', 'source']);
    // Gerbers and a BOM, no KiCad project: no design source.
    expect(detail.source).toBeNull();
    expect(detail.placementErrors).toEqual([{ file: 'adapter-pos.csv', errorKey: 'empty' }]);
    const [board] = detail.boards;
    expect(Object.keys(board!).sort()).toEqual(['bottom', 'facts', 'heightMm', 'id', 'layerCount', 'layers', 'model', 'name', 'preview', 'status', 'tool', 'top', 'widthMm'].sort());
    // Gerbers alone make a 3D model too, stored with the board's renders.
    expect(board!.model).toEqual({ url: expect.stringMatching(/^\/files\/boards\/\d+\/model\.glb$/), bytes: expect.any(Number) });
    const glb = await app.request(board!.model!.url);
    expect(glb.status).toBe(200);
    expect(glb.headers['content-type']).toBe('model/gltf-binary');
    expect(Number(glb.headers['content-length'])).toBe(board!.model!.bytes);
    expect(board).toMatchObject({ status: 'ready', layerCount: 2, tool: 'kicad', name: 'adapter' });
    expect(Math.abs(board!.widthMm! - 17.53)).toBeLessThan(0.2);
    // what the fab files tell a fab: no job file in this zip, so no thickness; no placements, so no parts per side
    expect(board!.facts).toMatchObject({
      copperLayers: 2, thicknessMm: null, minTraceMm: 0.25, minDrillMm: 1, holes: 16, platedHoles: 16, nonPlatedHoles: 0, vias: 0, minAnnularRingMm: 0.35,
      partsTop: null, partsBottom: null,
    });
    expect(board!.facts!.widthIn).toBeCloseTo(board!.widthMm! / 25.4, 3);
    expect(board!.layers).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'copper', side: 'top', filename: 'fab/rrf_rpi_skr_adapter-F_Cu.gbr' })]));
    for (const url of [board!.top, board!.bottom, board!.preview]) {
      const file = await app.request(url!);
      expect(file.status).toBe(200);
    }
    expect(detail.bom).toMatchObject({ source: '1-click-bom.tsv' });
    expect(detail.bom.lines.find((line) => line.designators.includes('R3'))).toMatchObject({ quantity: 5, digikey: '311-100HRCT-ND', lcsc: 'C105588', mouser: '603-RC0603FR-07100RL' });
    expect(detail.fabrication.map((file) => file.name)).toEqual(['adapter.zip', '1-click-bom.tsv', 'adapter-pos.csv']);

    // project/detail carries the same board
    const project = (await app.request(`/api/project/detail?id=${projectId}`)).json<{ result: { boards: unknown[]; cover: string } }>().result;
    expect(project.boards).toEqual([board]);
    expect(project.cover).toBe(board!.preview);

    // the pages show the render without JavaScript, on desktop and phone
    for (const address of [`/eda/${projectId}`, `/m/eda/${projectId}`]) {
      const page = await app.request(address);
      expect(page.status).toBe(200);
      expect(page.body).toContain(board!.top!);
      expect(page.body).toContain('311-100HRCT-ND');
      expect(page.body).toContain('The pick-and-place file adapter-pos.csv places no parts');
      // the board's facts, and each fab's verdict; a thickness the files do not declare is left to the order form
      expect(page.body).toMatch(/<dt>Smallest drill<\/dt><dd data-fact="minDrill"[^>]*>1 mm \(0\.0394 in\)<\/dd>/);
      expect(page.body).toContain('Will my fab make it?');
      expect(page.body).toMatch(/data-fab="jlcpcb" data-verdict="fits"/);
      expect(page.body).toContain('No thickness in the files: pick one in JLCPCB’s order form');
    }

    // the project page, without a cover: the board once (no gallery repeating it), and a JPEG for link previews
    const projectPage = await app.request(`/d-${projectId}`);
    expect(projectPage.body.split(`src="${board!.preview}"`)).toHaveLength(2);
    expect(projectPage.body).not.toContain('data-gallery');
    const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(projectPage.body)?.[1];
    expect(ogImage).toMatch(/\/files\/boards\/\d+\/preview\.jpg$/);
    const jpeg = await app.request(new URL(ogImage!).pathname);
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
  }, 90_000);

  it('answers an unknown project and a bad id with the envelope', async () => {
    const missing = await app.request('/api/eda/detail?id=nosuchproject');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ errorKey: 'project_not_found' });
    expect((await app.request('/api/eda/detail')).json()).toMatchObject({ errorKey: 'validation' });
  });
});

describe('downloads', () => {
  it('exports the BOM for distributors, quantities for N boards', async () => {
    const mouser = await app.request(`/eda/${projectId}/bom.csv?format=mouser&boards=3`);
    expect(mouser.status).toBe(200);
    expect(mouser.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(mouser.headers['content-disposition']).toMatch(/attachment; filename=".*\.csv"/);
    const lines = mouser.body.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(lines[0]).toMatch(/^Mouser Part Number,/);
    expect(lines.find((line) => line.includes('603-RC0603FR-07100RL'))).toMatch(/,15,/);

    // Every count the table's field takes is a link that answers, up to the one shared cap.
    const most = await app.request(`/eda/${projectId}/bom.csv?format=plain&boards=${MAX_EXPORT_BOARDS}`);
    expect(most.status).toBe(200);
    expect(most.headers['content-disposition']).toContain(`-${MAX_EXPORT_BOARDS}-boards.csv`);
    expect((await app.request(`/eda/${projectId}/bom.csv?format=plain&boards=${MAX_EXPORT_BOARDS + 1}`)).status).toBe(400);

    const bad = await app.request(`/eda/${projectId}/bom.csv?format=excel&boards=0`);
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ errorKey: 'validation', fields: { format: 'invalid_value', boards: 'invalid_value' } });
    expect((await app.request('/eda/nosuchproject/bom.csv')).status).toBe(404);
  });

  it('zips every fabrication file into one download', async () => {
    const response = await fetch(`${app.origin()}/eda/${projectId}/fabrication.zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect((await zipEntryNames(new Uint8Array(await response.arrayBuffer()))).sort()).toEqual(['1-click-bom.tsv', 'adapter-pos.csv', 'adapter.zip']);
    expect((await fetch(`${app.origin()}/eda/nosuchproject/fabrication.zip`)).status).toBe(404);
  });
});

describe('ordering', () => {
  it('serves each board its own Gerber zip and the order links that fetch it', async () => {
    // The first project's board is its attached Gerber zip: served as it was attached, without the BOM or placements.
    const detail = await edaDetail();
    const [board] = detail.boards;
    const zip = await fetch(`${app.origin()}/eda/${projectId}/board-${board!.id}-gerbers.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain('gerbers.zip');
    const attached = await zipBoard('kicad-rrf', 'fab', (name) => /F_Cu|B_Cu|Edge_Cuts|F_Mask|PTH\.drl/.test(name));
    expect((await zipEntryNames(new Uint8Array(await zip.arrayBuffer()))).sort()).toEqual((await zipEntryNames(attached)).sort());
    expect((await fetch(`${app.origin()}/eda/${projectId}/board-999999-gerbers.zip`)).status).toBe(404);
    expect((await fetch(`${app.origin()}/eda/${projectId}/board-x1-gerbers.zip`)).status).toBe(404);

    // The page links each board to Aisler and PCBWay with that zip's absolute address, in a new tab.
    for (const address of [`/eda/${projectId}`, `/m/eda/${projectId}`]) {
      const page = await app.request(address);
      const zipUrl = encodeURIComponent(`${app.origin()}/eda/${projectId}/board-${board!.id}-gerbers.zip`).replaceAll('&', '&amp;');
      expect(page.body).toContain(`href="https://aisler.net/p/new?url=${zipUrl}" target="_blank" rel="noopener noreferrer"`);
      expect(page.body).toContain(`href="https://www.pcbway.com/QuickOrderOnline.aspx?fileurl=${zipUrl}" target="_blank" rel="noopener noreferrer"`);
      expect(page.body).toContain(`href="/eda/${projectId}/fabrication.zip"`);
      expect(page.body).toContain(`href="/eda/${projectId}/bom.csv?format=jlc&amp;boards=1"`);
      // Digi-Key's cart form, filled for one board before any script runs, and allowed by the page's policy.
      expect(page.body).toContain('action="https://www.digikey.com/classic/ordering/fastadd.aspx"');
      expect(page.body).toMatch(/name="part\d+" value="311-100HRCT-ND"/);
      expect(page.headers['content-security-policy']).toContain("form-action 'self' https://www.digikey.com");
    }
  });

  it('zips a board of loose Gerber files alone, and answers its placements as JLCPCB’s CPL file', async () => {
    const gerbers = loadBoardFiles((name) => /F_Cu|B_Cu|Edge_Cuts|PTH\.drl/.test(name));
    const ids = [];
    for (const file of gerbers) ids.push(await upload(file.name, file.bytes));
    // Parts placed from the board's lower-left corner (mm, y up), one on each side.
    ids.push(await upload('loose-pos.csv', Buffer.from('Designator,Mid X(mm),Mid Y(mm),Rotation,Layer\nR1,5,5,90,top\nC1,8,6,-90,bottom\nR10,3,2,0,top\n')));
    const saved = await app.request('/api/release/saveProject', {
      method: 'POST',
      headers: { authorization: `Bearer ${maker.token}` },
      body: { title: 'Loose adapter', summary: 'Loose Gerbers', description: 'An adapter from loose files.', tags: ['adapters'], licence: 'CC-BY-4.0', attachments: ids, publish: true },
    });
    const looseId = saved.json<{ result: { id: string } }>().result.id;
    const deadline = Date.now() + 60_000;
    let detail: EdaDetail;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      detail = (await app.request(`/api/eda/detail?id=${looseId}`)).json<{ result: EdaDetail }>().result;
    } while ((detail.boards.length === 0 || detail.placements.length === 0) && Date.now() < deadline);
    const [board] = detail.boards;
    expect(board).toMatchObject({ status: 'ready' });

    const zip = await fetch(`${app.origin()}/eda/${looseId}/board-${board!.id}-gerbers.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect((await zipEntryNames(new Uint8Array(await zip.arrayBuffer()))).sort()).toEqual(gerbers.map((file) => file.name).sort());
    // Another project's board is not this project's.
    expect((await fetch(`${app.origin()}/eda/${projectId}/board-${board!.id}-gerbers.zip`)).status).toBe(404);

    const cpl = await app.request(`/eda/${looseId}/cpl.csv?format=jlc`);
    expect(cpl.status).toBe(200);
    expect(cpl.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = cpl.body.replace(/^\uFEFF/, '').trim().split(/\r\n/).map((row) => row.split(','));
    expect(rows[0]).toEqual(['Designator', 'Mid X', 'Mid Y', 'Layer', 'Rotation']);
    expect(rows.slice(1).map((row) => [row[0], row[3], row[4]])).toEqual([['C1', 'Bottom', '270'], ['R1', 'Top', '90'], ['R10', 'Top', '0']]);
    const mm = (cell: string) => {
      expect(cell).toMatch(/^-?\d+(\.\d+)?mm$/);
      return Number.parseFloat(cell);
    };
    const [c1, r1] = [rows[1]!, rows[2]!];
    // The parts keep their distances from each other, in the Gerbers' frame (y up).
    expect(mm(c1[1]!) - mm(r1[1]!)).toBeCloseTo(3, 3);
    expect(mm(c1[2]!) - mm(r1[2]!)).toBeCloseTo(1, 3);
    expect((await app.request(`/eda/${looseId}/cpl.csv?format=kicad`)).status).toBe(400);
    // The first project's placement file places nothing: no CPL.
    expect((await app.request(`/eda/${projectId}/cpl.csv?format=jlc`)).status).toBe(404);
    const page = await app.request(`/eda/${looseId}`);
    expect(page.body).toContain(`href="/eda/${looseId}/cpl.csv?format=jlc"`);
  }, 90_000);
});

/** The kicad-rrf board's files whose names pass `keep`, as loose uploads. */
function loadBoardFiles(keep: (name: string) => boolean): { name: string; bytes: Buffer }[] {
  return loadBoard('kicad-rrf').filter((file) => keep(file.name)).map((file) => ({ name: file.name, bytes: Buffer.from(file.bytes) }));
}
