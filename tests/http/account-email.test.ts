import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client.ts';
import { credentials, emailTokens } from '../../src/server/db/schema/index.ts';
import { sendJob } from '../../src/server/jobs/queue.ts';
import { startJobWorkers, stopJobWorkers } from '../../src/server/jobs/workers.ts';
import { sendDailyDigests } from '../../src/server/services/notifications/index.ts';
import { useApp, type AppResponse } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

/**
 * Account email with a real SMTP server started here (`SMTP_URL` points at it): the site's mail
 * jobs send through it, and the tests follow the links in what it received, over HTTP.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
// Before the app starts: the site reads SMTP_URL on its first request.
beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = 'Copperhub Test <no-reply@copperhub.test>';
});
const app = useApp();
beforeAll(async () => {
  await startJobWorkers();
});
afterAll(async () => {
  await stopJobWorkers();
  await smtp.stop();
  delete process.env.SMTP_URL;
});

let counter = 0;
const PASSWORD = 'solder-fumes-42';
const uniqueEmail = (name: string) => `${name}-${(counter += 1)}-${Date.now().toString(36)}@example.com`;

function post(path: string, body: unknown, token?: string): Promise<AppResponse> {
  return app.request(path, { method: 'POST', body, token, headers: { origin: app.origin() } });
}

/** Opens a sign-in answer's `location` as a browser would: the session cookie it sets. */
async function sessionFrom(location: string): Promise<string> {
  const url = new URL(location, app.origin());
  const opened = await app.request(url.pathname + url.search);
  const cookie = (opened.headers['set-cookie'] ?? []).find((value) => value.startsWith('token='));
  expect(cookie, `no session from ${location}`).toBeTruthy();
  return /^token=([^;]+)/.exec(cookie!)![1]!;
}

async function register(email: string, nickname = 'Mail Tester'): Promise<string> {
  const answer = await post('/sso/api/register', { email, password: PASSWORD, nickname });
  expect(answer.json<{ retCode: number }>().retCode, answer.body).toBe(0);
  return sessionFrom(answer.json<{ result: { location: string } }>().result.location);
}

async function signIn(email: string, password = PASSWORD): Promise<AppResponse> {
  return post('/sso/api/login', { email, password });
}

async function isSignedIn(token: string): Promise<boolean> {
  return (await app.request('/api/user/getUserInfo', { method: 'POST', body: {}, token, headers: { origin: app.origin() } })).status === 200;
}

/** The path and query of the mail's link to `/sso/<page>`. */
function linkTo(mail: { links: string[] }, page: 'verify' | 'reset'): string {
  const link = mail.links.find((href) => new URL(href).pathname === `/sso/${page}`);
  expect(link, JSON.stringify(mail.links)).toBeTruthy();
  const url = new URL(link!);
  expect(url.origin).toBe(app.origin());
  return url.pathname + url.search;
}

describe('signing up on a site that sends email', () => {
  it('mails a confirmation link; until it is opened the member can star but not comment or publish', async () => {
    const owner = await createUser({ nickname: 'Board Owner' });
    const project = await createProject(owner.user.id, { title: 'Mail test board' });
    const email = uniqueEmail('newcomer');
    const token = await register(email, 'Newcomer');

    const mail = await smtp.waitForMail(email);
    expect(mail.subject).toBe('Confirm your email for Copperhub');
    expect(mail.text).toContain('Hello Newcomer,');
    const verifyLink = linkTo(mail, 'verify');

    const star = await post('/api/project/star', { id: project.publicId, value: true }, token);
    expect(star.json()).toMatchObject({ retCode: 0 });
    const comment = await post('/api/comment/submit', { id: project.publicId, content: 'First!' }, token);
    expect(comment.status).toBe(403);
    expect(comment.json()).toMatchObject({ errorKey: 'email_not_verified', message: 'Confirm your email address first: open the link we sent you.' });
    const publish = await post('/api/release/saveProject', { title: 'x', summary: 'x', description: 'x', tags: [], licence: 'MIT', attachments: [], publish: true }, token);
    expect(publish.json()).toMatchObject({ errorKey: 'email_not_verified' });
    // The project page says why, where they would comment.
    const page = await app.request(`/d-${project.publicId}`, { token });
    expect(page.body).toContain('data-testid="verify-email-banner"');

    const opened = await app.request(verifyLink);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain(`Thank you: ${email} is confirmed.`);
    expect((await post('/api/comment/submit', { id: project.publicId, content: 'Now I can comment.' }, token)).json()).toMatchObject({ retCode: 0 });
    expect((await app.request(`/d-${project.publicId}`, { token })).body).not.toContain('verify-email-banner');

    // The link worked once.
    const again = await app.request(verifyLink);
    expect(again.status).toBe(400);
    expect(again.body).toContain('This link is not valid any more');
  });
});

describe('the language of the emails', () => {
  it('is the one the member signed up in, and follows them when they switch language signed in', async () => {
    const email = uniqueEmail('zh');
    const answer = await app.request('/sso/api/register', { method: 'POST', body: { email, password: PASSWORD, nickname: '小明' }, headers: { origin: app.origin(), cookie: 'i18n_redirected=zh-CN' } });
    const token = await sessionFrom(answer.json<{ result: { location: string } }>().result.location);
    const mail = await smtp.waitForMail(email);
    expect(mail.subject).toBe('确认你在 Copperhub 的邮箱');
    expect(mail.text).toContain('小明，你好：');

    // Switched to English while signed in: the next mail is in English.
    await app.request('/', { token, headers: { cookie: 'i18n_redirected=en-US' } });
    await post('/sso/api/forgot', { email });
    expect((await smtp.waitForMail(email, /password/i)).subject).toBe('Set a new Copperhub password');
  });
});

describe('forgot password', () => {
  it('mails a single-use reset link that ends every other session', async () => {
    const email = uniqueEmail('forgetful');
    const first = await register(email, 'Forgetful');
    const second = await sessionFrom((await signIn(email)).json<{ result: { location: string } }>().result.location);
    expect(await isSignedIn(first)).toBe(true);

    const asked = await post('/sso/api/forgot', { email: email.toUpperCase() });
    expect(asked.status).toBe(200);
    expect(asked.json()).toEqual({ retCode: 0, result: { sent: true } });
    const mail = await smtp.waitForMail(email, /new .*password/i);
    const resetLink = linkTo(mail, 'reset');
    const token = new URL(resetLink, app.origin()).searchParams.get('token')!;
    // Stored hashed: the table never holds the token of the link.
    const rows = await getDb().select({ hash: emailTokens.tokenHash }).from(emailTokens);
    expect(rows.some((row) => row.hash === token)).toBe(false);

    const form = await app.request(resetLink);
    expect(form.status).toBe(200);
    expect(form.body).toContain('Set a new password');

    const reset = await post('/sso/api/reset', { token, password: 'a brand new passphrase' });
    expect(reset.json()).toMatchObject({ retCode: 0 });
    const fresh = await sessionFrom(reset.json<{ result: { location: string } }>().result.location);
    expect(await isSignedIn(first)).toBe(false);
    expect(await isSignedIn(second)).toBe(false);
    expect(await isSignedIn(fresh)).toBe(true);

    const reused = await post('/sso/api/reset', { token, password: 'another passphrase' });
    expect(reused.status).toBe(400);
    expect(reused.json()).toMatchObject({ errorKey: 'token_invalid' });
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, 'a brand new passphrase')).json()).toMatchObject({ retCode: 0 });
  });

  it('refuses an expired link, on the page form too', async () => {
    const email = uniqueEmail('late');
    await register(email, 'Late Reader');
    await post('/sso/api/forgot', { email });
    const resetLink = linkTo(await smtp.waitForMail(email, /new .*password/i), 'reset');
    const [account] = await getDb().select({ userId: credentials.userId }).from(credentials).where(eq(credentials.email, email));
    await getDb().update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.userId, account!.userId));

    const submitted = await app.request(resetLink, {
      method: 'POST',
      body: new URLSearchParams({ password: 'too late a passphrase' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.origin() },
    });
    expect(submitted.status).toBe(400);
    expect(submitted.body).toContain('This link is not valid any more');
    expect((await signIn(email, 'too late a passphrase')).status).toBe(401);
  });

  it('answers an unknown email exactly as a known one, and sends it nothing', async () => {
    const known = uniqueEmail('known');
    await register(known);
    const unknown = uniqueEmail('nobody');
    const [forKnown, forUnknown] = [await post('/sso/api/forgot', { email: known }), await post('/sso/api/forgot', { email: unknown })];
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.body).toBe(forKnown.body);
    const page = (email: string) =>
      app.request('/sso/forgot', { method: 'POST', body: new URLSearchParams({ email }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.origin() } });
    const [pageKnown, pageUnknown] = [await page(known), await page(unknown)];
    expect(pageUnknown.status).toBe(pageKnown.status);
    // The same page, word for word (the language switcher's random element id aside).
    const same = (body: string, email: string) => body.replace(email, 'EMAIL').replace(/lang-[a-z0-9]+/g, 'lang-id');
    expect(same(pageUnknown.body, unknown)).toBe(same(pageKnown.body, known));
    // Sign-in: the same answer for a wrong password and an unknown email.
    const [wrong, nobody] = [await signIn(known, 'not the password'), await signIn(unknown, 'not the password')];
    expect(nobody.status).toBe(wrong.status);
    expect(nobody.body).toBe(wrong.body);

    await smtp.waitForMail(known, /new .*password/i);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.mails.some((mail) => mail.to.includes(unknown))).toBe(false);
  });
});

describe('changing the email address', () => {
  it('mails the new address and moves the account only when its link is opened', async () => {
    const before = uniqueEmail('mover');
    const token = await register(before, 'Mover');
    const after = uniqueEmail('moved');

    const wrong = await post('/api/user/changeEmail', { email: after, password: 'not my password' }, token);
    expect(wrong.json()).toMatchObject({ errorKey: 'invalid_credentials', fields: { password: 'wrong_password' } });
    const asked = await post('/api/user/changeEmail', { email: after, password: PASSWORD }, token);
    expect(asked.json()).toMatchObject({ retCode: 0, result: { sent: true, email: after } });
    // Nothing changes until the link is opened.
    expect((await signIn(before)).json()).toMatchObject({ retCode: 0 });

    const mail = await smtp.waitForMail(after, /new email/i);
    expect(mail.text).toContain(after);
    const opened = await app.request(linkTo(mail, 'verify'));
    expect(opened.status).toBe(200);
    expect(opened.body).toContain(`Your account now uses ${after}.`);
    expect((await signIn(after)).json()).toMatchObject({ retCode: 0 });
    expect((await signIn(before)).status).toBe(401);
  });
});

describe('the daily notification digest', () => {
  it('mails members their unread comments once a day, and nothing to those who chose never', async () => {
    const daily = uniqueEmail('daily');
    const never = uniqueEmail('never');
    const dailyToken = await register(daily, 'Daily Reader');
    const neverToken = await register(never, 'Never Reader');
    expect((await post('/api/user/emailSettings', { comments: 'never' }, neverToken)).json()).toMatchObject({ retCode: 0, result: { comments: 'never', replies: 'daily', stars: 'daily', email: never } });
    expect((await post('/api/user/emailSettings', { comments: 'weekly' }, neverToken)).json()).toMatchObject({ errorKey: 'validation' });
    // The profile's email section shows the address and leads to the notification settings,
    // where the choice shows checked, kind by kind.
    const info = (await app.request('/api/user/getUserInfo', { token: neverToken })).json<{ result: { url: string } }>().result;
    const profile = await app.request(`/user/${info.url}/profile`, { token: neverToken });
    expect(profile.body).toContain(`Your email: ${never}`);
    expect(profile.body).toContain(`href="/user/${info.url}/notifications"`);
    const settings = await app.request(`/user/${info.url}/notifications`, { token: neverToken });
    const emailBox = (label: string) => {
      const box = new RegExp(`<input type="checkbox" aria-label="${label}: by email"( checked="")?`).exec(settings.body);
      expect(box, label).not.toBeNull();
      return box![1] !== undefined;
    };
    expect([emailBox('Comments on your projects'), emailBox('Replies to your comments'), emailBox('Stars on your projects')]).toEqual([false, true, true]);
    const owners = await getDb().select({ userId: credentials.userId, email: credentials.email }).from(credentials);
    const idOf = (email: string) => owners.find((row) => row.email === email)!.userId;
    const dailyProject = await createProject(idOf(daily), { title: 'Daily digest board' });
    const neverProject = await createProject(idOf(never), { title: 'Quiet board' });
    const commenter = await createUser({ nickname: 'Keen Commenter' });
    // Two different comments: the same text twice within an hour is refused as a duplicate.
    for (const [project, content] of [[dailyProject, 'Nice traces!'], [neverProject, 'Clean silkscreen!']] as const) {
      expect((await post('/api/comment/submit', { id: project.publicId, content }, commenter.token)).json()).toMatchObject({ retCode: 0 });
    }
    expect(dailyToken).toBeTruthy();

    await sendJob('digest', {}, 'test-digest');
    const digest = await smtp.waitForMail(daily, /notification/i);
    expect(digest.subject).toBe('1 new notification on Copperhub');
    expect(digest.text).toContain('Keen Commenter commented on Daily digest board');
    expect(digest.links.some((href) => href.endsWith('/message'))).toBe(true);

    // The same day again: nothing more, for anyone.
    expect(await sendDailyDigests()).toEqual({ mailed: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.mails.filter((mail) => mail.to.includes(daily) && /notification/i.test(mail.subject))).toHaveLength(1);
    expect(smtp.mails.some((mail) => mail.to.includes(never) && /notification/i.test(mail.subject))).toBe(false);
  });
});
