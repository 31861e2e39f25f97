import { describe, expect, it } from 'vitest';
import { COLLECTION_TITLE_MAX } from '../../../src/lib/collection-rules.ts';
import { createCardSaveMenus, createSaveMenu, menuRows, titleProblem, withChecked } from '../../../src/stores/save-to-collection.ts';
import { createOwnerTools, detailsProblem, reordered, targetPosition } from '../../../src/stores/member-collection.ts';

const rows = menuRows([
  { slug: 'radios', title: 'Radios', public: true, hasProject: true },
  { slug: 'secret', title: 'Secret', public: false },
]);

describe('the “Save to collection” menu', () => {
  it('ticks the collections that hold the project, and one box at a time changes', () => {
    expect(rows).toEqual([
      { slug: 'radios', title: 'Radios', public: true, checked: true },
      { slug: 'secret', title: 'Secret', public: false, checked: false },
    ]);
    expect(withChecked(rows, 'secret', true).map((row) => row.checked)).toEqual([true, true]);
    expect(withChecked(rows, 'radios', false).map((row) => row.checked)).toEqual([false, false]);
  });

  it('asks for a name within the server’s limit before making a collection', () => {
    expect(titleProblem('   ')).toEqual({ field: 'required', key: 'memberCollections.titleRequired' });
    expect(titleProblem('x'.repeat(COLLECTION_TITLE_MAX + 1))).toEqual({ field: 'too_big' });
    expect(titleProblem(' Radios ')).toBeNull();
  });

  it('opens and closes, and says why the collections could not be loaded', async () => {
    const menu = createSaveMenu({ projectId: 'p1', viewerUrl: 'lena' });
    menu.toggle();
    expect(menu.$menu.get()).toMatchObject({ open: true, loading: true });
    // No server in a unit test: the call fails like a dropped connection.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(menu.$menu.get()).toMatchObject({ open: true, loading: false, loaded: false, message: { error: { errorKey: 'network' }, key: 'memberCollections.loadFailed' } });
    menu.close();
    expect(menu.$menu.get()).toMatchObject({ open: false, message: null });
  });

  it('does not send an empty name, and keeps the form open when the collection could not be made', async () => {
    const menu = createSaveMenu({ projectId: 'p1', viewerUrl: 'lena' });
    menu.startNew();
    await menu.createCollection();
    expect(menu.$menu.get()).toMatchObject({ creating: true, pending: null, message: { field: 'required' } });
    menu.typeTitle('Radios');
    expect(menu.$menu.get().message).toBeNull();
    await menu.createCollection();
    expect(menu.$menu.get()).toMatchObject({ creating: true, newTitle: 'Radios', pending: null, collections: [], message: { error: { errorKey: 'network' } } });
  });
});

describe('the owner’s tools on a collection', () => {
  const entries = [
    { id: 'a', title: 'Alpha' },
    { id: 'b', title: 'Bravo' },
    { id: 'c', title: 'Charlie' },
  ];

  it('moves up and down within the list, never past its ends', () => {
    expect(targetPosition(entries, 'b', -1)).toBe(0);
    expect(targetPosition(entries, 'b', 1)).toBe(2);
    expect(targetPosition(entries, 'a', -1)).toBeNull();
    expect(targetPosition(entries, 'c', 1)).toBeNull();
    expect(targetPosition(entries, 'zz', 1)).toBeNull();
  });

  it('follows the order the server answered, keeping the titles', () => {
    expect(reordered(entries, ['c', 'a'])).toEqual([
      { id: 'c', title: 'Charlie' },
      { id: 'a', title: 'Alpha' },
    ]);
  });

  it('checks the details by the server’s rules', () => {
    expect(detailsProblem('', 'x')).toEqual({ field: 'required', key: 'memberCollections.titleRequired' });
    expect(detailsProblem('Fine', 'x'.repeat(5000))).toEqual({ field: 'too_big' });
    expect(detailsProblem('Fine', '')).toBeNull();
  });

  it('keeps the order and says why when a move is refused, and reloads after organising only when something changed', async () => {
    let reloads = 0;
    const tools = createOwnerTools({ slug: 'radios', title: 'Radios', description: '', public: true, entries, afterDeleteHref: '/user/lena/collections' }, () => (reloads += 1));
    tools.open('organise');
    await tools.move('b', -1);
    expect(tools.$tools.get()).toMatchObject({ entries, busy: false, changed: false, message: { error: { errorKey: 'network' } } });
    tools.close();
    expect(reloads).toBe(0);
    // First can't go up: nothing is sent.
    await tools.move('a', -1);
    expect(tools.$tools.get().busy).toBe(false);
  });

  it('does not save an empty title, and keeps what was typed', async () => {
    let reloads = 0;
    const tools = createOwnerTools({ slug: 'radios', title: 'Radios', description: 'Old', public: true, entries, afterDeleteHref: '/' }, () => (reloads += 1));
    tools.open('details');
    tools.typeTitle(' ');
    await tools.saveDetails();
    expect(tools.$tools.get()).toMatchObject({ panel: 'details', draftTitle: ' ', title: 'Radios', message: { field: 'required' } });
    tools.typeTitle('New name');
    await tools.saveDetails();
    expect(tools.$tools.get()).toMatchObject({ panel: 'details', title: 'Radios', busy: false, message: { error: { errorKey: 'network' } } });
    expect(reloads).toBe(0);
  });
});

describe('the save menus of a page’s cards', () => {
  it('open one project’s menu at a time, and keep each project’s menu for its next opening', () => {
    const menus = createCardSaveMenus({ viewerUrl: 'lena' });
    expect(menus.$active.get()).toBeNull();
    menus.open('p1');
    const first = menus.$active.get()!;
    expect(first.projectId).toBe('p1');
    expect(first.menu.$menu.get().open).toBe(true);
    menus.open('p2');
    expect(first.menu.$menu.get().open).toBe(false);
    expect(menus.$active.get()!.projectId).toBe('p2');
    expect(menus.$active.get()!.menu.$menu.get().open).toBe(true);
    menus.open('p1');
    expect(menus.$active.get()!.menu).toBe(first.menu);
    expect(first.menu.$menu.get().open).toBe(true);
  });
});
