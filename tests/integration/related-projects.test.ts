import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
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
});
