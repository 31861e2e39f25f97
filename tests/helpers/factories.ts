import { getDb } from '../../src/server/db/client.ts';
import { projects, projectTags, tags, users } from '../../src/server/db/schema/index.ts';
import { newPublicId } from '../../src/server/lib/ids.ts';
import { createSession } from '../../src/server/services/accounts/index.ts';

let counter = 0;

/** Inserts a user (and a session when `withSession`), returning the row and its token. */
export async function createUser(overrides: Partial<typeof users.$inferInsert> = {}) {
  counter += 1;
  const [user] = await getDb()
    .insert(users)
    .values({ customUrl: `maker-${counter}-${newPublicId(4)}`, nickname: `Maker ${counter}`, ...overrides })
    .returning();
  const { token } = await createSession(user!.id, 'vitest');
  return { user: user!, token };
}

/** Inserts a tag (a root unless `parentId`). */
export async function createTag(slug: string, nameEn = slug, nameZh = slug, parentId: number | null = null) {
  const [tag] = await getDb().insert(tags).values({ slug, nameEn, nameZh, parentId }).returning();
  return tag!;
}

/** Inserts a published project of `ownerId`, optionally with tags (by id). */
export async function createProject(
  ownerId: number,
  overrides: Partial<typeof projects.$inferInsert> = {},
  tagIds: number[] = [],
) {
  counter += 1;
  const [project] = await getDb()
    .insert(projects)
    .values({
      publicId: newPublicId(),
      ownerId,
      title: `Test board ${counter}`,
      summary: 'A small test board',
      descriptionMd: 'Hello',
      descriptionHtml: '<p>Hello</p>',
      licence: 'CERN-OHL-S-2.0',
      ...overrides,
    })
    .returning();
  if (tagIds.length) await getDb().insert(projectTags).values(tagIds.map((tagId) => ({ projectId: project!.id, tagId })));
  return project!;
}
