import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { listProjects, listUserProjects, getProjectDetail, getTag, getTagDetail, listTagTree } from '../../src/server/services/projects/index.ts';
import { AppError } from '../../src/server/http/errors.ts';

useTestDatabase();

describe('project reading', () => {
  it('lists published projects newest first with owner and localized tags, and pages them', async () => {
    const { user } = await createUser({ nickname: 'Ada' });
    const parent = await createTag('mcu', 'Microcontrollers', '单片机');
    const child = await createTag('esp32', 'ESP32', 'ESP32 芯片', parent.id);
    const older = await createProject(user.id, { title: 'Older', publishedAt: new Date(Date.now() - 86_400_000) }, [child.id]);
    const newer = await createProject(user.id, { title: 'Newer' });
    await createProject(user.id, { title: 'Gone', status: 'deleted' });

    const page = await listProjects({ sort: 'newest', page: 1, pageSize: 20 }, 'zh-CN');
    expect(page.total).toBe(2);
    expect(page.list.map((card) => card.id)).toEqual([newer.publicId, older.publicId]);
    expect(page.list[1]!.tags).toEqual([{ slug: 'esp32', name: 'ESP32 芯片' }]);
    expect(page.list[0]!.owner.nickname).toBe('Ada');

    const second = await listProjects({ sort: 'newest', page: 2, pageSize: 1 }, 'en-US');
    expect(second.list.map((card) => card.title)).toEqual(['Older']);

    // a parent tag includes its children's projects
    const byTag = await listProjects({ tag: 'mcu', page: 1, pageSize: 20 }, 'en-US');
    expect(byTag.list.map((card) => card.title)).toEqual(['Older']);
    await expect(listProjects({ tag: 'missing', page: 1, pageSize: 20 }, 'en-US')).rejects.toMatchObject({ status: 404 });

    const tree = await listTagTree('en-US');
    expect(tree).toEqual([{ slug: 'mcu', name: 'Microcontrollers', children: [{ slug: 'esp32', name: 'ESP32', children: [] }] }]);
    expect((await getTagDetail('mcu', 'zh-CN')).projectCount).toBe(1);
    // A tag page reads its tag without counting the tag's projects (its list counts them).
    expect(await getTag('esp32', 'zh-CN')).toEqual({ slug: 'esp32', name: 'ESP32 芯片', nameEn: 'ESP32', nameZh: 'ESP32 芯片', parent: { slug: 'mcu', name: '单片机' }, children: [] });
  });

  it('answers a missing or deleted project with project_not_found', async () => {
    const { user } = await createUser();
    const deleted = await createProject(user.id, { status: 'deleted' });
    for (const id of ['nope', deleted.publicId]) {
      const error = await getProjectDetail(id, null, 'en-US').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 404, errorKey: 'project_not_found' });
    }
  });

  it('tells the viewer whether they own the project', async () => {
    const { user } = await createUser();
    const { user: other } = await createUser();
    const project = await createProject(user.id);
    expect((await getProjectDetail(project.publicId, user.id, 'en-US')).viewer.isOwner).toBe(true);
    expect((await getProjectDetail(project.publicId, other.id, 'en-US')).viewer).toEqual({ starred: false, liked: false, isOwner: false, hidden: false });
    expect((await listUserProjects(user.customUrl, { page: 1, pageSize: 10 }, 'en-US')).total).toBe(1);
  });
});
