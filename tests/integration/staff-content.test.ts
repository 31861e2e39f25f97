import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { banners, projects, projectTags, tags } from '../../src/server/db/schema/index.ts';
import { AppError } from '../../src/server/http/errors.ts';
import { parseInput } from '../../src/server/http/validation.ts';
import {
  bannerSaveInputSchema,
  collectionSaveInputSchema,
  tagCreateInputSchema,
} from '../../src/lib/contract/schemas/staff.ts';
import { listProjects } from '../../src/server/services/projects/index.ts';
import { loadBannerSchedule, getCollection } from '../../src/server/services/site/index.ts';
import { deleteBanner, listStaffBanners, saveBanner, listPinnedProjects, pinProject, reorderPinned, unpinProject, createTag, listStaffTags, mergeTags, moveTag, renameTag, tagForAlias, staffMember } from '../../src/server/services/staff/index.ts';
import {
  addProjectToCollection,
  deleteCollection,
  listStaffCollections,
  removeProjectFromCollection,
  reorderCollection,
  saveCollection,
} from '../../src/server/services/staff/index.ts';
import type { SessionUser } from '../../src/server/services/accounts/index.ts';
import { createProject, createTag as insertTag, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { useTestDatabase } from '../helpers/db.ts';

const database = useTestDatabase();

async function staff(role: SessionUser['role']) {
  const { user } = await createUser({ role });
  const session: SessionUser = { id: user.id, url: user.customUrl, nickname: user.nickname, avatar: null, role };
  return { user, actor: staffMember(session) };
}

/** The error key (and field errors) a refused action answers. */
async function refusal(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    if (error instanceof AppError) return error.fields ? `${error.errorKey} ${JSON.stringify(error.fields)}` : error.errorKey;
    throw error;
  }
  throw new Error('the action was not refused');
}

const image = (ownerId: number) => createUpload(ownerId, { purpose: 'cover', name: 'banner.webp', mime: 'image/webp', data: 'webp' });

describe('banners', () => {
  it('an admin adds, edits and removes a banner; the home page shows it only within its schedule', async () => {
    const { user, actor } = await staff('admin');
    const upload = await image(user.id);
    const now = Date.now();
    const startsAt = new Date(now + 60_000).toISOString();
    const added = await saveBanner(
      actor,
      parseInput(bannerSaveInputSchema, { image: upload.id, link: '/collection/keyboards', titleEn: 'Keyboards week', titleZh: '键盘周', startsAt, endsAt: null }),
    );
    expect(added.item).toMatchObject({ image: upload.url, state: 'scheduled', titleZh: '键盘周' });

    const before = await loadBannerSchedule('en-US', new Date(now));
    expect(before.banners.map((banner) => banner.title)).not.toContain('Keyboards week');
    expect(before.nextChange?.toISOString()).toBe(startsAt);
    const during = await loadBannerSchedule('zh-CN', new Date(now + 61_000));
    expect(during.banners.map((banner) => banner.title)).toContain('键盘周');

    const endsAt = new Date(now + 120_000).toISOString();
    const edited = await saveBanner(
      actor,
      parseInput(bannerSaveInputSchema, { id: added.item.id, image: upload.url, link: 'https://example.com/x', titleEn: 'Keyboards', titleZh: '键盘', startsAt, endsAt }),
    );
    expect(edited.item).toMatchObject({ link: 'https://example.com/x', endsAt });
    expect((await loadBannerSchedule('en-US', new Date(now + 61_000))).nextChange?.toISOString()).toBe(endsAt);
    expect((await loadBannerSchedule('en-US', new Date(now + 121_000))).banners.map((banner) => banner.title)).not.toContain('Keyboards');

    await deleteBanner(actor, added.item.id);
    expect((await listStaffBanners()).map((banner) => banner.id)).not.toContain(added.item.id);
    expect(await refusal(deleteBanner(actor, added.item.id))).toBe('banner_not_found');
  });

  it('refuses bad input, someone else’s image, a member and a moderator; nothing is stored', async () => {
    const { user, actor } = await staff('admin');
    const other = await createUser();
    const theirs = await image(other.user.id);
    const base = { image: theirs.id, link: '/x', titleEn: 'T', titleZh: 'T' };
    const count = async () => (await getDb().select().from(banners)).length;
    const stored = await count();

    expect(await refusal(saveBanner(actor, parseInput(bannerSaveInputSchema, base)))).toBe('validation {"image":"upload_invalid"}');
    expect(await refusal(Promise.resolve().then(() => parseInput(bannerSaveInputSchema, { ...base, link: 'javascript:alert(1)' })))).toBe('validation {"link":"staff_link"}');
    expect(await refusal(Promise.resolve().then(() => parseInput(bannerSaveInputSchema, { ...base, link: '//evil.example/' })))).toBe('validation {"link":"staff_link"}');
    expect(
      await refusal(Promise.resolve().then(() => parseInput(bannerSaveInputSchema, { ...base, startsAt: '2026-12-02T00:00:00Z', endsAt: '2026-12-01T00:00:00Z' }))),
    ).toBe('validation {"endsAt":"ends_before_start"}');
    const mine = await image(user.id);
    expect(await refusal(saveBanner(actor, parseInput(bannerSaveInputSchema, { ...base, image: mine.id, id: 999_999 })))).toBe('banner_not_found');

    const member = await staff('member');
    const moderator = await staff('moderator');
    expect(await refusal(saveBanner(member.actor, parseInput(bannerSaveInputSchema, { ...base, image: mine.id })))).toBe('forbidden');
    expect(await refusal(saveBanner(moderator.actor, parseInput(bannerSaveInputSchema, { ...base, image: mine.id })))).toBe('forbidden');
    expect(await refusal(saveBanner(staffMember(null), parseInput(bannerSaveInputSchema, { ...base, image: mine.id })))).toBe('unauthorized');
    expect(await count()).toBe(stored);

    // A dry run meets the same checks and keeps nothing.
    const dry = await saveBanner(actor, parseInput(bannerSaveInputSchema, { ...base, image: mine.id }), { dryRun: true });
    expect(dry.summary).toContain('added');
    expect(await count()).toBe(stored);
  });
});

describe('collections', () => {
  it('an admin creates a collection, adds, reorders and removes projects; duplicates and drafts are refused', async () => {
    const { user, actor } = await staff('admin');
    const owner = await createUser();
    const [a, b, c] = [await createProject(owner.user.id), await createProject(owner.user.id), await createProject(owner.user.id)];
    const gone = await createProject(owner.user.id, { status: 'deleted' });
    const cover = await image(user.id);
    const made = await saveCollection(actor, parseInput(collectionSaveInputSchema, { name: 'Clocks', titleEn: 'Clocks', titleZh: '时钟', cover: cover.id }));
    expect(made.item).toMatchObject({ name: 'clocks', cover: cover.url, featured: true, projects: [] });
    expect(await refusal(saveCollection(actor, parseInput(collectionSaveInputSchema, { name: 'clocks', titleEn: 'Again', titleZh: '再' })))).toBe('validation {"name":"slug_taken"}');

    for (const project of [a, b, c]) await addProjectToCollection(actor, { name: 'clocks', project: project.publicId });
    expect(await refusal(addProjectToCollection(actor, { name: 'clocks', project: a.publicId }))).toBe('validation {"project":"duplicate"}');
    expect(await refusal(addProjectToCollection(actor, { name: 'clocks', project: gone.publicId }))).toBe('project_not_found');
    expect(await refusal(addProjectToCollection(actor, { name: 'nowhere', project: a.publicId }))).toBe('collection_not_found');

    const reordered = await reorderCollection(actor, { name: 'clocks', projects: [c.publicId, a.publicId, b.publicId] });
    expect(reordered.item.projects.map((project) => project.id)).toEqual([c.publicId, a.publicId, b.publicId]);
    expect(await refusal(reorderCollection(actor, { name: 'clocks', projects: [c.publicId, a.publicId] }))).toBe('validation {"projects":"reorder_mismatch"}');
    expect((await getCollection('clocks', 'zh-CN')).title).toBe('时钟');

    const removed = await removeProjectFromCollection(actor, { name: 'clocks', project: a.publicId });
    expect(removed.item.projects.map((project) => project.id)).toEqual([c.publicId, b.publicId]);
    expect(await refusal(removeProjectFromCollection(actor, { name: 'clocks', project: a.publicId }))).toBe('validation {"project":"not_in_collection"}');

    const member = await staff('member');
    expect(await refusal(deleteCollection(member.actor, { name: 'clocks' }))).toBe('forbidden');
    expect((await listStaffCollections()).map((collection) => collection.name)).toContain('clocks');
    await deleteCollection(actor, { name: 'clocks' });
    expect((await listStaffCollections()).map((collection) => collection.name)).not.toContain('clocks');
  });
});

describe('recommendations', () => {
  it('pinned projects come first on /recommend in their order; unpinning puts one back', async () => {
    const { actor } = await staff('admin');
    const owner = await createUser();
    const hot = await createProject(owner.user.id);
    const quiet = await createProject(owner.user.id);
    const quieter = await createProject(owner.user.id);
    const first = async () => (await listProjects({ sort: 'recommend', page: 1, pageSize: 2 }, 'en-US')).list.map((card) => card.id);

    await pinProject(actor, { project: quiet.publicId });
    const pinned = await pinProject(actor, { project: quieter.publicId, rank: 1 });
    expect(pinned.item.map((project) => project.id)).toEqual([quieter.publicId, quiet.publicId]);
    expect(await first()).toEqual([quieter.publicId, quiet.publicId]);

    await reorderPinned(actor, { projects: [quiet.publicId, quieter.publicId] });
    expect((await listPinnedProjects()).map((project) => [project.id, project.rank])).toEqual([
      [quiet.publicId, 1],
      [quieter.publicId, 2],
    ]);
    expect(await refusal(reorderPinned(actor, { projects: [quiet.publicId, quiet.publicId] }))).toBe('validation {"projects":"reorder_mismatch"}');

    await unpinProject(actor, { project: quiet.publicId });
    expect((await listPinnedProjects()).map((project) => [project.id, project.rank])).toEqual([[quieter.publicId, 1]]);
    expect(await refusal(unpinProject(actor, { project: quiet.publicId }))).toBe('validation {"project":"not_pinned"}');
    expect(await refusal(pinProject(actor, { project: 'no-such-project' }))).toBe('project_not_found');

    const member = await staff('member');
    expect(await refusal(pinProject(member.actor, { project: hot.publicId }))).toBe('forbidden');
    const [row] = await getDb().select({ rank: projects.recommendRank }).from(projects).where(eq(projects.id, hot.id));
    expect(row!.rank).toBeNull();
  });
});

describe('tags', () => {
  it('adds, renames and moves tags within two levels, refusing cycles and a third level', async () => {
    const { actor } = await staff('admin');
    await createTag(actor, parseInput(tagCreateInputSchema, { slug: 'power', nameEn: 'Power', nameZh: '电源' }));
    await createTag(actor, parseInput(tagCreateInputSchema, { slug: 'buck', nameEn: 'Buck', nameZh: '降压', parent: 'power' }));
    await createTag(actor, parseInput(tagCreateInputSchema, { slug: 'audio', nameEn: 'Audio', nameZh: '音频' }));
    expect(await refusal(createTag(actor, parseInput(tagCreateInputSchema, { slug: 'power', nameEn: 'P', nameZh: 'P' })))).toBe('validation {"slug":"slug_taken"}');
    expect(await refusal(createTag(actor, parseInput(tagCreateInputSchema, { slug: 'x', nameEn: 'X', nameZh: 'X', parent: 'buck' })))).toBe('validation {"parent":"tag_depth"}');
    expect(await refusal(createTag(actor, parseInput(tagCreateInputSchema, { slug: 'y', nameEn: 'Y', nameZh: 'Y', parent: 'nope' })))).toBe('validation {"parent":"unknown_tag"}');

    const renamed = await renameTag(actor, { slug: 'buck', nameEn: 'Buck converters', nameZh: '降压转换器' });
    expect(renamed.item).toMatchObject({ nameEn: 'Buck converters', nameZh: '降压转换器', parent: 'power' });

    expect(await refusal(moveTag(actor, { slug: 'power', parent: 'buck' }))).toBe('validation {"parent":"tag_cycle"}');
    expect(await refusal(moveTag(actor, { slug: 'power', parent: 'power' }))).toBe('validation {"parent":"tag_cycle"}');
    expect(await refusal(moveTag(actor, { slug: 'power', parent: 'audio' }))).toBe('validation {"parent":"tag_depth"}');
    expect(await refusal(moveTag(actor, { slug: 'ghost', parent: null }))).toBe('tag_not_found');
    expect((await moveTag(actor, { slug: 'buck', parent: 'audio' })).item.parent).toBe('audio');
    expect((await moveTag(actor, { slug: 'buck', parent: null })).item.parent).toBeNull();
  });

  it('merging moves projects over once each, deletes the tag and keeps its slug as an alias', async () => {
    const { actor } = await staff('admin');
    const owner = await createUser();
    const from = await insertTag('wifi', 'WiFi', '无线');
    const into = await insertTag('wireless', 'Wireless', '无线通信');
    const both = await createProject(owner.user.id, {}, [from.id, into.id]);
    const onlyFrom = await createProject(owner.user.id, {}, [from.id]);

    expect(await refusal(mergeTags(actor, { from: 'wifi', into: 'wifi' }))).toBe('validation {"into":"tag_merge_self"}');
    expect(await refusal(mergeTags(actor, { from: 'wifi', into: 'ghost' }))).toBe('tag_not_found');
    const member = await staff('member');
    expect(await refusal(mergeTags(member.actor, { from: 'wifi', into: 'wireless' }))).toBe('forbidden');
    expect(await tagForAlias('wifi')).toBeNull();

    const merged = await mergeTags(actor, { from: 'wifi', into: 'wireless' });
    expect(merged.item).toMatchObject({ slug: 'wireless', projectCount: 2, aliases: ['wifi'] });
    const rows = await getDb().select().from(projectTags).where(eq(projectTags.tagId, into.id));
    expect(rows.map((row) => row.projectId).sort()).toEqual([both.id, onlyFrom.id].sort());
    expect(await getDb().select().from(tags).where(eq(tags.id, from.id))).toEqual([]);
    expect(await tagForAlias('wifi')).toBe('wireless');
    // The old slug cannot be taken by a new tag while it leads somewhere.
    expect(await refusal(createTag(actor, parseInput(tagCreateInputSchema, { slug: 'wifi', nameEn: 'W', nameZh: 'W' })))).toBe('validation {"slug":"slug_taken"}');
    expect((await listStaffTags()).find((tag) => tag.slug === 'wireless')?.aliases).toEqual(['wifi']);
  });
});

const run = promisify(execFile);
/** `npm run ops -- …` against this file's database, as an operator types it. */
const ops = (...args: string[]) =>
  run(process.execPath, ['scripts/ops.ts', ...args], { env: { ...process.env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe('npm run ops', () => {
  it('adds a banner from an image file, with a dry run first; bad input changes nothing', async () => {
    const file = path.join(database.dataDir(), 'banner.png');
    await writeFile(file, await sharp({ create: { width: 1200, height: 360, channels: 3, background: '#8b3d12' } }).png().toBuffer());
    const count = async () => (await getDb().select().from(banners)).length;
    const stored = await count();
    const args = ['banner:add', '--image', file, '--title-en', 'Winter build-off', '--title-zh', '冬季制作赛', '--link', '/collection/winter', '--starts', '2026-12-01T09:00:00+08:00'];

    const dry = await ops(...args, '--dry-run');
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('dry run, nothing changed: banner');
    expect(await count()).toBe(stored);

    const added = await ops(...args);
    expect(added.code).toBe(0);
    const [row] = await getDb().select().from(banners).where(eq(banners.titleEn, 'Winter build-off'));
    expect(row).toMatchObject({ titleZh: '冬季制作赛', link: '/collection/winter', startsAt: new Date('2026-12-01T01:00:00Z') });
    expect(row!.image).toMatch(/^\/files\/images\/.+\.webp$/);

    const badLink = await ops('banner:add', '--image', file, '--title-en', 'x', '--title-zh', 'x', '--link', 'javascript:alert(1)');
    expect(badLink.code).toBe(2);
    expect(badLink.stderr).toContain('link: Enter a path on this site');
    const notImage = await ops('banner:add', '--image', path.resolve('package.json'), '--title-en', 'x', '--title-zh', 'x', '--link', '/x');
    expect(notImage.code).toBe(1);
    expect(notImage.stderr).toContain('This type of file is not supported.');
    expect(await count()).toBe(stored + 1);

    const removed = await ops('banner:remove', String(row!.id));
    expect(removed.code).toBe(0);
    expect(await count()).toBe(stored);
    expect((await ops('banner:remove', String(row!.id))).stderr).toContain('This banner does not exist');
  }, 60_000);

  it('tags, pins and collections, transactional and validated like the API', async () => {
    const owner = await createUser();
    const [a, b] = [await createProject(owner.user.id), await createProject(owner.user.id)];

    expect((await ops('tag:add', 'sensors', '--name-en', 'Sensors', '--name-zh', '传感器', '--dry-run')).stdout).toContain('dry run, nothing changed: tag sensors added');
    expect(await getDb().select().from(tags).where(eq(tags.slug, 'sensors'))).toEqual([]);
    expect((await ops('tag:add', 'sensors', '--name-en', 'Sensors', '--name-zh', '传感器')).code).toBe(0);
    expect((await ops('tag:add', 'imu', '--name-en', 'IMU', '--name-zh', '惯性', '--parent', 'sensors')).code).toBe(0);
    const cycle = await ops('tag:move', 'sensors', '--parent', 'imu');
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toContain('parent: A tag cannot go under itself');
    expect((await ops('tag:move', 'sensors')).code).toBe(2);
    const bad = await ops('tag:add', 'Not A Slug!', '--name-en', 'x', '--name-zh', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('slug: Use lowercase letters');
    expect((await ops('tag:rename', 'imu', '--name-en', 'Motion', '--name-zh', '运动')).stdout).toContain('renamed');

    const pin = await ops('recommend:pin', b.publicId, '--rank', '1');
    expect(pin.code).toBe(0);
    expect((await listPinnedProjects())[0]?.id).toBe(b.publicId);
    expect((await ops('recommend:pin', 'no-such-project')).stderr).toContain('This project does not exist.');

    expect((await ops('collection:create', 'sensor-boards', '--title-en', 'Sensor boards', '--title-zh', '传感器板')).code).toBe(0);
    // All or none: the unknown project stops the known one too.
    const partial = await ops('collection:add', 'sensor-boards', a.publicId, 'no-such-project');
    expect(partial.code).toBe(1);
    expect((await listStaffCollections()).find((collection) => collection.name === 'sensor-boards')?.projects).toEqual([]);
    expect((await ops('collection:add', 'sensor-boards', a.publicId, b.publicId)).code).toBe(0);
    expect((await listStaffCollections()).find((collection) => collection.name === 'sensor-boards')?.projects.map((project) => project.id)).toEqual([a.publicId, b.publicId]);
    expect((await ops('recommend:unpin', b.publicId)).code).toBe(0);
    expect((await listPinnedProjects()).map((project) => project.id)).not.toContain(b.publicId);
  }, 120_000);
});
