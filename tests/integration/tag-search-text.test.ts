import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createTag, createUser } from '../helpers/factories.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import { saveProject, saveProjectSchema, searchProjects } from '../../src/server/services/projects/index.ts';
import { mergeTags, OPERATOR, renameTag } from '../../src/server/services/staff/index.ts';

/**
 * A search in one language finds projects by the other language's names of their tags, and keeps
 * doing so after staff rename or translate a tag, or merge one into another: the job queue
 * writes the tag's projects' search text again.
 */
useTestDatabase();

beforeAll(async () => {
  await startJobWorkers();
});
afterAll(async () => {
  await stopJobWorkers();
});

const publish = async (userId: number, title: string, tags: (string | { name: string })[]) =>
  saveProject(userId, parseInput(saveProjectSchema, { title, summary: 'A driver board.', description: 'Drives a motor.', licence: 'MIT', tags, publish: true }));

const found = async (q: string) => (await searchProjects({ q, page: 1, pageSize: 20 }, 'zh-CN')).list.map((card) => card.id);

/** Waits until a search for `q` finds `id` (the job has run): the ids it found. */
async function untilFound(q: string, id: string): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ids = await found(q);
    if (ids.includes(id) || Date.now() > deadline) return ids;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('searching by tag names across languages', () => {
  it('finds a project by the other language’s name of its tag', async () => {
    const { user } = await createUser();
    await createTag('stepper-drivers', 'Stepper drivers', '步进驱动');
    const project = await publish(user.id, 'TMC2209 carrier', ['stepper-drivers']);
    expect(await found('步进驱动')).toContain(project.id);
    expect(await found('stepper drivers')).toContain(project.id);
  });

  it('finds a member’s tag by the names staff give it later, and a merged tag’s projects by the names of the tag that took them', async () => {
    const { user } = await createUser();
    const motor = await publish(user.id, 'NEMA 17 bracket', [{ name: 'Stepper motors' }]);
    const other = await publish(user.id, 'Closed-loop stepper', [{ name: 'Steppers' }]);
    expect(await found('步进电机')).not.toContain(motor.id);

    await renameTag(OPERATOR, { slug: 'stepper-motors', nameEn: 'Stepper motors', nameZh: '步进电机' });
    expect(await untilFound('步进电机', motor.id)).toContain(motor.id);
    expect(await found('stepper motors')).toContain(motor.id);
    expect(await found('步进电机')).not.toContain(other.id);

    await mergeTags(OPERATOR, { from: 'steppers', into: 'stepper-motors' });
    expect(await untilFound('步进电机', other.id)).toEqual(expect.arrayContaining([motor.id, other.id]));

    // Renamed again: found by the new names, no longer by the old Chinese one.
    await renameTag(OPERATOR, { slug: 'stepper-motors', nameEn: 'Stepper motors', nameZh: '步进马达' });
    expect(await untilFound('步进马达', motor.id)).toEqual(expect.arrayContaining([motor.id, other.id]));
    expect(await found('步进电机')).toEqual([]);
  });
});
