import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { designSources } from '../../src/server/db/schema/index.ts';
import { readSourceSummary } from '../../src/server/services/eda/index.ts';
import type { CheckResult } from '../../src/lib/contract/schemas/eda.ts';

/**
 * What the project page says of a KiCad design source: how far reading it has got, to its owner
 * only, and once it is read how its design checks came out, to everyone.
 */
useTestDatabase();

const result = (errors: number, warnings: number): CheckResult => ({ errors, warnings, byType: {}, items: [] });

async function projectWithSource(values: Partial<typeof designSources.$inferInsert>) {
  const owner = await createUser();
  const project = await createProject(owner.user.id);
  const [row] = await getDb()
    .insert(designSources)
    .values({ projectId: project.id, sources: ['a'], name: 'board', ...values })
    .returning();
  return { project, row: row! };
}

describe('a design source in brief', () => {
  it('tells the owner it waits, is queued or is being read, and nobody else', async () => {
    const { project, row } = await projectWithSource({ status: 'waiting' });
    expect(await readSourceSummary(project.id, true)).toEqual({ status: 'waiting', kicadVersion: null, problems: [], sheets: 0, drc: null, erc: null });
    expect(await readSourceSummary(project.id, false)).toBeNull();
    await getDb().update(designSources).set({ status: 'processing' }).where(eq(designSources.id, row.id));
    expect(await readSourceSummary(project.id, true)).toMatchObject({ status: 'processing' });
  });

  it('tells the owner why it failed, naming the KiCad that made the files', async () => {
    const { project } = await projectWithSource({ status: 'failed', errorKey: 'too_new', kicadVersion: '10' });
    expect(await readSourceSummary(project.id, true)).toMatchObject({ status: 'failed', errorKey: 'too_new', kicadVersion: '10' });
    expect(await readSourceSummary(project.id, false)).toBeNull();
  });

  it('gives everyone the checks’ counts once read, its sheets and the stages that failed', async () => {
    const { project } = await projectWithSource({
      status: 'ready',
      kicadVersion: '9',
      sheets: [
        { name: 'board', page: 1, path: '/', key: 'sources/1/sheet-1.svg', widthMm: 297, heightMm: 210 },
        { name: 'Power', page: 2, path: '/Power/', key: 'sources/1/sheet-2.svg', widthMm: 297, heightMm: 210 },
      ],
      drc: result(0, 3),
      erc: null,
      problems: [{ stage: 'erc', errorKey: 'crashed' }],
    });
    const summary = { status: 'ready', kicadVersion: '9', problems: [{ stage: 'erc', errorKey: 'crashed' }], sheets: 2, drc: { errors: 0, warnings: 3 }, erc: null };
    expect(await readSourceSummary(project.id, false)).toEqual(summary);
    expect(await readSourceSummary(project.id, true)).toEqual(summary);
  });

  it('is the project’s own source, not one kept for a version, and nothing for a project without one', async () => {
    const { project } = await projectWithSource({ status: 'ready', drc: result(5, 0), retiredAt: new Date() });
    expect(await readSourceSummary(project.id, true)).toBeNull();
    await getDb().insert(designSources).values({ projectId: project.id, sources: ['b'], name: 'board', status: 'ready', drc: result(0, 0), erc: result(0, 0) });
    expect(await readSourceSummary(project.id, false)).toMatchObject({ drc: { errors: 0, warnings: 0 }, erc: { errors: 0, warnings: 0 } });
    const other = await createProject((await createUser()).user.id);
    expect(await readSourceSummary(other.id, true)).toBeNull();
  });
});
