import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiCall } from '../../src/lib/api-client.ts';
import type { DraftItem } from '../../src/lib/api-types.ts';
import { getT } from '../../src/lib/i18n.ts';
import { noticeText } from '../../src/lib/notice.ts';
import { createConfirmAction } from '../../src/stores/confirm-action.ts';
import { createDraftBox } from '../../src/stores/draft-box.ts';
import { createLogEditor } from '../../src/stores/log-editor.ts';
import { createMakeDelete } from '../../src/stores/make-delete.ts';
import { createProjectOwner } from '../../src/stores/project-owner.ts';

// The stores' API calls, answered by each test.
vi.mock('../../src/lib/api-client.ts', async (original) => ({ ...(await original<typeof import('../../src/lib/api-client.ts')>()), apiCall: vi.fn() }));
const api = vi.mocked(apiCall);
const t = getT('en-US');

/** A call the test answers by hand, counting how often it was made. */
function manualCall() {
  const calls: string[] = [];
  let settle: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  const act = (target: string) => {
    calls.push(target);
    return new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
  };
  return { calls, act, resolve: () => settle!.resolve(), reject: (error: unknown) => settle!.reject(error) };
}

describe('the confirm-then-act store', () => {
  it('acts only once confirmed, once even when confirm is pressed twice, and closes the question when done', async () => {
    const call = manualCall();
    const done: string[] = [];
    const deletion = createConfirmAction({ act: call.act, done: (target) => done.push(target) });
    expect(await deletion.confirm()).toBe(false);
    deletion.ask('draft-1');
    expect(deletion.$confirm.get()).toEqual({ asking: 'draft-1', busy: false });
    expect(call.calls).toEqual([]);

    const first = deletion.confirm();
    const second = deletion.confirm();
    expect(deletion.$confirm.get()).toEqual({ asking: 'draft-1', busy: true });
    // Neither cancelling nor asking about another closes a question whose answer is being acted on.
    deletion.cancel();
    deletion.ask('draft-2');
    expect(deletion.$confirm.get()).toEqual({ asking: 'draft-1', busy: true });
    call.resolve();
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(call.calls).toEqual(['draft-1']);
    expect(done).toEqual(['draft-1']);
    expect(deletion.$confirm.get()).toEqual({ asking: null, busy: false });
  });

  it('forgets the question when cancelled, without acting', async () => {
    const call = manualCall();
    const deletion = createConfirmAction({ act: call.act });
    deletion.ask('video-1');
    deletion.cancel();
    expect(deletion.$confirm.get()).toEqual({ asking: null, busy: false });
    expect(await deletion.confirm()).toBe(false);
    expect(call.calls).toEqual([]);
  });

  it('closes the question when the call fails, says why, and can be asked again', async () => {
    const call = manualCall();
    const failures: unknown[] = [];
    const done = vi.fn();
    const deletion = createConfirmAction({ act: call.act, done, failed: (error, target) => failures.push([target, error]) });
    deletion.ask('comment-1');
    const confirmed = deletion.confirm();
    const refused = new ApiError(403, 'forbidden', 'No');
    call.reject(refused);
    expect(await confirmed).toBe(false);
    expect(failures).toEqual([['comment-1', refused]]);
    expect(done).not.toHaveBeenCalled();
    expect(deletion.$confirm.get()).toEqual({ asking: null, busy: false });
    deletion.ask('comment-1');
    expect(deletion.$confirm.get().asking).toBe('comment-1');
  });

  describe('with one subject (a make, a project, the log being edited)', () => {
    it('asks about it without being told, and acts on it even when nothing was asked', async () => {
      const call = manualCall();
      const deletion = createConfirmAction({ subject: 'make-7', act: call.act });
      deletion.ask();
      expect(deletion.$confirm.get()).toEqual({ asking: 'make-7', busy: false });
      deletion.cancel();
      const confirmed = deletion.confirm();
      call.resolve();
      expect(await confirmed).toBe(true);
      expect(call.calls).toEqual(['make-7']);
    });

    it('stays busy when done leaves the page, so the question cannot be confirmed again before it has gone', async () => {
      const call = manualCall();
      const left = vi.fn();
      const deletion = createConfirmAction({ subject: 'project-1', act: call.act, leaves: true, done: left });
      deletion.ask();
      const confirmed = deletion.confirm();
      call.resolve();
      expect(await confirmed).toBe(true);
      expect(left).toHaveBeenCalledTimes(1);
      expect(deletion.$confirm.get()).toEqual({ asking: 'project-1', busy: true });
      expect(await deletion.confirm()).toBe(false);
      expect(call.calls).toEqual(['project-1']);
    });

    it('does nothing when there is no subject (a log not saved yet)', async () => {
      const call = manualCall();
      const deletion = createConfirmAction<string>({ subject: null, act: call.act });
      deletion.ask();
      expect(deletion.$confirm.get()).toEqual({ asking: null, busy: false });
      expect(await deletion.confirm()).toBe(false);
      expect(call.calls).toEqual([]);
    });
  });
});

describe('the stores that delete only after asking', () => {
  const assign = vi.fn();
  beforeEach(() => {
    api.mockReset();
    assign.mockReset();
    vi.stubGlobal('window', { location: { assign } });
  });
  afterEach(() => vi.unstubAllGlobals());

  const draft = (id: string, title: string): DraftItem => ({ id, status: 'draft', title, summary: '', cover: null, projectId: null, projectTitle: null, updatedAt: '2026-03-01T12:00:00.000Z' });

  it('the draft box deletes the confirmed draft once, even on a double click, and says so', async () => {
    api.mockResolvedValue({});
    const box = createDraftBox([draft('d1', 'Probe'), draft('d2', '')], 'Untitled draft');
    box.askDelete(draft('d2', ''));
    expect(box.$drafts.get()).toMatchObject({ deleting: { id: 'd2' }, busy: false });
    await Promise.all([box.confirmDelete(), box.confirmDelete()]);
    expect(api.mock.calls).toEqual([['temporary/del', { id: 'd2' }]]);
    expect(box.$drafts.get()).toMatchObject({ drafts: [{ id: 'd1' }], deleting: null, busy: false });
    expect(noticeText(box.$drafts.get().message!, t)).toContain('Untitled draft');
  });

  it('a make that could not be deleted stays, and the maker is told why', async () => {
    const refused = new ApiError(404, 'make_not_found', 'Gone');
    api.mockRejectedValue(refused);
    const deleted = vi.fn();
    const remove = createMakeDelete(7, deleted);
    remove.ask();
    expect(remove.$delete.get()).toEqual({ confirming: true, busy: false, error: null });
    await remove.confirm();
    expect(api).toHaveBeenCalledTimes(1);
    expect(deleted).not.toHaveBeenCalled();
    expect(remove.$delete.get()).toEqual({ confirming: false, busy: false, error: { error: refused } });
    remove.ask();
    expect(remove.$delete.get()).toEqual({ confirming: true, busy: false, error: null });
  });

  it('a deleted project sends the owner on once, the dialog busy until the page goes', async () => {
    api.mockResolvedValue({});
    const owner = createProjectOwner('p1', '/user/ada');
    owner.askDelete();
    await Promise.all([owner.confirmDelete(), owner.confirmDelete()]);
    expect(api.mock.calls).toEqual([['project/del', { id: 'p1' }]]);
    expect(assign.mock.calls).toEqual([['/user/ada']]);
    expect(owner.$owner.get()).toEqual({ confirming: true, busy: true, error: null });
  });

  it('the log editor deletes its log once and goes to the Logs tab; a failure reopens the form saying why', async () => {
    const log = { n: 3, title: 'Reflow', content: 'Hot air.' };
    const destination = (n: number | null) => (n === null ? '/d-p1/logs' : `/d-p1/log/${n}`);
    api.mockRejectedValueOnce(new ApiError(0, 'network', 'offline')).mockResolvedValue({ n: 3 });
    const editor = createLogEditor({ projectId: 'p1', log, destination, t });
    editor.askDelete();
    expect(await editor.confirmDelete()).toBe(false);
    expect(editor.$editor.get()).toMatchObject({ confirmingDelete: false, busy: null, status: { key: 'logs.editor.deleteFailed' } });
    editor.askDelete();
    expect(editor.$editor.get()).toMatchObject({ confirmingDelete: true, busy: null, status: null });
    const confirmed = editor.confirmDelete();
    expect(editor.$editor.get().busy).toBe('delete');
    expect(await Promise.all([confirmed, editor.confirmDelete()])).toEqual([true, false]);
    expect(api.mock.calls.map(([path]) => path)).toEqual(['log/del', 'log/del']);
    expect(assign.mock.calls).toEqual([['/d-p1/logs']]);
    expect(editor.$editor.get()).toMatchObject({ confirmingDelete: true, busy: 'delete' });
  });
});
