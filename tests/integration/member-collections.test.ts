import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { memberCollectionProjects, memberCollections, projects } from '../../src/server/db/schema/index.ts';
import { MAX_COLLECTION_PROJECTS, MAX_COLLECTIONS } from '../../src/lib/collection-rules.ts';
import {
  addToMemberCollection,
  deleteMemberCollection,
  getMemberCollectionByUrl,
  listMemberCollections,
  listOwnCollectionEntries,
  moveInMemberCollection,
  removeFromMemberCollection,
  saveMemberCollection,
} from '../../src/server/services/community/index.ts';
import { onPagePurge } from '../../src/server/page-cache/tags.ts';

useTestDatabase();

const paging = { page: 1, pageSize: 24 };

/** Every row of the member's collections and their projects, to show a refused write changed nothing. */
async function snapshot(ownerId: number) {
  const db = getDb();
  const rows = await db.select().from(memberCollections).where(eq(memberCollections.ownerId, ownerId)).orderBy(memberCollections.id);
  const entries = await db
    .select({ collectionId: memberCollectionProjects.collectionId, projectId: memberCollectionProjects.projectId, position: memberCollectionProjects.position })
    .from(memberCollectionProjects)
    .innerJoin(memberCollections, eq(memberCollections.id, memberCollectionProjects.collectionId))
    .where(eq(memberCollections.ownerId, ownerId))
    .orderBy(memberCollectionProjects.collectionId, memberCollectionProjects.projectId);
  return { rows, entries };
}

describe('members’ collections', () => {
  it('are made with a slug from the title, numbered on a clash, and edited without changing their address', async () => {
    const { user } = await createUser();
    const first = await saveMemberCollection(user.id, { title: 'Favourite Boards!', description: 'Ones I will build', public: true });
    expect(first).toMatchObject({ slug: 'favourite-boards', title: 'Favourite Boards!', description: 'Ones I will build', public: true, projectCount: 0, cover: null, owner: { url: user.customUrl } });
    const second = await saveMemberCollection(user.id, { title: 'favourite boards', description: '', public: false });
    expect(second.slug).toBe('favourite-boards-2');
    // A title with no Latin letters still gets an address.
    expect((await saveMemberCollection(user.id, { title: '我的键盘', description: '', public: true })).slug).toBe('collection');
    // Another member may use the same slug.
    const { user: other } = await createUser();
    expect((await saveMemberCollection(other.id, { title: 'Favourite boards', description: '', public: true })).slug).toBe('favourite-boards');

    const edited = await saveMemberCollection(user.id, { slug: 'favourite-boards', title: 'Boards to build', description: 'Soon', public: false });
    expect(edited).toMatchObject({ slug: 'favourite-boards', title: 'Boards to build', description: 'Soon', public: false });
  });

  it('hold projects in order: added at the end, moved, taken out, with counts and the first project’s cover', async () => {
    const { user } = await createUser();
    const { user: maker } = await createUser();
    const [a, b, c] = [
      await createProject(maker.id, { title: 'Alpha', cover: '/files/alpha.webp' }),
      await createProject(maker.id, { title: 'Bravo', cover: '/files/bravo.webp' }),
      await createProject(maker.id, { title: 'Charlie' }),
    ];
    const { slug } = await saveMemberCollection(user.id, { title: 'Radios', description: '', public: true });
    for (const project of [a, b, c]) await addToMemberCollection(user.id, slug, project!.publicId);

    const order = async () => (await getMemberCollectionByUrl(user.customUrl, slug, null, paging, 'en-US')).projects.list.map((card) => card.title);
    expect(await order()).toEqual(['Alpha', 'Bravo', 'Charlie']);
    const moved = await moveInMemberCollection(user.id, slug, c!.publicId, 0);
    expect(moved.projects).toEqual([c!.publicId, a!.publicId, b!.publicId]);
    expect(await order()).toEqual(['Charlie', 'Alpha', 'Bravo']);
    // Down one place, and past the end is last.
    await moveInMemberCollection(user.id, slug, c!.publicId, 1);
    expect(await order()).toEqual(['Alpha', 'Charlie', 'Bravo']);
    await moveInMemberCollection(user.id, slug, a!.publicId, 99);
    expect(await order()).toEqual(['Charlie', 'Bravo', 'Alpha']);

    const listed = await listMemberCollections(user.customUrl, null);
    // Charlie, first, has no cover nor board: the collection has none. Bravo first: its cover.
    expect(listed.list).toEqual([expect.objectContaining({ slug, projectCount: 3, cover: null })]);
    await moveInMemberCollection(user.id, slug, b!.publicId, 0);
    expect((await listMemberCollections(user.customUrl, null)).list[0]).toMatchObject({ projectCount: 3, cover: '/files/bravo.webp' });

    const removed = await removeFromMemberCollection(user.id, slug, b!.publicId);
    expect(removed.projects).toEqual([c!.publicId, a!.publicId]);
    expect(removed.collection.projectCount).toBe(2);
    expect(await order()).toEqual(['Charlie', 'Alpha']);

    // The save menu's view: which collections hold a project.
    const { slug: other } = await saveMemberCollection(user.id, { title: 'Other', description: '', public: false });
    const menu = await listMemberCollections(user.customUrl, user.id, { project: a!.publicId });
    expect(Object.fromEntries(menu.list.map((entry) => [entry.slug, entry.hasProject]))).toEqual({ [slug]: true, [other]: false });

    expect(await deleteMemberCollection(user.id, slug)).toEqual({ slug });
    await expect(getMemberCollectionByUrl(user.customUrl, slug, user.id, paging, 'en-US')).rejects.toMatchObject({ errorKey: 'collection_not_found' });
    // The projects themselves stay.
    expect(await getDb().select({ id: projects.id }).from(projects).where(eq(projects.id, a!.id))).toHaveLength(1);
  });

  it('keep a private collection from everyone but its owner, as if it did not exist', async () => {
    const { user: owner } = await createUser();
    const { user: stranger } = await createUser();
    const project = await createProject(stranger.id);
    const secret = await saveMemberCollection(owner.id, { title: 'Secret plans', description: '', public: false });
    await addToMemberCollection(owner.id, secret.slug, project.publicId);
    await saveMemberCollection(owner.id, { title: 'Shared', description: '', public: true });

    expect((await listMemberCollections(owner.customUrl, owner.id)).list.map((entry) => entry.slug).sort()).toEqual(['secret-plans', 'shared']);
    expect(await listMemberCollections(owner.customUrl, stranger.id)).toEqual({ list: [expect.objectContaining({ slug: 'shared' })], isOwner: false });
    expect((await listMemberCollections(owner.customUrl, null)).list.map((entry) => entry.slug)).toEqual(['shared']);
    await expect(getMemberCollectionByUrl(owner.customUrl, 'secret-plans', stranger.id, paging, 'en-US')).rejects.toMatchObject({ status: 404, errorKey: 'collection_not_found' });
    await expect(getMemberCollectionByUrl(owner.customUrl, 'secret-plans', null, paging, 'en-US')).rejects.toMatchObject({ errorKey: 'collection_not_found' });
    const own = await getMemberCollectionByUrl(owner.customUrl, 'secret-plans', owner.id, paging, 'en-US');
    expect(own).toMatchObject({ isOwner: true, collection: { public: false, projectCount: 1 } });

    // Made public, everyone sees it.
    await saveMemberCollection(owner.id, { slug: 'secret-plans', title: 'Secret plans', description: '', public: true });
    expect((await getMemberCollectionByUrl(owner.customUrl, 'secret-plans', null, paging, 'en-US')).projects.list.map((card) => card.id)).toEqual([project.publicId]);
  });

  it('leave out deleted and hidden projects, from the page and from the counts', async () => {
    const { user } = await createUser();
    const { user: maker } = await createUser();
    const kept = await createProject(maker.id, { title: 'Kept' });
    const doomed = await createProject(maker.id, { title: 'Doomed' });
    const hidden = await createProject(maker.id, { title: 'Hidden' });
    const { slug } = await saveMemberCollection(user.id, { title: 'Mixed', description: '', public: true });
    for (const project of [kept, doomed, hidden]) await addToMemberCollection(user.id, slug, project.publicId);
    await getDb().update(projects).set({ status: 'deleted' }).where(eq(projects.id, doomed.id));
    await getDb().update(projects).set({ hiddenAt: new Date() }).where(eq(projects.id, hidden.id));

    const page = await getMemberCollectionByUrl(user.customUrl, slug, null, paging, 'en-US');
    expect(page.projects.list.map((card) => card.title)).toEqual(['Kept']);
    expect(page.collection.projectCount).toBe(1);
    // The hidden project's author still sees it (as on every page), nobody else does.
    expect((await getMemberCollectionByUrl(user.customUrl, slug, maker.id, paging, 'en-US')).projects.list.map((card) => card.title)).toEqual(['Kept', 'Hidden']);
    expect((await listOwnCollectionEntries(user.id, slug)).map((entry) => entry.title)).toEqual(['Kept']);
    // Moving among what the owner sees keeps the unseen ones in place.
    await moveInMemberCollection(user.id, slug, kept.publicId, 5);
    expect((await listOwnCollectionEntries(user.id, slug)).map((entry) => entry.title)).toEqual(['Kept']);
  });

  it('refuse bad writes with the reason, changing nothing', async () => {
    const { user } = await createUser();
    const { user: other } = await createUser();
    const project = await createProject(other.id);
    const deleted = await createProject(other.id, { status: 'deleted' });
    const hidden = await createProject(other.id, { hiddenAt: new Date() });
    const { slug } = await saveMemberCollection(user.id, { title: 'Mine', description: '', public: true });
    await addToMemberCollection(user.id, slug, project.publicId);
    const before = await snapshot(user.id);

    await expect(addToMemberCollection(user.id, slug, project.publicId)).rejects.toMatchObject({ status: 409, errorKey: 'collection_project_duplicate' });
    await expect(addToMemberCollection(user.id, slug, deleted.publicId)).rejects.toMatchObject({ status: 404, errorKey: 'project_not_found' });
    await expect(addToMemberCollection(user.id, slug, hidden.publicId)).rejects.toMatchObject({ errorKey: 'project_not_found' });
    await expect(addToMemberCollection(user.id, slug, 'no-such-project')).rejects.toMatchObject({ errorKey: 'project_not_found' });
    await expect(addToMemberCollection(user.id, 'not-mine', project.publicId)).rejects.toMatchObject({ errorKey: 'collection_not_found' });
    // Someone else's collection is not theirs to change: to them it does not exist.
    for (const write of [
      () => addToMemberCollection(other.id, slug, project.publicId),
      () => removeFromMemberCollection(other.id, slug, project.publicId),
      () => moveInMemberCollection(other.id, slug, project.publicId, 0),
      () => deleteMemberCollection(other.id, slug),
      () => saveMemberCollection(other.id, { slug, title: 'Taken over', description: '', public: false }),
    ]) await expect(write()).rejects.toMatchObject({ status: 404, errorKey: 'collection_not_found' });
    await expect(removeFromMemberCollection(user.id, slug, deleted.publicId)).rejects.toMatchObject({ errorKey: 'project_not_found' });
    expect(await snapshot(user.id)).toEqual(before);
    expect((await snapshot(other.id)).rows).toEqual([]);
  });

  it('stop at the limits: collections per member and projects per collection', async () => {
    const { user } = await createUser();
    await getDb()
      .insert(memberCollections)
      .values(Array.from({ length: MAX_COLLECTIONS }, (_, index) => ({ ownerId: user.id, slug: `c-${index}`, title: `C ${index}` })));
    await expect(saveMemberCollection(user.id, { title: 'One too many', description: '', public: true })).rejects.toMatchObject({ status: 409, errorKey: 'collection_limit' });
    expect((await snapshot(user.id)).rows).toHaveLength(MAX_COLLECTIONS);
    // Editing one is still possible.
    await saveMemberCollection(user.id, { slug: 'c-0', title: 'Renamed', description: '', public: true });

    const [full] = await getDb().select({ id: memberCollections.id }).from(memberCollections).where(eq(memberCollections.slug, 'c-1'));
    const { user: maker } = await createUser();
    const filler = [];
    for (let index = 0; index < MAX_COLLECTION_PROJECTS; index += 1) filler.push(await createProject(maker.id));
    await getDb()
      .insert(memberCollectionProjects)
      .values(filler.map((project, position) => ({ collectionId: full!.id, projectId: project.id, position })));
    const extra = await createProject(maker.id);
    await expect(addToMemberCollection(user.id, 'c-1', extra.publicId)).rejects.toMatchObject({ status: 409, errorKey: 'collection_full' });
    expect((await snapshot(user.id)).entries).toHaveLength(MAX_COLLECTION_PROJECTS);
  });

  it('purge the member’s cached pages after each change', async () => {
    const { user } = await createUser();
    const purged: string[][] = [];
    const stop = onPagePurge((tags) => purged.push(tags));
    try {
      await saveMemberCollection(user.id, { title: 'Purged', description: '', public: true });
      await saveMemberCollection(user.id, { slug: 'purged', title: 'Purged', description: '', public: false });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      stop();
    }
    // A public collection is new to guests: "not found" answers may have been its address.
    expect(purged).toContainEqual([`user:${user.customUrl}`, 'missing']);
    // Made private: only the member's pages change.
    expect(purged).toContainEqual([`user:${user.customUrl}`]);
  });
});
