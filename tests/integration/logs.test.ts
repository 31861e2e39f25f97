import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../helpers/db.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { createUpload } from '../helpers/project-factories.ts';
import { getDb } from '../../src/server/db/client.ts';
import { activities, comments, messages, projectLogs, projects } from '../../src/server/db/schema/index.ts';
import { deleteLog, getLogView, listLogs, saveLog, deleteComment, listComments, recountComments, replyToComment, submitComment } from '../../src/server/services/community/index.ts';
import { deleteProject } from '../../src/server/services/projects/index.ts';
import { listMessages } from '../../src/server/services/notifications/index.ts';
import { listReports, submitReport } from '../../src/server/services/staff/index.ts';
import { RATE_LIMITS, findPublishedProject } from '../../src/server/services/core/index.ts';
import { LOG_BODY_MAX, LOG_TITLE_MAX } from '../../src/lib/logs.ts';
import type { CommentThread } from '../../src/lib/conversation-types.ts';

useTestDatabase();

async function ownedProject() {
  const { user: owner } = await createUser();
  const project = await createProject(owner.id);
  return { owner, project };
}

const logCountOf = async (projectId: number) => (await getDb().select({ n: projects.logCount }).from(projects).where(eq(projects.id, projectId)))[0]!.n;
const logRows = (projectId: number) => getDb().select().from(projectLogs).where(eq(projectLogs.projectId, projectId));

describe('posting build logs', () => {
  it('numbers a project’s logs 1, 2, 3 and never gives a deleted one’s number again; logCount follows', async () => {
    const { owner, project } = await ownedProject();
    const first = await saveLog(owner.id, { id: project.publicId, title: 'Schematic done', content: 'The power tree is drawn.' });
    const second = await saveLog(owner.id, { id: project.publicId, title: 'Boards arrived', content: 'Five boards from the fab.' });
    expect([first.n, second.n]).toEqual([1, 2]);
    expect(second.path).toBe(`/d-${project.publicId}/log/2`);
    expect(await logCountOf(project.id)).toBe(2);

    await deleteLog(owner.id, { id: project.publicId, n: 2 });
    expect(await logCountOf(project.id)).toBe(1);
    const third = await saveLog(owner.id, { id: project.publicId, title: 'Reflow', content: 'All parts placed.' });
    expect(third.n).toBe(3);
    expect(await logCountOf(project.id)).toBe(2);

    const page = await listLogs({ id: project.publicId, page: 1, pageSize: 10 }, null);
    expect(page.list.map((log) => log.title)).toEqual(['Reflow', 'Schematic done']);
    expect(page.total).toBe(2);
    await expect(getLogView(project.publicId, await findPublishedProject(project.publicId), 2, null)).rejects.toMatchObject({ status: 404, errorKey: 'log_not_found' });
  });

  it('renders and sanitizes the body as a description is, keeping uploaded images with their sizes', async () => {
    const { owner, project } = await ownedProject();
    const image = await createUpload(owner.id, { purpose: 'image', name: 'reflow.png', mime: 'image/png', data: 'png', width: 800, height: 600 });
    const log = await saveLog(owner.id, {
      id: project.publicId,
      title: '  Reflow\n day  ',
      content: `**Hot** air <script>alert(1)</script><img src=x onerror="alert(2)">\n\n![board](${image.url})\n\n[bad](javascript:alert(3))`,
    });
    expect(log.title).toBe('Reflow day');
    expect(log.contentHtml).toContain('<strong>Hot</strong>');
    expect(log.contentHtml).not.toMatch(/<script|onerror|href="javascript:/i);
    expect(log.contentHtml).toContain(`src="${image.url}"`);
    expect(log.contentHtml).toContain('width="800"');
    expect(log.excerpt).toContain('Hot air');
  });

  it('lets the owner edit a log in place: same number, new text, no second activity', async () => {
    const { owner, project } = await ownedProject();
    await saveLog(owner.id, { id: project.publicId, title: 'Frist try', content: 'Typo in the title.' });
    const edited = await saveLog(owner.id, { id: project.publicId, n: 1, title: 'First try', content: 'Fixed.' });
    expect(edited).toMatchObject({ n: 1, title: 'First try', content: 'Fixed.' });
    expect((await logRows(project.id)).length).toBe(1);
    const recorded = await getDb().select().from(activities).where(and(eq(activities.projectId, project.id), eq(activities.kind, 'log')));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.title).toBe('First try');
    await expect(saveLog(owner.id, { id: project.publicId, n: 9, title: 'Nope', content: 'No such log.' })).rejects.toMatchObject({ status: 404, errorKey: 'log_not_found' });
  });

  it('records a log activity for followers with its title and address, and forgets it when the log is deleted', async () => {
    const { owner, project } = await ownedProject();
    const log = await saveLog(owner.id, { id: project.publicId, title: 'Firmware boots', content: 'Blinky works.' });
    const [activity] = await getDb().select().from(activities).where(eq(activities.projectId, project.id));
    expect(activity).toMatchObject({ kind: 'log', actorId: owner.id, title: 'Firmware boots', path: `/d-${project.publicId}/log/1` });
    const [row] = await logRows(project.id);
    expect(activity!.refId).toBe(row!.id);
    await deleteLog(owner.id, { id: project.publicId, n: log.n });
    expect(await getDb().select().from(activities).where(eq(activities.projectId, project.id))).toHaveLength(0);
  });
});

describe('what is refused, changing nothing', () => {
  it('refuses anyone but the owner, translated as log_owner_only', async () => {
    const { owner, project } = await ownedProject();
    const { user: other } = await createUser();
    await saveLog(owner.id, { id: project.publicId, title: 'Mine', content: 'My log.' });
    await expect(saveLog(other.id, { id: project.publicId, title: 'Not mine', content: 'Sneaky.' })).rejects.toMatchObject({ status: 403, errorKey: 'log_owner_only' });
    await expect(saveLog(other.id, { id: project.publicId, n: 1, title: 'Defaced', content: 'Sneaky.' })).rejects.toMatchObject({ status: 403, errorKey: 'log_owner_only' });
    await expect(deleteLog(other.id, { id: project.publicId, n: 1 })).rejects.toMatchObject({ status: 403, errorKey: 'log_owner_only' });
    const rows = await logRows(project.id);
    expect(rows.map((row) => [row.title, row.deletedAt])).toEqual([['Mine', null]]);
  });

  it('refuses a log on a deleted project', async () => {
    const { owner, project } = await ownedProject();
    await deleteProject(owner.id, project.publicId);
    await expect(saveLog(owner.id, { id: project.publicId, title: 'Too late', content: 'Gone.' })).rejects.toMatchObject({ status: 404, errorKey: 'project_not_found' });
    expect(await logRows(project.id)).toHaveLength(0);
  });

  it('refuses an empty or too long title or body with field errors', async () => {
    const { owner, project } = await ownedProject();
    const attempts = [
      [{ title: '   ', content: 'Body' }, { title: 'required' }],
      [{ title: 'x'.repeat(LOG_TITLE_MAX + 1), content: 'Body' }, { title: 'too_big' }],
      [{ title: 'Title', content: '\n \n' }, { content: 'required' }],
      [{ title: 'Title', content: 'y'.repeat(LOG_BODY_MAX + 1) }, { content: 'too_big' }],
    ] as const;
    for (const [fields, expected] of attempts) {
      await expect(saveLog(owner.id, { id: project.publicId, ...fields })).rejects.toMatchObject({ status: 400, errorKey: 'validation', fields: expected });
    }
    expect(await logRows(project.id)).toHaveLength(0);
  });

  it('stops a new account posting logs past its rate limit', async () => {
    const { user: newcomer } = await createUser({ createdAt: new Date(Date.now() - 60_000) });
    const project = await createProject(newcomer.id);
    const allowance = RATE_LIMITS['log:user'].newAccount.limit;
    for (let index = 0; index < allowance; index += 1) await saveLog(newcomer.id, { id: project.publicId, title: `Log ${index}`, content: `Entry ${index}` });
    await expect(saveLog(newcomer.id, { id: project.publicId, title: 'One more', content: 'Flood' })).rejects.toMatchObject({ status: 429, errorKey: 'rate_limited' });
    expect(await logRows(project.id)).toHaveLength(allowance);
  });

  it('keeps a hidden project’s logs from everyone but its owner', async () => {
    const { owner, project } = await ownedProject();
    const { user: reader } = await createUser();
    await saveLog(owner.id, { id: project.publicId, title: 'Secret sauce', content: 'Shh.' });
    await getDb().update(projects).set({ hiddenAt: new Date() }).where(eq(projects.id, project.id));
    await expect(listLogs({ id: project.publicId, page: 1, pageSize: 10 }, reader.id)).rejects.toMatchObject({ errorKey: 'project_not_found' });
    await expect(listLogs({ id: project.publicId, page: 1, pageSize: 10 }, null)).rejects.toMatchObject({ errorKey: 'project_not_found' });
    expect((await listLogs({ id: project.publicId, page: 1, pageSize: 10 }, owner.id)).total).toBe(1);
  });
});

describe('comments on a log', () => {
  it('are the log’s own: counted on the log, not on the project, and not listed with the project’s comments', async () => {
    const { owner, project } = await ownedProject();
    const { user: reader } = await createUser();
    await saveLog(owner.id, { id: project.publicId, title: 'First boot', content: 'It lives.' });
    await saveLog(owner.id, { id: project.publicId, title: 'Second boot', content: 'Still alive.' });
    const onLog = await submitComment(reader.id, project.publicId, 'Which bootloader?', 1);
    await submitComment(reader.id, project.publicId, 'Lovely project overall');
    const reply = await replyToComment(owner.id, onLog.id, 'The stock one.');

    const logThreads = (await listComments({ id: project.publicId, page: 1, pageSize: 20, log: 1 }, null)).list as CommentThread[];
    expect(logThreads.map((thread) => thread.content)).toEqual(['Which bootloader?']);
    expect(logThreads[0]!.replies.map((item) => item.content)).toEqual(['The stock one.']);
    const projectThreads = (await listComments({ id: project.publicId, page: 1, pageSize: 20 }, null)).list as CommentThread[];
    expect(projectThreads.map((thread) => thread.content)).toEqual(['Lovely project overall']);
    expect((await listComments({ id: project.publicId, page: 1, pageSize: 20, log: 2 }, null)).total).toBe(0);

    const found = await findPublishedProject(project.publicId);
    expect((await getLogView(project.publicId, found, 1, null)).log.commentCount).toBe(2);
    const [counts] = await getDb().select({ comments: projects.commentCount }).from(projects).where(eq(projects.id, project.id));
    expect(counts!.comments).toBe(1);

    await deleteComment(owner.id, reply.id);
    expect((await getLogView(project.publicId, found, 1, null)).log.commentCount).toBe(1);
  });

  it('tells the owner, and the message points at the log', async () => {
    const { owner, project } = await ownedProject();
    const { user: reader } = await createUser();
    await saveLog(owner.id, { id: project.publicId, title: 'Enclosure', content: 'Printed in PETG.' });
    const comment = await submitComment(reader.id, project.publicId, 'What infill?', 1);
    const [message] = await getDb().select().from(messages).where(eq(messages.recipientId, owner.id));
    expect(message).toMatchObject({ kind: 'comment', commentId: comment.id, projectId: project.id });
    const listed = await listMessages(owner.id, { page: 1, pageSize: 10 });
    expect(listed.list[0]).toMatchObject({ kind: 'comment', project: { id: project.publicId }, comment: { id: comment.id, excerpt: 'What infill?', log: 1 } });
    // Staff reviewing a report on it are led to the log too.
    await submitReport(owner.id, { kind: 'comment', id: String(comment.id), reason: 'spam' });
    const queue = await listReports({ page: 1, pageSize: 50 });
    expect(queue.list.find((report) => report.targetId === String(comment.id))?.target?.href).toBe(`/d-${project.publicId}/log/1?comment=${comment.id}#comment-${comment.id}`);
  });

  it('are refused on a deleted log, and a hidden comment thread leaves the log’s count', async () => {
    const { owner, project } = await ownedProject();
    const { user: reader } = await createUser();
    await saveLog(owner.id, { id: project.publicId, title: 'Keep', content: 'Stays.' });
    await saveLog(owner.id, { id: project.publicId, title: 'Drop', content: 'Goes.' });
    const onDropped = await submitComment(reader.id, project.publicId, 'On the doomed log', 2);
    await deleteLog(owner.id, { id: project.publicId, n: 2 });
    await expect(submitComment(reader.id, project.publicId, 'Anyone?', 2)).rejects.toMatchObject({ status: 404, errorKey: 'log_not_found' });
    await expect(replyToComment(owner.id, onDropped.id, 'Too late')).rejects.toMatchObject({ status: 404, errorKey: 'comment_not_found' });

    const spam = await submitComment(reader.id, project.publicId, 'Spam on a log', 1);
    const found = await findPublishedProject(project.publicId);
    expect((await getLogView(project.publicId, found, 1, null)).log.commentCount).toBe(1);
    // What staff hiding a comment does to it (moderation recounts the same way).
    await getDb().update(comments).set({ hiddenAt: new Date() }).where(eq(comments.id, spam.id));
    await recountComments(getDb(), [project.id], []);
    expect((await getLogView(project.publicId, found, 1, null)).log.commentCount).toBe(0);
  });
});
