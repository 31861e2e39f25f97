import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { sql } from 'drizzle-orm';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { getGenericDb } from '../../src/server/db/client.ts';
import { listRelatedProjects } from '../../src/server/services/projects/index.ts';
import { findPublishedProject } from '../../src/server/services/core/index.ts';

useTestDatabase();

describe('related projects', () => {
  it('works for a project without tags (the page of such a project must not fail)', async () => {
    const { user } = await createUser();
    const project = await createProject(user.id, { title: 'No tags' });
    const sibling = await createProject(user.id, { title: 'Sibling' });
    const related = await listRelatedProjects(await findPublishedProject(project.publicId), 'en-US');
    expect(related.map((card) => card.id)).toEqual([sibling.publicId]);
  });

  it('are planned once, and each project still gets its own: most shared tags first, then the author\'s', async () => {
    const { user: maker } = await createUser();
    const { user: other } = await createUser();
    const [synth, audio, kit] = [await createTag('synth-r', 'Synth', '合成器'), await createTag('audio-r', 'Audio', '音频'), await createTag('kit-r', 'Kit', '套件')];
    const drum = await createProject(maker.id, { title: 'Drum machine' }, [synth.id, audio.id, kit.id]);
    const both = await createProject(other.id, { title: 'Sampler' }, [synth.id, audio.id]);
    const one = await createProject(other.id, { title: 'Headphone amp' }, [audio.id]);
    const byMaker = await createProject(maker.id, { title: 'Bench supply' });
    const kitOnly = await createProject(other.id, { title: 'Solder kit' }, [kit.id]);
    const related = async (publicId: string) => (await listRelatedProjects(await findPublishedProject(publicId), 'en-US')).map((card) => card.title);
    // Ties (one shared tag each) go to the newer project.
    expect(await related(drum.publicId)).toEqual(['Sampler', 'Solder kit', 'Headphone amp', 'Bench supply']);
    // The author's own come after those sharing tags, then others.
    expect((await related(both.publicId)).slice(0, 3)).toEqual(['Drum machine', 'Headphone amp', 'Solder kit']);
    expect((await related(kitOnly.publicId))[0]).toBe('Drum machine');
    expect((await related(byMaker.publicId))[0]).toBe('Drum machine');
    expect((await related(one.publicId)).slice(0, 2)).toEqual(['Sampler', 'Drum machine']);
    // One after another, the statements ran on one connection of the pool that plans them once.
    const { rows } = await getGenericDb().execute<{ mode: string; generic: number; custom: number }>(sql`
      SELECT current_setting('plan_cache_mode') AS mode, generic_plans::int AS generic, custom_plans::int AS custom
      FROM pg_prepared_statements WHERE name = 'related_projects'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mode: 'force_generic_plan', custom: 0 });
    expect(rows[0]!.generic).toBeGreaterThanOrEqual(5);
  });
});
