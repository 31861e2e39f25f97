import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { makeZip } from '../helpers/board-fixtures.ts';
import { openReadyBoard } from './eda-helpers.ts';
import { api, signUp } from './project-helpers.ts';

const SOURCE = path.resolve(import.meta.dirname, '../fixtures/eda/kicad-sources/rrf-kicad6/rrf_rpi_skr_adapter.kicad_pcb');

/** KiCad 9's Gerbers of a real board with its courtyard and fab layers, and its drill file, zipped. */
function kicadExport(): Promise<Uint8Array> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'copperhub-e2e-kicad-'));
  try {
    const layers = 'F.Cu,B.Cu,F.Mask,B.Mask,F.Silkscreen,F.Paste,F.Courtyard,F.Fab,Edge.Cuts';
    for (const args of [['pcb', 'export', 'gerbers', '-l', layers, '-o', `${out}/`, SOURCE], ['pcb', 'export', 'drill', '-o', `${out}/`, SOURCE]]) {
      const run = spawnSync('kicad-cli', args, { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
    }
    return makeZip(readdirSync(out).map((name) => ({ name: `fab/${name}`, bytes: new Uint8Array(readFileSync(path.join(out, name))) })));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A KiCad 9 export with documentation layers: in the layer view its courtyard and fab layers are
 * named as what they are and start switched off; copper starts on. `prefix` '' or '/m'.
 */
export async function kicadLayersJourney(page: Page, prefix: '' | '/m'): Promise<void> {
  const request = page.context().request;
  await signUp(request, 'KiCad Layers');
  const upload = await request.post('/api/upload', { multipart: { purpose: 'attachment', file: { name: 'adapter-kicad9.zip', mimeType: 'application/zip', buffer: Buffer.from(await kicadExport()) } } });
  const saved = await api(request, 'release/saveProject', { title: 'Adapter with its courtyards', summary: 'KiCad 9 outputs.', description: 'All layers.', tags: [], licence: 'MIT', attachments: [(await upload.json()).result.id], publish: true });
  expect(saved.retCode).toBe(0);
  await openReadyBoard(page, `${prefix}/eda/${saved.result.id}`);
  await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Layers', exact: true }).click();
  const panel = page.getByRole('group', { name: 'Layers shown' });
  await expect(panel.getByRole('checkbox', { name: 'Courtyard, top' })).not.toBeChecked();
  await expect(panel.getByRole('checkbox', { name: 'Fabrication drawing, top' })).not.toBeChecked();
  await expect(panel.getByRole('checkbox', { name: 'Copper, top' })).toBeChecked();
  await expect(panel.getByRole('checkbox', { name: 'Solder paste, top' })).toBeChecked();
  // A reader who wants the courtyards turns them on.
  await panel.getByRole('checkbox', { name: 'Courtyard, top' }).check();
  await expect(panel.getByRole('checkbox', { name: 'Courtyard, top' })).toBeChecked();
}
