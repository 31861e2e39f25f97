import { expect, test, type Page } from '@playwright/test';
import { call, hydrated, ownProject, registerOverHttp, signInAsDemoMember, useSession } from './conversation-helpers.ts';

type Message = { id: number; kind: string; actor: { url: string } | null; project: { id: string } | null; comment: { id: number; excerpt: string } | null; read: boolean };
type Comment = { id: number; content: string; deleted: boolean; replies: Comment[]; replyCount: number };

const baseURL = () => test.info().project.use.baseURL!;

test.describe('conversation over HTTP', () => {
  test('comments and replies reach the right inboxes; reading clears them; only the owner or author deletes', async ({ request }) => {
    const { project, owner: alice } = await ownProject(baseURL(), 'Alice Owner');
    const bob = await registerOverHttp(baseURL(), 'Bob Tester');
    const mallory = await registerOverHttp(baseURL(), 'Mallory Tester');
    const detail = async () => (await call(request, 'project/detail', { id: project.id })).result.counts.comments as number;
    const initialCount = await detail();

    const aliceComment = await call<Comment>(alice.api, 'comment/submit', { id: project.id, content: 'Ask me about the layout.' });
    expect(aliceComment.retCode).toBe(0);
    // a member registered a moment ago may not post links yet; one past their first day may
    const early = await call(bob.api, 'comment/submit', { id: project.id, content: 'Which reflow profile? https://example.com/profile' });
    expect(early).toMatchObject({ status: 403, errorKey: 'links_not_allowed_yet' });
    const bobComment = await call<Comment>(bob.api, 'comment/submit', { id: project.id, content: 'Lovely board!\nWhich reflow profile?' });
    expect(bobComment.retCode).toBe(0);
    expect(bobComment.result.content).toBe('Lovely board!\nWhich reflow profile?');
    const lena = await signInAsDemoMember(baseURL(), 'lena-marsh');
    const linked = await call<Comment>(lena.api, 'comment/submit', { id: project.id, content: 'Reflow profile: https://example.com/profile' });
    expect(linked.retCode).toBe(0);
    const bobReply = await call<Comment & { replyTo: { url: string } }>(bob.api, 'comment/reply', { commentId: aliceComment.result.id, content: 'Why 4 layers?' });
    expect(bobReply.retCode).toBe(0);
    expect(bobReply.result.replyTo.url).toBe(alice.user.url);
    expect(await detail()).toBe(initialCount + 4);

    // A's inbox: both of B's actions, unread
    const inbox = await call<{ list: Message[]; unread: number }>(alice.api, 'message/list', { page: 1, pageSize: 50 });
    expect(inbox.retCode).toBe(0);
    const fromBob = inbox.result.list.filter((message) => message.actor?.url === bob.user.url);
    expect(fromBob.map((message) => message.kind).sort()).toEqual(['comment', 'reply']);
    expect(fromBob.every((message) => !message.read && message.project?.id === project.id)).toBe(true);
    expect(fromBob.find((message) => message.kind === 'reply')!.comment).toEqual({ id: bobReply.result.id, excerpt: 'Why 4 layers?' });
    expect(inbox.result.unread).toBeGreaterThanOrEqual(2);
    // nothing about A's own comment
    expect(inbox.result.list.some((message) => message.comment?.id === aliceComment.result.id)).toBe(false);

    // B's inbox has nothing from B's own actions
    const bobInbox = await call<{ list: Message[]; total: number }>(bob.api, 'message/list', { page: 1, pageSize: 50 });
    expect(bobInbox.result.list.filter((message) => message.actor?.url === bob.user.url)).toEqual([]);

    // reading: someone else's message is a 404, one, then all
    const one = fromBob[0]!;
    expect((await call(mallory.api, 'message/read', { id: one.id })).retCode).toBe(404);
    expect((await call(alice.api, 'message/read', { id: one.id })).result).toMatchObject({ id: one.id });
    const afterOne = await call<{ list: Message[]; unread: number }>(alice.api, 'message/list', { page: 1, pageSize: 50 });
    expect(afterOne.result.list.find((message) => message.id === one.id)!.read).toBe(true);
    expect(afterOne.result.unread).toBe(inbox.result.unread - 1);
    const allRead = await call<{ updated: number }>(alice.api, 'message/allRead');
    expect(allRead.result.updated).toBe(inbox.result.unread - 1);
    const unreadOnly = await call<{ list: Message[]; total: number; unread: number }>(alice.api, 'message/list', { page: 1, pageSize: 50, unreadOnly: true });
    expect(unreadOnly.result).toMatchObject({ list: [], total: 0, unread: 0 });
    expect((await call(alice.api, 'user/getUserInfo')).result.unreadMessages).toBe(0);

    // deleting: a third user is refused and nothing changes; the project owner may
    const refused = await call(mallory.api, 'comment/del', { commentId: bobComment.result.id });
    expect(refused).toMatchObject({ status: 403, retCode: 403, errorKey: 'forbidden' });
    const listed = async () => (await call<{ list: Comment[] }>(request, 'comment/list', { id: project.id, page: 1, pageSize: 50 })).result.list;
    expect((await listed()).find((comment) => comment.id === bobComment.result.id)).toMatchObject({ deleted: false, content: bobComment.result.content });
    expect(await detail()).toBe(initialCount + 4);
    const removed = await call(alice.api, 'comment/del', { commentId: bobComment.result.id });
    expect(removed).toMatchObject({ retCode: 0, result: { commentId: bobComment.result.id } });
    expect((await listed()).some((comment) => comment.id === bobComment.result.id)).toBe(false);
    expect(await detail()).toBe(initialCount + 3);
  });

  test('stars and likes of a project tell its owner once, however often they are toggled', async () => {
    const { project, owner } = await ownProject(baseURL(), 'Star Owner');
    const fan = await registerOverHttp(baseURL(), 'Star Toggler');
    for (const value of [true, false, true]) {
      expect((await call(fan.api, 'project/star', { id: project.id, value })).result.starred).toBe(value);
      expect((await call(fan.api, 'project/like', { id: project.id, value })).result.liked).toBe(value);
    }
    const inbox = await call<{ list: Message[] }>(owner.api, 'message/list', { page: 1, pageSize: 50 });
    const fromFan = inbox.result.list.filter((message) => message.actor?.url === fan.user.url);
    expect(fromFan.map((message) => message.kind).sort()).toEqual(['like', 'star']);
    expect(fromFan.every((message) => message.project?.id === project.id && !message.read)).toBe(true);
    // the owner starring their own project tells nobody
    await call(owner.api, 'project/star', { id: project.id, value: true });
    const after = await call<{ list: Message[] }>(owner.api, 'message/list', { page: 1, pageSize: 50 });
    expect(after.result.list.filter((message) => message.actor?.url === owner.user.url)).toEqual([]);
  });

  test('too long, empty or homeless comments are refused with clear errors and store nothing', async ({ request }) => {
    const { project } = await ownProject(baseURL(), 'Olive Owner');
    const bob = await registerOverHttp(baseURL(), 'Bob Validator');
    const before = await call<{ total: number }>(request, 'comment/list', { id: project.id, page: 1, pageSize: 50 });
    const count = async () => (await call(request, 'project/detail', { id: project.id })).result.counts.comments as number;
    const countBefore = await count();

    const tooLong = await call(bob.api, 'comment/submit', { id: project.id, content: 'x'.repeat(2001) });
    expect(tooLong).toMatchObject({ status: 400, retCode: 400, errorKey: 'validation', fields: { content: 'too_big' } });
    const empty = await call(bob.api, 'comment/submit', { id: project.id, content: '   ' });
    expect(empty).toMatchObject({ retCode: 400, errorKey: 'validation', fields: { content: 'required' } });
    const missing = await call(bob.api, 'comment/submit', { id: 'no-such-project', content: 'Hello' });
    expect(missing).toMatchObject({ status: 404, retCode: 404, errorKey: 'project_not_found' });
    const guest = await call(request, 'comment/submit', { id: project.id, content: 'Hello' });
    expect(guest).toMatchObject({ status: 401, retCode: 401, errorKey: 'unauthorized' });
    const tooLongReply = await call(bob.api, 'comment/reply', { commentId: 1, content: 'y'.repeat(2001) });
    expect(tooLongReply).toMatchObject({ retCode: 400, fields: { content: 'too_big' } });

    const after = await call<{ total: number }>(request, 'comment/list', { id: project.id, page: 1, pageSize: 50 });
    expect(after.result.total).toBe(before.result.total);
    expect(await count()).toBe(countBefore);
    expect((await call(bob.api, 'message/list', { page: 1, pageSize: 5 })).result.total).toBe(0);
  });
});

test.describe('conversation in Chromium', () => {
  test('B comments and replies; A sees the badge, follows the message to the comment, marks all read, the badge goes', async ({ browser }) => {
    const { project, owner: alice } = await ownProject(baseURL(), 'Alice Browser');
    const bob = await registerOverHttp(baseURL(), 'Bea Browser');
    const aliceComment = await call<Comment>(alice.api, 'comment/submit', { id: project.id, content: 'Happy to answer questions about this build.' });
    // A starts with nothing unread
    await call(alice.api, 'message/allRead');

    const bobContext = await browser.newContext();
    await useSession(bobContext, baseURL(), bob);
    const bobPage = await bobContext.newPage();
    await bobPage.goto(`/d-${project.id}#comments`);
    await hydrated(bobPage, '#comments');
    const composer = bobPage.getByRole('textbox', { name: 'Write a comment' });
    await composer.fill('Built one this weekend.\nThe USB-C footprint needed a tweak.');
    await bobPage.getByRole('button', { name: 'Post comment' }).click();
    const posted = bobPage.locator('#comments .comment', { hasText: 'Built one this weekend.' });
    await expect(posted).toBeVisible();
    await expect(posted.locator('.comment-text')).toHaveText('Built one this weekend.\nThe USB-C footprint needed a tweak.');
    await expect(composer).toHaveValue('');

    const aliceThread = bobPage.locator(`#comment-${aliceComment.result.id}`);
    await aliceThread.getByRole('button', { name: 'Reply' }).click();
    const replyBox = bobPage.getByRole('textbox', { name: `Reply to @${alice.user.nickname}` });
    await replyBox.fill('Which stencil thickness did you use?');
    await bobPage.getByRole('button', { name: 'Post reply' }).click();
    const reply = bobPage.locator('#comments .comment.is-reply', { hasText: 'Which stencil thickness did you use?' });
    await expect(reply).toBeVisible();
    await expect(reply.getByRole('link', { name: `In reply to @${alice.user.nickname}` })).toBeVisible();
    await bobContext.close();

    const aliceContext = await browser.newContext();
    await useSession(aliceContext, baseURL(), alice);
    const page = await aliceContext.newPage();
    await page.goto('/');
    // the header's account menu carries the badge
    const menu = page.getByTestId('user-menu-button');
    await expect(menu).toHaveAccessibleName(/2 unread messages/);
    await expect(page.getByTestId('unread-badge')).toHaveText('2');
    await hydrated(page, '.site-header');
    await menu.click();
    await page.getByRole('menuitem', { name: /Messages/ }).click();
    await expect(page).toHaveURL(new RegExp(`/user/${alice.user.url}/message`));
    await hydrated(page, '[data-messages]');
    await expect(page.getByTestId('unread-summary')).toHaveText('2 unread messages');
    // unread first: B's two messages lead the list
    const unread = page.locator('.message.is-unread');
    await expect(unread).toHaveCount(2);
    const replyMessage = unread.filter({ hasText: 'replied to your comment on' });
    await expect(replyMessage).toContainText(`Bea Browser replied to your comment on ${project.title}`);
    await expect(replyMessage).toContainText('Which stencil thickness did you use?');
    const commentMessage = unread.filter({ hasText: 'commented on your project' });
    await expect(commentMessage).toContainText(`Bea Browser commented on your project ${project.title}`);
    await expect(commentMessage).toContainText('Built one this weekend.');
    await expect(page.locator('.message').first()).toHaveClass(/is-unread/);

    await replyMessage.getByRole('link', { name: 'View comment' }).click();
    await expect(page).toHaveURL(/\?comment=\d+#comment-\d+$/);
    const target = page.locator(`#${new URL(page.url()).hash.slice(1)}`);
    await expect(target).toBeVisible();
    await expect(target).toContainText('Which stencil thickness did you use?');
    await expect(target).toHaveClass(/is-highlighted/);
    await expect(target).toBeInViewport();

    await page.goto(`/user/${alice.user.url}/message`);
    await hydrated(page, '[data-messages]');
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(page.getByTestId('unread-summary')).toHaveText('0 unread messages');
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await expect(page.locator('.message.is-unread')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await aliceContext.close();
  });

  test('the mobile Messages tab shows the unread count and the same list', async ({ browser }) => {
    const { project, owner: alice } = await ownProject(baseURL(), 'Alice Mobile');
    const bob = await registerOverHttp(baseURL(), 'Mo Bile');
    await call(alice.api, 'message/allRead');
    await call(bob.api, 'comment/submit', { id: project.id, content: 'Seen on my phone' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await useSession(context, baseURL(), alice);
    const page = await context.newPage();
    await page.goto('/m');
    const tab = page.locator('[data-messages-tab]');
    await expect(tab.getByRole('img', { name: '1 unread message' })).toBeVisible();
    await tab.click();
    await expect(page).toHaveURL(new RegExp(`/m/user/${alice.user.url}/message`));
    await expect(page.locator('.message', { hasText: 'Seen on my phone' })).toBeVisible();
    await hydrated(page, '[data-messages]');
    await page.locator('.message', { hasText: 'Seen on my phone' }).getByRole('button', { name: 'Mark as read' }).click();
    await expect(tab.locator('.unread-badge')).toHaveCount(0);
    await context.close();
  });

  test('guests read comments, are sent to sign in to write, and come back with their text kept', async ({ browser, request }) => {
    const { project } = await ownProject(baseURL(), 'Gina Owner');
    // a demo member: past a new account's first day, so the comment may carry its link
    const bob = await signInAsDemoMember(baseURL(), 'lena-marsh');
    const seeded = await call<Comment>(bob.api, 'comment/submit', { id: project.id, content: `Readable without signing in, see example.com/ds.pdf (${Date.now().toString(36)})` });

    // without JavaScript, the discussion is in the HTML
    const html = await (await request.get(`/d-${project.id}`)).text();
    expect(html).toContain('Readable without signing in');
    expect(html).toContain(`id="comment-${seeded.result.id}"`);

    const context = await browser.newContext();
    const page = await context.newPage();
    const reactErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /react|hydrat/i.test(message.text())) reactErrors.push(message.text());
    });
    await page.goto(`/d-${project.id}`);
    await page.locator('#comments').scrollIntoViewIfNeeded();
    await hydrated(page, '#comments');
    // its link, found by the server, is the same link once the island runs (no hydration mismatch)
    await expect(page.locator('#comments a[href="http://example.com/ds.pdf"]')).toHaveAttribute('rel', 'nofollow ugc noopener');
    expect(reactErrors).toEqual([]);
    await page.getByRole('textbox', { name: 'Write a comment' }).fill('Written before signing in');
    await page.getByRole('button', { name: 'Sign in to comment' }).click();
    await page.waitForURL((url) => url.searchParams.has('redirect'));
    const redirect = new URL(new URL(page.url()).searchParams.get('redirect')!);
    expect(redirect.pathname).toBe(`/d-${project.id}`);
    expect(redirect.hash).toBe('#comments');

    // signing in (the SSO sets the cookie) and coming back restores the text
    await useSession(context, baseURL(), bob);
    await page.goto(redirect.pathname + redirect.search + redirect.hash);
    await hydrated(page, '#comments');
    await expect(page.getByRole('textbox', { name: 'Write a comment' })).toHaveValue('Written before signing in');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await expect(page.locator('#comments .comment', { hasText: 'Written before signing in' })).toBeVisible();
    await context.close();
  });

  test('deleting asks first and keeps a tombstone when the comment has replies', async ({ browser }) => {
    const { project, owner: alice } = await ownProject(baseURL(), 'Alice Deleter');
    const bob = await registerOverHttp(baseURL(), 'Del Tester');
    const parent = await call<Comment>(bob.api, 'comment/submit', { id: project.id, content: 'To be deleted, with an answer' });
    await call(alice.api, 'comment/reply', { commentId: parent.result.id, content: 'An answer that stays' });
    const context = await browser.newContext();
    await useSession(context, baseURL(), bob);
    const page = await context.newPage();
    await page.goto(`/d-${project.id}?comment=${parent.result.id}#comment-${parent.result.id}`);
    await hydrated(page, '#comments');
    const comment = page.locator(`#comment-${parent.result.id}`).first();
    await comment.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this comment?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(comment).toContainText('To be deleted, with an answer');
    await comment.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete comment' }).click();
    await expect(comment).toHaveText('This comment was deleted');
    await expect(page.locator('#comments').getByText('An answer that stays').first()).toBeVisible();
    await page.reload();
    await expect(page.locator(`#comment-${parent.result.id}`).first()).toHaveText('This comment was deleted');
    await context.close();
  });
});
