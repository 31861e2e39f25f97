import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getT } from '../../src/lib/i18n.ts';
import { readDraft } from '../../src/lib/comment-drafts.ts';
import { LOG_BODY_MAX, LOG_TITLE_MAX } from '../../src/lib/logs.ts';
import { noticeText } from '../../src/lib/notice.ts';
import { createComments } from '../../src/stores/comments.ts';
import { createLogEditor, logFieldProblem } from '../../src/stores/log-editor.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const t = getT('en-US');
const destination = (n: number | null) => (n === null ? '/d-p1/logs' : `/d-p1/log/${n}`);

describe('the build log editor store', () => {
  it('refuses an empty or too long title or body before sending, in words the reader understands', () => {
    expect(noticeText(logFieldProblem('title', '  \n ')!, t)).toBe('Give the log a title.');
    expect(noticeText(logFieldProblem('title', 'x'.repeat(LOG_TITLE_MAX + 1))!, t)).toBe('A title is at most 120 characters.');
    expect(logFieldProblem('title', '界'.repeat(LOG_TITLE_MAX))).toBeUndefined();
    expect(noticeText(logFieldProblem('content', '')!, t)).toBe('Write something in the log.');
    expect(noticeText(logFieldProblem('content', 'y'.repeat(LOG_BODY_MAX + 1))!, t)).toBe('A log is at most 20,000 characters.');
  });

  it('shows the problems instead of sending, and clears a field’s problem when it changes', async () => {
    const editor = createLogEditor({ projectId: 'p1', destination, t });
    expect(await editor.save()).toBe(false);
    expect(Object.keys(editor.$editor.get().errors).sort()).toEqual(['content', 'title']);
    editor.setField('title', 'Reflow day');
    expect(editor.$editor.get().errors.title).toBeUndefined();
    expect(editor.$editor.get().errors.content).toBeDefined();
    expect(editor.$editor.get().busy).toBeNull();
  });

  it('does not send a log while a picture is still uploading into it', async () => {
    const editor = createLogEditor({ projectId: 'p1', destination, t });
    editor.setField('title', 'Pictures');
    editor.setField('content', 'Look:\n![Uploading board…](#upload-abc1)\n');
    expect(await editor.save()).toBe(false);
    expect(noticeText(editor.$editor.get().status!, t)).toBe('Wait until the pictures have finished uploading.');
  });

  it('starts from the log being edited, and asks before deleting it', () => {
    const editor = createLogEditor({ projectId: 'p1', log: { n: 3, title: 'Reflow', content: 'Hot air.' }, destination, t });
    expect(editor.$editor.get()).toMatchObject({ title: 'Reflow', content: 'Hot air.', confirmingDelete: false });
    editor.askDelete();
    expect(editor.$editor.get().confirmingDelete).toBe(true);
    editor.cancelDelete();
    expect(editor.$editor.get().confirmingDelete).toBe(false);
  });
});

describe('comments on a build log', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('sessionStorage', memoryStorage());
  });

  it('keep their draft apart from the project’s own comments', () => {
    const base = { projectId: 'p1', commentCount: 0, initial: { list: [], total: 0, page: 1, pageSize: 20 }, sort: 'newest' as const, focus: null, focusId: null, viewer: { url: 'ada', nickname: 'Ada', avatar: null }, signInUrl: '/sso/login', maxLength: 2000 };
    createComments({ ...base, logN: 2 }).setText('On the log');
    createComments(base).setText('On the project');
    expect(readDraft('p1/log/2', 'comment')?.text).toBe('On the log');
    expect(readDraft('p1', 'comment')?.text).toBe('On the project');
  });
});
