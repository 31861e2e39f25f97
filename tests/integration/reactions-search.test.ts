import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createTag, createUser } from '../helpers/factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { projects } from '../../src/server/db/schema/index.ts';
import { setProjectLike, setProjectStar, listStarredProjects, getProjectDetail, recordProjectView, visitorKey, highlightText, parseQuery, searchProjects } from '../../src/server/services/projects/index.ts';

useTestDatabase();

const starCount = async (id: number) => (await getDb().select({ n: projects.starCount }).from(projects).where(eq(projects.id, id)))[0]!.n;

describe('stars and likes', () => {
  it('counts a star once however often it is pressed, and removes it on value false', async () => {
    const { user: owner } = await createUser();
    const { user: fan } = await createUser();
    const { user: other } = await createUser();
    const project = await createProject(owner.id);

    const first = await setProjectStar(fan.id, project.publicId, true);
    expect(first).toMatchObject({ active: true, count: 1, changed: true, project: { ownerId: owner.id } });
    const second = await setProjectStar(fan.id, project.publicId, true);
    expect(second).toMatchObject({ active: true, count: 1, changed: false });
    expect(await starCount(project.id)).toBe(1);

    // concurrent presses by different users stay exact
    await Promise.all([setProjectStar(other.id, project.publicId, true), setProjectStar(owner.id, project.publicId, true)]);
    expect(await starCount(project.id)).toBe(3);

    expect(await setProjectStar(fan.id, project.publicId, false)).toMatchObject({ active: false, count: 2, changed: true });
    expect(await setProjectStar(fan.id, project.publicId, false)).toMatchObject({ active: false, count: 2, changed: false });
    expect((await getProjectDetail(project.publicId, fan.id, 'en-US')).viewer.starred).toBe(false);
    expect((await getProjectDetail(project.publicId, other.id, 'en-US')).viewer.starred).toBe(true);
    expect((await listStarredProjects(other.customUrl, { page: 1, pageSize: 10 }, 'en-US')).list.map((card) => card.id)).toEqual([project.publicId]);

    expect(await setProjectLike(fan.id, project.publicId, true)).toMatchObject({ active: true, count: 1, changed: true });
    expect(await setProjectLike(fan.id, project.publicId, true)).toMatchObject({ count: 1, changed: false });
    expect((await getProjectDetail(project.publicId, fan.id, 'en-US')).counts).toMatchObject({ likes: 1, stars: 2 });
  });

  it('refuses reactions on missing or deleted projects', async () => {
    const { user } = await createUser();
    const gone = await createProject(user.id, { status: 'deleted' });
    await expect(setProjectStar(user.id, gone.publicId, true)).rejects.toMatchObject({ status: 404, errorKey: 'project_not_found' });
    await expect(setProjectLike(user.id, 'missing', true)).rejects.toMatchObject({ status: 404 });
  });
});

describe('views', () => {
  it('counts one view per visitor per day and none for crawlers', async () => {
    const { user } = await createUser();
    const project = await createProject(user.id);
    const guest = visitorKey({ userId: null, ip: '203.0.113.9', userAgent: 'Mozilla/5.0 Firefox/140', day: '2026-01-01' })!;
    expect(guest).toMatch(/^g:/);
    expect(guest).not.toContain('203.0.113.9');
    expect(visitorKey({ userId: null, ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)', day: '2026-01-01' })).toBeNull();
    expect(await recordProjectView(project.publicId, guest, '2026-01-01')).toBe(true);
    expect(await recordProjectView(project.publicId, guest, '2026-01-01')).toBe(false);
    expect(await recordProjectView(project.publicId, guest, '2026-01-02')).toBe(true);
    expect(await recordProjectView(project.publicId, `u:${user.id}`, '2026-01-01')).toBe(true);
    expect((await getProjectDetail(project.publicId, null, 'en-US')).counts.views).toBe(3);
  });
});

describe('search', () => {
  it('splits mixed queries into CJK runs and words', () => {
    expect(parseQuery('ESP32 开发板 with USB-C')).toEqual({ words: ['esp32', 'with', 'usb-c'], cjk: ['开发板'], syntax: null });
    expect(parseQuery('"usb power" -lora').syntax).toBe('"usb power" -lora');
    expect(parseQuery('!!! ???')).toEqual({ words: [], cjk: [], syntax: null });
  });

  it('escapes before marking matches', () => {
    expect(highlightText('<i>Boards</i> & more', '<i>\u0001Boards\u0002</i> & more', [])).toBe('&lt;i&gt;<mark>Boards</mark>&lt;/i&gt; &amp; more');
    expect(highlightText('开源硬件开源', null, ['开源'])).toBe('<mark>开源</mark>硬件<mark>开源</mark>');
  });

  it('finds English words by stem and prefix, Chinese by substring, mixed queries, within a tag, sorted', async () => {
    const { user } = await createUser();
    const audio = await createTag('audio-s', 'Audio', '音频');
    const old = new Date(Date.now() - 10 * 86_400_000);
    const amp = await createProject(user.id, { title: 'Class-D amplifier', summary: 'Amplifying speakers', searchText: 'An amplifier driving two speakers from an STM32F103', starCount: 1, publishedAt: old }, [audio.id]);
    const mic = await createProject(user.id, { title: '开源麦克风前置放大器', summary: 'Microphone preamplifier', searchText: '低噪声 麦克风 放大器 speaker monitor', starCount: 9 });
    const clock = await createProject(user.id, { title: 'Nixie clock', summary: 'A clock', searchText: 'Tubes and a high-voltage supply' });
    await createProject(user.id, { title: 'Deleted speaker', status: 'deleted', searchText: 'speaker' });

    const ids = async (q: string, extra: { tag?: string; sort?: 'relevance' | 'newest' | 'stars' } = {}) =>
      (await searchProjects({ q, page: 1, pageSize: 20, ...extra }, 'en-US')).list.map((card) => card.id);

    expect(await ids('speakers')).toEqual(expect.arrayContaining([amp.publicId, mic.publicId]));
    expect((await ids('speakers')).length).toBe(2);
    expect(await ids('stm32')).toEqual([amp.publicId]); // prefix of STM32F103
    expect(await ids('麦克风')).toEqual([mic.publicId]);
    expect(await ids('放大器 speaker')).toEqual([mic.publicId]); // both parts must match
    expect(await ids('放大器 tubes')).toEqual([]);
    expect(await ids('speaker', { tag: 'audio-s' })).toEqual([amp.publicId]);
    expect(await ids('speaker', { sort: 'stars' })).toEqual([mic.publicId, amp.publicId]);
    expect(await ids('speaker', { sort: 'newest' })).toEqual([mic.publicId, amp.publicId]);
    // the title match ranks first by relevance
    expect((await ids('amplifier'))[0]).toBe(amp.publicId);
    expect(await ids('high-voltage')).toEqual([clock.publicId]);
    expect(await ids('"usb power"')).toEqual([]);
    expect(await ids('the')).toEqual([]);

    const page = await searchProjects({ q: 'amplifier', page: 1, pageSize: 1 }, 'en-US');
    expect(page.total).toBe(1);
    expect(page.list[0]!.highlight.title).toBe('Class-D <mark>amplifier</mark>');
    // past the last page: no cards, the total still told
    expect(await searchProjects({ q: 'speaker', page: 5, pageSize: 10 }, 'en-US')).toMatchObject({ list: [], total: 2, page: 5 });
    // one- and two-character Chinese runs (no trigram) still match
    expect(await ids('麦')).toEqual([mic.publicId]);
    expect(await ids('噪声')).toEqual([mic.publicId]);
  });
});
