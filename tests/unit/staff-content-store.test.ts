import { describe, expect, it } from 'vitest';
import type { StaffTag } from '../../src/lib/contract/schemas/staff.ts';
import { bannerInput, bannerProblems, createBannerEditor, EMPTY_BANNER, isoToLocal, localToIso } from '../../src/stores/staff-banners.ts';
import { collectionInput, collectionProblems, createCollectionEditor, EMPTY_COLLECTION } from '../../src/stores/staff-collections.ts';
import { moveItem, projectIdFrom } from '../../src/stores/staff-list.ts';
import { createPinEditor } from '../../src/stores/staff-recommendations.ts';
import { applyTagChange, createTagEditor, parentChoices } from '../../src/stores/staff-tags.ts';

describe('the banner form', () => {
  const form = { ...EMPTY_BANNER, image: '/files/images/ab/x.webp', link: '/collection/keyboards', titleEn: 'Keyboards', titleZh: '键盘' };

  it('checks what the server checks before sending', () => {
    expect(bannerProblems(form)).toEqual({});
    expect(bannerProblems(EMPTY_BANNER)).toEqual({ image: 'required', titleEn: 'required', titleZh: 'required', link: 'required' });
    expect(bannerProblems({ ...form, link: 'javascript:alert(1)' })).toEqual({ link: 'staff_link' });
    expect(bannerProblems({ ...form, link: '//evil.example' })).toEqual({ link: 'staff_link' });
    expect(bannerProblems({ ...form, startsAt: '2026-12-02T09:00', endsAt: '2026-12-01T09:00' })).toEqual({ endsAt: 'ends_before_start' });
  });

  it('sends local times as moments, and no limit as null', () => {
    const input = bannerInput({ ...form, startsAt: '2026-12-01T09:00', sort: '2' });
    expect(input).toMatchObject({ image: form.image, sort: 2, startsAt: new Date('2026-12-01T09:00').toISOString(), endsAt: null });
    expect(input).not.toHaveProperty('id');
    expect(bannerInput({ ...form, id: 7 })).toHaveProperty('id', 7);
    expect(isoToLocal(localToIso('2026-12-01T09:30'))).toBe('2026-12-01T09:30');
    expect(localToIso('')).toBeNull();
  });

  it('refuses an invalid form without calling the server, naming the fields', async () => {
    const editor = createBannerEditor([]);
    editor.setField('titleEn', 'Only English');
    expect(await editor.save()).toBe(false);
    expect(editor.$list.get()).toMatchObject({ busy: false, notice: { key: 'admin.fixErrors', alert: true }, fields: { image: 'required', titleZh: 'required' } });
  });

  it('opens a banner for editing in local time and empties the form again', () => {
    const editor = createBannerEditor([]);
    const banner = { id: 3, image: '/files/x.webp', link: '/x', titleEn: 'A', titleZh: 'B', sort: 1, startsAt: '2026-12-01T01:00:00.000Z', endsAt: null, state: 'scheduled' as const };
    editor.edit(banner);
    expect(editor.$editor.get().form).toMatchObject({ id: 3, sort: '1', startsAt: isoToLocal(banner.startsAt), endsAt: '' });
    editor.edit(null);
    expect(editor.$editor.get().form).toEqual(EMPTY_BANNER);
  });

  it('refuses an image over 10 MB before cropping', () => {
    const editor = createBannerEditor([]);
    editor.pickImage(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.png'));
    expect(editor.$editor.get()).toMatchObject({ cropSource: null, imageError: { error: { errorKey: 'too_large' } } });
  });
});

describe('lists and projects', () => {
  it('moves an item within its list', () => {
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, 5)).toEqual(['b', 'c', 'a']);
  });

  it('reads a project id from the id or its page address', () => {
    expect(projectIdFrom(' abc123 ')).toBe('abc123');
    expect(projectIdFrom('https://copperhub.example/d-abc123')).toBe('abc123');
    expect(projectIdFrom('/m/d-abc123?from=x')).toBe('abc123');
    expect(projectIdFrom('not an id')).toBeNull();
  });

  it('refuses a project it cannot read and a bad place, without calling the server', async () => {
    const pins = createPinEditor([]);
    expect(await pins.pin('not an id', '')).toBe(false);
    expect(pins.$list.get().notice).toEqual({ key: 'admin.projectIdInvalid', alert: true });
    expect(await pins.pin('abc123', '0')).toBe(false);
    expect(pins.$list.get().notice).toEqual({ key: 'admin.rankInvalid', alert: true });
    const collections = createCollectionEditor([]);
    expect(await collections.addProject('clocks', 'not an id')).toBe(false);
  });

  it('checks a new collection’s name and titles', async () => {
    expect(collectionProblems({ ...EMPTY_COLLECTION, name: 'Clocks and Watches', titleEn: 'x', titleZh: 'x' })).toEqual({ name: 'slug' });
    const editor = createCollectionEditor([]);
    expect(await editor.save()).toBe(false);
    expect(editor.$list.get().fields).toEqual({ name: 'required', titleEn: 'required', titleZh: 'required' });
  });

  const clocks = { id: 4, name: 'clocks', titleEn: 'Clocks', titleZh: '时钟', descriptionEn: 'Desk clocks', descriptionZh: '桌面时钟', cover: '/files/images/ab/c.jpg', featured: false, sort: 3, projects: [] };

  it('opens a collection for editing with its current values, and sends them back with its id', () => {
    const editor = createCollectionEditor([clocks]);
    editor.edit(clocks);
    const { form } = editor.$form.get();
    expect(form).toEqual({ id: 4, name: 'clocks', titleEn: 'Clocks', titleZh: '时钟', descriptionEn: 'Desk clocks', descriptionZh: '桌面时钟', cover: '/files/images/ab/c.jpg', featured: false, sort: 3 });
    editor.setField('titleEn', '  Wall clocks ');
    // Its place and cover go back unchanged; a new collection is sent without an id.
    expect(collectionInput(editor.$form.get().form)).toEqual({ id: 4, name: 'clocks', titleEn: 'Wall clocks', titleZh: '时钟', descriptionEn: 'Desk clocks', descriptionZh: '桌面时钟', cover: '/files/images/ab/c.jpg', featured: false, sort: 3 });
    expect(collectionInput({ ...EMPTY_COLLECTION, name: 'Lamps', titleEn: 'Lamps', titleZh: '灯' })).not.toHaveProperty('id');
    editor.edit(null);
    expect(editor.$form.get().form).toEqual(EMPTY_COLLECTION);
  });

  it('refuses an edit with an emptied title or a description too long, naming the fields, without calling the server', async () => {
    const editor = createCollectionEditor([clocks]);
    editor.edit(clocks);
    editor.setField('titleZh', ' ');
    editor.setField('descriptionEn', 'x'.repeat(501));
    expect(await editor.save()).toBe(false);
    expect(editor.$list.get()).toMatchObject({ busy: false, notice: { key: 'admin.fixErrors', alert: true }, fields: { titleZh: 'required', descriptionEn: 'too_big' } });
    // The form keeps what was typed, and the list still shows the collection as it was.
    expect(editor.$form.get().form).toMatchObject({ id: 4, titleZh: ' ' });
    expect(editor.$list.get().items[0]!.titleZh).toBe('时钟');
  });
});

describe('the tag tree', () => {
  const tag = (id: number, slug: string, parent: string | null, curated = true): StaffTag => ({ id, slug, nameEn: slug, nameZh: slug, parent, curated, projectCount: 0, aliases: [] });
  const tree = [tag(1, 'power', null), tag(2, 'buck', 'power'), tag(3, 'audio', null)];

  it('offers only top-level parents other than the tag, and none for a tag with children', () => {
    expect(parentChoices(tree, 'buck').map((t) => t.slug)).toEqual(['power', 'audio']);
    expect(parentChoices(tree, 'audio').map((t) => t.slug)).toEqual(['power']);
    expect(parentChoices(tree, 'power')).toEqual([]);
  });

  it('shows a move and a merge in the tree at once', () => {
    expect(applyTagChange(tree, { ...tree[1]!, parent: 'audio' }).map((t) => `${t.parent ?? ''}/${t.slug}`)).toEqual(['/power', '/audio', 'audio/buck']);
    const merged = applyTagChange(tree, { ...tree[2]!, aliases: ['power'] }, { from: 'power', childrenTo: 'audio' });
    expect(merged.map((t) => `${t.parent ?? ''}/${t.slug}`)).toEqual(['/audio', 'audio/buck']);
  });

  it('keeps members\' tags after the tree, never offers them as parents, and files one into the tree once staff move it', () => {
    const withMembers = [...tree, tag(4, '单片机', null, false)];
    expect(parentChoices(withMembers, 'buck').map((t) => t.slug)).toEqual(['power', 'audio']);
    expect(applyTagChange(withMembers, { ...tree[2]!, nameEn: 'Sound' }).map((t) => t.slug)).toEqual(['power', 'buck', 'audio', '单片机']);
    const placed = applyTagChange(withMembers, { ...withMembers[3]!, parent: 'power', curated: true });
    expect(placed.map((t) => `${t.parent ?? ''}/${t.slug}`)).toEqual(['/power', 'power/buck', 'power/单片机', '/audio']);
  });

  it('refuses a merge into itself and a tag without names, without calling the server', async () => {
    const editor = createTagEditor(tree);
    expect(await editor.merge('buck', 'buck')).toBe(false);
    expect(editor.$list.get().fields).toEqual({ into: 'tag_merge_self' });
    expect(await editor.create({ slug: 'Not A Slug', nameEn: '', nameZh: 'x', parent: null })).toBe(false);
    expect(editor.$list.get().fields).toEqual({ slug: 'slug', nameEn: 'required' });
  });
});
