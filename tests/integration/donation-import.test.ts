import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { donations } from '../../src/server/db/schema/index.ts';
import { listDonations } from '../../src/server/services/site/index.ts';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';

useTestDatabase();

const run = promisify(execFile);
/** `npm run ops -- …` against this file's database, as an operator types it. */
const ops = (...args: string[]) =>
  run(process.execPath, ['scripts/ops.ts', ...args], { env: { ...process.env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

/** A file in the shape of Open Collective's transactions export (more columns than are read, in its order). */
function exportFile(name: string, rows: string[]): string {
  const file = path.join(os.tmpdir(), `copperhub-${process.pid}-${name}.csv`);
  const header = 'datetime,id,shortId,description,type,kind,isRefund,displayAmount,amount,paymentProcessorFee,netAmount,currency,accountSlug,oppositeAccountSlug,oppositeAccountName,message,project';
  writeFileSync(file, `\uFEFF${[header, ...rows].join('\r\n')}\r\n`);
  return file;
}

const stored = () =>
  getDb()
    .select({ provider: donations.provider, ref: donations.providerRef, donor: donations.donorName, anonymous: donations.anonymous, amount: donations.amount, currency: donations.currency, message: donations.message, projectId: donations.projectId })
    .from(donations)
    .orderBy(asc(donations.createdAt));

describe('npm run ops -- donations:import', () => {
  it('imports each donation of an Open Collective export once, however often it runs, and skips what is not a donation', async () => {
    const { user } = await createUser();
    const project = await createProject(user.id, { title: 'Bench supply' });
    const file = exportFile('twice', [
      '2026-10-01T09:00:00.000Z,3f1c0a5e-0001,3f1c0a5e,Contribution from Ada,CREDIT,CONTRIBUTION,false,$25.00,25.00,-1.03,23.97,USD,copperhub,ada-lovelace,Ada Lovelace,"Thanks, and keep going!",',
      '2026-10-02T10:30:00.000Z,3f1c0a5e-0002,3f1c0a5f,Contribution from Incognito,CREDIT,CONTRIBUTION,false,€10.00,10.00,-0.55,9.45,EUR,copperhub,incognito-8a2f,Incognito,,',
      '2026-10-03T11:00:00.000Z,3f1c0a5e-0003,3f1c0a60,Contribution from 王工,CREDIT,CONTRIBUTION,false,¥88.00,88.00,0,88.00,CNY,copperhub,wang-gong,王工,"A message\nover two lines",' + project.publicId,
      '2026-10-04T12:00:00.000Z,3f1c0a5e-0004,3f1c0a61,Hosting invoice,DEBIT,EXPENSE,false,-$40.00,-40.00,0,-40.00,USD,copperhub,hosting-co,Hosting Co,,',
      '2026-10-05T12:00:00.000Z,3f1c0a5e-0005,3f1c0a62,Refund of contribution,CREDIT,CONTRIBUTION,true,$5.00,5.00,0,5.00,USD,copperhub,bob,Bob,,',
    ]);

    const dry = await ops('donations:import', file, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('3 donation(s)');
    expect(dry.stdout).toContain('3 would be imported');
    expect(await stored()).toEqual([]);

    const first = await ops('donations:import', file);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('3 imported, 0 already imported; 2 other row(s) skipped');
    const rows = await stored();
    expect(rows).toEqual([
      { provider: 'opencollective', ref: '3f1c0a5e-0001', donor: 'Ada Lovelace', anonymous: false, amount: 2500, currency: 'USD', message: 'Thanks, and keep going!', projectId: null },
      { provider: 'opencollective', ref: '3f1c0a5e-0002', donor: '', anonymous: true, amount: 1000, currency: 'EUR', message: '', projectId: null },
      { provider: 'opencollective', ref: '3f1c0a5e-0003', donor: '王工', anonymous: false, amount: 8800, currency: 'CNY', message: 'A message\nover two lines', projectId: project.id },
    ]);

    const second = await ops('donations:import', file);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('0 imported, 3 already imported');
    expect(await stored()).toEqual(rows);

    // the donation list shows them, the incognito donor without a name, with totals per currency
    const page = await listDonations({ page: 1, pageSize: 20 });
    expect(page.total).toBe(3);
    expect(page.list.map((donation) => donation.donor)).toEqual(['王工', '', 'Ada Lovelace']);
    expect(page.list[0]!.project).toEqual({ id: project.publicId, title: 'Bench supply' });
    expect(page.totals).toEqual(expect.arrayContaining([{ currency: 'CNY', amount: 8800 }, { currency: 'USD', amount: 2500 }, { currency: 'EUR', amount: 1000 }]));
  });

  it('imports nothing when a row is bad, naming each bad row by its line', async () => {
    const file = exportFile('bad', [
      '2026-11-01T09:00:00.000Z,good-0001,g1,Contribution,CREDIT,CONTRIBUTION,false,$5.00,5.00,0,5.00,USD,copperhub,ann,Ann,"two\nlines",',
      '2026-11-01T09:00:00.000Z,bad-0002,b2,Contribution,CREDIT,CONTRIBUTION,false,$5.00,five,0,5.00,USD,copperhub,bo,Bo,,',
      'yesterday,bad-0003,b3,Contribution,CREDIT,CONTRIBUTION,false,$5.00,5.00,0,5.00,USD,copperhub,cy,Cy,,',
      '2026-11-01T09:00:00.000Z,bad-0004,b4,Contribution,CREDIT,CONTRIBUTION,false,$5.00,5.001,0,5.00,USD,copperhub,di,Di,,',
      '2026-11-01T09:00:00.000Z,bad-0005,b5,Contribution,CREDIT,CONTRIBUTION,false,$5.00,5.00,0,5.00,XYZ,copperhub,ed,Ed,,',
      '2026-11-01T09:00:00.000Z,good-0001,g1,Contribution,CREDIT,CONTRIBUTION,false,$5.00,5.00,0,5.00,USD,copperhub,ann,Ann,,',
      '2026-11-01T09:00:00.000Z,bad-0007,b7,Contribution,CREDIT,CONTRIBUTION,false,$5.00,5.00,0,5.00,USD,copperhub,fay,Fay,,no-such-project',
    ]);
    const result = await ops('donations:import', file);
    expect(result.code).toBe(1);
    // the first row spans lines 2–3, so the next rows start on lines 4, 5, …
    expect(result.stderr).toContain(`${file}:4: amount "five"`);
    expect(result.stderr).toContain(`${file}:5: datetime "yesterday"`);
    expect(result.stderr).toContain(`${file}:6: amount "5.001"`);
    expect(result.stderr).toContain(`${file}:7: currency "XYZ"`);
    expect(result.stderr).toContain(`${file}:8: id "good-0001" is also on line 2`);
    expect(result.stderr).toContain(`${file}:9: project "no-such-project"`);
    expect(result.stderr).toContain('nothing was imported');
    // not even the good row
    expect((await stored()).filter((row) => /^(good|bad)-/.test(row.ref))).toEqual([]);

    const noHeader = exportFile('not-an-export', ['a,b,c']);
    writeFileSync(noHeader, 'name,amount\nAda,5\n');
    const wrong = await ops('donations:import', noHeader);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/:1: the header has no "id", "datetime", "type", "kind", "currency" column/);

    const missing = await ops('donations:import', path.join(os.tmpdir(), 'no-such-export.csv'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
  });
});
