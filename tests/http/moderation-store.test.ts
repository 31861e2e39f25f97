import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '../../src/server/db/client.ts';
import { projects, reports } from '../../src/server/db/schema/index.ts';
import { listReports } from '../../src/server/services/staff/index.ts';
import { useApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { loadIslandModules, pageBrowser } from '../helpers/island-client.ts';

/**
 * The report dialog's store and the moderation queue's store, as a page's islands run them: in
 * the browser's place, with its session cookie, against the built site.
 */
const app = useApp();

const loadStores = async () => ({
  ...(await import('../../src/stores/report.ts')),
  ...(await import('../../src/stores/moderation-queue.ts')),
});
let stores: Awaited<ReturnType<typeof loadStores>>;
let browser: ReturnType<typeof pageBrowser>;

beforeAll(async () => {
  browser = pageBrowser(app.origin());
  vi.stubGlobal('fetch', browser.fetch);
  vi.stubGlobal('location', new URL(app.origin()));
  stores = await loadIslandModules(app.origin(), loadStores);
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('$report (the Report dialog)', () => {
  it('asks for a reason, and a note with "other", before sending; then thanks, and a second report is thanked the same', async () => {
    const author = await createUser({ nickname: 'Store Author' });
    const reader = await createUser({ nickname: 'Store Reader' });
    const project = await createProject(author.user.id, { title: 'Store board' });
    browser.setSession(reader.token);

    const report = stores.createReport('project', project.publicId);
    report.openDialog();
    expect(await report.send()).toBe(false);
    expect(report.$report.get().error).toEqual({ key: 'report.chooseReason' });
    report.chooseReason('other');
    expect(await report.send()).toBe(false);
    expect(report.$report.get().error).toEqual({ field: 'required', key: 'report.noteRequired' });
    report.setNote('  Copied from my repository  ');
    expect(await report.send()).toBe(true);
    expect(report.$report.get()).toMatchObject({ sent: true, open: false, busy: false, error: null });
    const [row] = await getDb().select().from(reports).where(eq(reports.targetId, project.publicId));
    expect(row).toMatchObject({ reason: 'other', note: 'Copied from my repository', reporterId: reader.user.id });

    const again = stores.createReport('project', project.publicId);
    again.openDialog();
    again.chooseReason('spam');
    expect(await again.send()).toBe(true);
    expect(await getDb().select().from(reports).where(eq(reports.targetId, project.publicId))).toHaveLength(1);
  });

  it('shows the server’s refusal: a target that is gone, a guest', async () => {
    const reader = await createUser({ nickname: 'Store Reader 2' });
    browser.setSession(reader.token);
    const gone = stores.createReport('video', 'nothing');
    gone.openDialog();
    gone.chooseReason('abuse');
    expect(await gone.send()).toBe(false);
    expect(gone.$report.get().error).toMatchObject({ error: { errorKey: 'video_not_found' } });
    browser.setSession(null);
    const guest = stores.createReport('user', 'someone');
    guest.openDialog();
    guest.chooseReason('spam');
    expect(await guest.send()).toBe(false);
    expect(guest.$report.get().error).toMatchObject({ error: { errorKey: 'unauthorized' } });
  });
});

describe('$queue (the moderation queue)', () => {
  it('hides a target with a note, drops every report on it from the queue, restores it, and shows a refusal', async () => {
    const author = await createUser({ nickname: 'Queue Author' });
    const readers = [await createUser({ nickname: 'Queue Reader A' }), await createUser({ nickname: 'Queue Reader B' })];
    const moderator = await createUser({ nickname: 'Queue Mod', role: 'moderator' });
    const project = await createProject(author.user.id, { title: 'Queued board' });
    const other = await createProject(author.user.id, { title: 'Other queued board' });
    for (const reader of readers) {
      browser.setSession(reader.token);
      const report = stores.createReport('project', project.publicId);
      report.chooseReason('spam');
      await report.send();
    }
    const otherReport = stores.createReport('project', other.publicId);
    otherReport.chooseReason('abuse');
    await otherReport.send();

    browser.setSession(moderator.token);
    const page = await listReports({ page: 1, pageSize: 50 });
    const mine = page.list.filter((item) => [project.publicId, other.publicId].includes(item.targetId));
    const queue = stores.createModerationQueue(mine);
    const first = mine.find((item) => item.targetId === project.publicId)!;
    queue.setDraft(first.id, { note: 'Obvious spam' });
    expect(await queue.resolve(first.id, 'hide')).toBe(true);
    const state = queue.$queue.get();
    expect(state.reports.map((item) => item.targetId)).toEqual([other.publicId]);
    expect(state.notices[first.id]).toEqual({ key: 'admin.reports.done.hide', values: { title: 'Queued board' } });
    expect((await getDb().select().from(projects).where(eq(projects.id, project.id)))[0]!.hiddenAt).not.toBeNull();

    // Another member of staff handled the other report meanwhile: the queue says so.
    const second = queue.$queue.get().reports[0]!;
    await app.request('/api/admin/report/resolve', { method: 'POST', body: { id: second.id, action: 'dismiss' }, token: moderator.token, headers: { origin: app.origin() } });
    expect(await queue.resolve(second.id, 'hide')).toBe(false);
    expect(queue.$queue.get().notices[second.id]).toMatchObject({ error: { errorKey: 'report_closed' } });

    // A hidden target still listed (a report opened after it was hidden) can be restored from the queue.
    const late = await createUser({ nickname: 'Queue Reader C' });
    await app.request('/api/report/submit', { method: 'POST', body: { kind: 'project', id: project.publicId, reason: 'spam' }, token: late.token, headers: { origin: app.origin() } }).then((r) => expect(r.status).toBe(404));
    const staffView = stores.createModerationQueue([{ ...first, status: 'open', target: { ...first.target!, hidden: true } }]);
    expect(await staffView.restore(first.id)).toBe(true);
    expect(staffView.$queue.get().reports[0]!.target).toMatchObject({ hidden: false });
    expect((await getDb().select().from(projects).where(eq(projects.id, project.id)))[0]!.hiddenAt).toBeNull();
  });
});
