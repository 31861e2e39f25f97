import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { projects, tagAliases, tags } from '../../src/server/db/schema/index.ts';
import { getDraft, storeDraft, listProjects, editProject, editProjectSchema, saveProject, saveProjectSchema, getTag, listPopularTags, listTagTree, suggestTags } from '../../src/server/services/projects/index.ts';
import { listStaffTags, moveTag, OPERATOR } from '../../src/server/services/staff/index.ts';
import { AppError } from '../../src/server/http/errors.ts';
import { parseInput } from '../../src/server/http/validation.ts';

useTestDatabase();

// Each case starts without tags, projects or counted limits: they assert exactly which exist.
beforeEach(async () => {
  await getDb().execute(sql`TRUNCATE tags, tag_aliases, project_tags, projects, drafts, rate_limits CASCADE`);
});

const save = async (userId: number, input: Record<string, unknown>) => saveProject(userId, parseInput(saveProjectSchema, input));
const edit = async (userId: number, input: Record<string, unknown>) => editProject(userId, parseInput(editProjectSchema, input));
const publish = (userId: number, tagList: unknown[], extra: Record<string, unknown> = {}) =>
  save(userId, { title: 'Reflow controller', licence: 'MIT', tags: tagList, publish: true, ...extra });
// Members older than a day: the ordinary allowance, not a new account's.
const member = (nickname = 'Ada') => createUser({ nickname, createdAt: new Date(Date.now() - 30 * 24 * 3600 * 1000) });
const tagRow = async (slug: string) => (await getDb().select().from(tags).where(eq(tags.slug, slug)))[0];

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('new tags at publishing', () => {
  it('creates a typed tag when the project is published, with a normalised slug, outside the staff tree', async () => {
    const { user } = await member();
    await createTag('sensors', 'Sensors', '传感器');

    // A draft keeps the typed name; nothing is created yet.
    const draft = await save(user.id, { title: 'Hot plate', tags: ['sensors', { name: '  Reflow   Oven ' }], publish: false });
    expect((await getDraft(user.id, draft.id)).tags).toEqual(['sensors', { name: 'Reflow Oven' }]);
    expect(await tagRow('reflow-oven')).toBeUndefined();

    const published = await save(user.id, { ...(await getDraft(user.id, draft.id)), licence: 'MIT', draftId: draft.id, publish: true });
    const created = await tagRow('reflow-oven');
    expect(created).toMatchObject({ nameEn: 'Reflow Oven', nameZh: 'Reflow Oven', curated: false, createdBy: user.id, parentId: null });

    // Its page lists the project and shows the one name; the staff tree and popular tags do not carry it.
    const page = await listProjects({ page: 1, pageSize: 20, tag: 'reflow-oven' }, 'zh-CN');
    expect(page.list.map((card) => card.id)).toEqual([published.id]);
    expect(page.list[0]!.tags).toEqual(expect.arrayContaining([{ slug: 'reflow-oven', name: 'Reflow Oven' }, { slug: 'sensors', name: '传感器' }]));
    expect(await getTag('reflow-oven', 'zh-CN')).toMatchObject({ name: 'Reflow Oven', nameEn: 'Reflow Oven', nameZh: 'Reflow Oven', parent: null });
    expect((await listTagTree('en-US')).map((node) => node.slug)).toEqual(['sensors']);
    expect((await listPopularTags('en-US')).map((tag) => tag.slug)).toEqual(['sensors']);

    // Staff see it after the tree, and placing it puts it into the navigation.
    expect((await listStaffTags()).map((tag) => [tag.slug, tag.curated])).toEqual([
      ['sensors', true],
      ['reflow-oven', false],
    ]);
    // Nothing goes under it while it is outside the tree.
    const refused = await failure(moveTag(OPERATOR, { slug: 'sensors', parent: 'reflow-oven' }));
    expect(refused.fields).toEqual({ parent: 'tag_not_in_tree' });
    await moveTag(OPERATOR, { slug: 'reflow-oven', parent: 'sensors' });
    expect((await listTagTree('en-US'))[0]!.children.map((child) => child.slug)).toEqual(['reflow-oven']);
  });

  it('keeps CJK letters in a Chinese name\'s slug, and files it as both names until staff translate it', async () => {
    const { user } = await member();
    const published = await publish(user.id, [{ name: '回流焊' }]);
    expect(await tagRow('回流焊')).toMatchObject({ nameEn: '回流焊', nameZh: '回流焊', curated: false });
    expect((await listProjects({ page: 1, pageSize: 20, tag: '回流焊' }, 'en-US')).list.map((card) => card.id)).toEqual([published.id]);
  });

  it('uses the existing tag for a name that is its slug, an alias, or either of its names: the same name twice is one tag', async () => {
    const { user } = await member();
    const { user: other } = await member('Lin');
    const mcu = await createTag('microcontrollers', 'Microcontrollers', '单片机');
    await getDb().insert(tagAliases).values({ slug: 'mcu', tagId: mcu.id });

    await publish(user.id, [{ name: 'ESP32 S3' }]);
    await publish(other.id, [{ name: 'esp32_s3' }, { name: 'ESP32-S3' }]);
    expect((await getDb().select().from(tags).where(eq(tags.slug, 'esp32-s3'))).length).toBe(1);

    for (const name of ['单片机', 'MICROCONTROLLERS', 'mcu']) {
      const result = await publish(user.id, [{ name }]);
      const [card] = (await listProjects({ page: 1, pageSize: 1, tag: 'microcontrollers' }, 'en-US')).list;
      expect(card!.id).toBe(result.id);
    }
    const all = await getDb().select({ slug: tags.slug }).from(tags);
    expect(all.map((row) => row.slug).sort()).toEqual(['esp32-s3', 'microcontrollers']);

    // An alias given as a slug (an old client, an old draft) leads to the tag that took it over.
    const viaAlias = await publish(user.id, ['mcu']);
    expect((await listProjects({ page: 1, pageSize: 1, tag: 'microcontrollers' }, 'en-US')).list[0]!.id).toBe(viaAlias.id);
  });

  it('refuses bad names, unknown slugs and too many tags with a field error, creating nothing', async () => {
    const { user } = await member();
    expect((await failure(publish(user.id, [{ name: '<script>' }]))).fields).toEqual({ tags: 'tag_name_invalid' });
    expect((await failure(publish(user.id, [{ name: '!!!' }]))).fields).toEqual({ tags: 'tag_name_invalid' });
    expect((await failure(publish(user.id, [{ name: 'x'.repeat(41) }]))).fields).toEqual({ tags: 'tag_name_too_long' });
    expect((await failure(publish(user.id, ['no-such-tag']))).fields).toEqual({ tags: 'unknown_tag' });
    expect((await failure(publish(user.id, ['bad\u0000slug']))).fields).toEqual({ tags: 'unknown_tag' });
    expect((await failure(publish(user.id, [{ name: 'bad\u0000name' }]))).fields).toEqual({ tags: 'tag_name_invalid' });
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name }));
    expect((await failure(publish(user.id, six))).fields).toMatchObject({ 'tags': 'too_big' });
    // A publication refused for another field creates none of its new tags.
    expect((await failure(publish(user.id, [{ name: 'Good Tag' }], { licence: 'nope' }))).fields).toEqual({ licence: 'invalid_value' });
    expect(await getDb().select().from(tags)).toEqual([]);
    expect(await getDb().select().from(projects)).toEqual([]);
  });

  it('limits the new tags a member creates per day, more strictly for a new account, and publishes nothing past it', async () => {
    const { user: fresh } = await createUser({ nickname: 'New' });
    await publish(fresh.id, [{ name: 'one' }, { name: 'two' }, { name: 'three' }]);
    await publish(fresh.id, [{ name: 'four' }, { name: 'five' }]);
    const refused = await failure(publish(fresh.id, [{ name: 'six' }]));
    expect(refused.fields).toEqual({ tags: 'new_tags_limit' });
    expect(await tagRow('six')).toBeUndefined();
    expect((await getDb().select().from(projects).where(eq(projects.ownerId, fresh.id))).length).toBe(2);
    // Existing tags stay free to use.
    await publish(fresh.id, ['one', { name: 'Two' }]);

    const { user: settled } = await member();
    await publish(settled.id, ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name: `settled ${name}` })));
    await publish(settled.id, ['f', 'g', 'h', 'i', 'j'].map((name) => ({ name: `settled ${name}` })));
    expect((await getDb().select().from(tags).where(eq(tags.createdBy, settled.id))).length).toBe(10);
  });

  it('still publishes old drafts and edits whose tags are slugs, and an edit may add a new tag', async () => {
    const { user } = await member();
    await createTag('sensors', 'Sensors', '传感器');
    const old = await storeDraft(user.id, { title: 'Old draft', summary: '', description: '', cover: null, tags: ['sensors'], licence: 'MIT', attachments: [] }, {});
    const published = await save(user.id, { ...(await getDraft(user.id, old.id)), draftId: old.id, publish: true });
    expect((await listProjects({ page: 1, pageSize: 20, tag: 'sensors' }, 'en-US')).list.map((card) => card.id)).toEqual([published.id]);

    await edit(user.id, { id: published.id, title: 'Old draft', licence: 'MIT', tags: ['sensors', { name: 'Thermocouple' }], publish: true });
    expect((await listProjects({ page: 1, pageSize: 20, tag: 'thermocouple' }, 'en-US')).list.map((card) => card.id)).toEqual([published.id]);
  });
});

describe('tag suggestions', () => {
  it('finds a tag by either name in the language typed, by slug and by alias, prefix before substring, more-used first', async () => {
    const { user } = await member();
    const mcu = await createTag('microcontrollers', 'Microcontrollers', '单片机');
    const arm = await createTag('arm-mcu', 'ARM microcontrollers', 'ARM 单片机');
    const esp = await createTag('esp32', 'ESP32', 'ESP32');
    await createTag('hidden-only', 'Micro hidden', '隐藏');
    await getDb().insert(tagAliases).values({ slug: 'avr', tagId: mcu.id });
    await createProject(user.id, {}, [arm.id]);
    await createProject(user.id, {}, [arm.id]);
    await createProject(user.id, {}, [mcu.id]);
    await createProject(user.id, { hiddenAt: new Date() }, [esp.id]);

    // Chinese finds the tag by its Chinese name, with its English one.
    const zh = await suggestTags('单片', 8);
    expect(zh[0]).toEqual({ slug: 'microcontrollers', nameEn: 'Microcontrollers', nameZh: '单片机', projectCount: 1 });
    expect(zh.map((tag) => tag.slug)).toEqual(['microcontrollers', 'arm-mcu']);
    // English: names starting with it first, then the rest by use.
    expect((await suggestTags('micro', 8)).map((tag) => tag.slug)).toEqual(['microcontrollers', 'hidden-only', 'arm-mcu']);
    expect((await suggestTags('controllers', 8)).map((tag) => [tag.slug, tag.projectCount])).toEqual([
      ['arm-mcu', 2],
      ['microcontrollers', 1],
    ]);
    // Slugs and aliases of merged tags find the tag; hidden projects are not counted.
    expect((await suggestTags('avr', 8)).map((tag) => tag.slug)).toEqual(['microcontrollers']);
    expect(await suggestTags('Esp32', 8)).toEqual([{ slug: 'esp32', nameEn: 'ESP32', nameZh: 'ESP32', projectCount: 0 }]);
    // LIKE wildcards are taken literally.
    expect(await suggestTags('%', 8)).toEqual([]);
    expect((await suggestTags('m', 1)).length).toBe(1);
  });
});
